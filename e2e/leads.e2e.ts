import { readFileSync } from 'node:fs';
import { LEAD_CSV_COLUMNS } from '@leadex/domain';
import type { APIRequestContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { recordBodies, recordRequests, section, tableRows, toast } from './screen';
import { fullPageScreenshot } from './screenshots';
import { apexKey, createBuyerViaApi, createLiveCampaign, downReceiver, expectPath, pathOf, USERS } from './support';

/**
 * Issue 12: the leads lists, the lead detail and the CSV export, per role. The leads are posted
 * through the public API (POST /api/lead) with fixed inputs: each run starts a fresh exchange, so
 * names and phones need not be unique across runs, only within one.
 */
const e2e = useBrowser();

/** The 18 columns of admin §2 as the export names them (one table in packages/domain, read by the server). */
const CSV_HEADER = LEAD_CSV_COLUMNS.admin.join(',');
/** The list names the same columns, but for its Sub ID and Pub ID (the export keeps the spec's "Sub Id"). */
const ADMIN_COLUMNS = LEAD_CSV_COLUMNS.admin.map((column) => column.replace(/ Id$/, ' ID'));

const SUMMIT = 'Summit Roofing Co.';
/** A screen's rows arrive after its code, its data and the accessibility check: wait up to 10 s. */
const POLL = { timeout: 10_000 };
const FAILING_BUYER = 'Leads E2E Failing Webhook';
const RECEIVER_ERROR = 'CRM down for maintenance';

/** The leads of this file, posted by the seeded source Apex Lead Partners (it may post direct). */
const LEADS = {
  /** Sold to Summit Roofing's Texas campaign at $45; an 11-digit phone, consent and TrustedForm, no LeadiD. */
  sold: {
    service: 'roofing',
    zip: '75201',
    campaign: 'SUMMIT-TXOK',
    name: 'Avery Leadtest',
    phone: '1 (214) 555-7001',
    email: 'avery.leadtest@example.com',
    tcpa_consent: true,
    trusted_form: 'https://cert.trustedform.com/0a4d55a8d778e5022fab701977c5d840bbc486d0',
    homeowner: false,
    sub_id: 'e2e-sub',
    pub_id: 'e2e-pub',
    metadata: { utm_source: 'e2e', clicks: 3 },
  },
  /** Nobody buys roofing in Maine: stored with No Buyer. */
  unsold: {
    service: 'roofing',
    zip: '04101',
    name: 'Blake Nobuyer',
    email: 'blake.nobuyer@example.com',
    tcpa_consent: false,
  },
  /** Sold to BrightPath Solar: another buyer's lead for Summit Roofing. */
  solar: {
    service: 'solar',
    zip: '85004',
    campaign: 'BRIGHT-SW',
    name: 'Casey Solartest',
    phone: '6025557003',
    email: 'casey.solartest@example.com',
    tcpa_consent: true,
  },
  /** What a source sent is shown, never run: HTML in the name, a javascript: certificate URL. */
  hostile: {
    service: 'roofing',
    zip: '04101',
    name: '<img src=x onerror=alert(1)>Drew',
    email: 'drew.hostile@example.com',
    trusted_form: 'javascript:alert(1)',
    homeowner: true,
  },
} as const;

const ids = { sold: '', unsold: '', solar: '', hostile: '', failing: '' };
let failingCampaign = '';

/** The failing buyer's system: every webhook answers 500. */
let receiver: Awaited<ReturnType<typeof downReceiver>>;

/** POST /api/lead with the source's key: answers the stored lead's id. */
async function postLead(api: APIRequestContext, key: string, lead: object, sold: boolean): Promise<string> {
  const res = await api.post('/api/lead', { headers: { authorization: `Bearer ${key}` }, data: lead });
  const answer = (await res.json()) as { ok: boolean; lead_id?: string; status?: string; reason?: string };
  expect(answer, JSON.stringify(answer)).toMatchObject(sold ? { ok: true, status: 'sold' } : { ok: false });
  expect(answer.lead_id).toMatch(/^lead_/);
  return answer.lead_id as string;
}

beforeAll(async () => {
  receiver = await downReceiver('/leads', RECEIVER_ERROR);

  const { context, page } = await e2e.signedIn(USERS.admin);
  const api = page.request;

  // A key of the seeded source Apex Lead Partners that may post direct.
  const key = await apexKey(api, 'Leads e2e');

  // A buyer whose campaign delivers by a webhook to the receiver above, which fails.
  const buyerId = await createBuyerViaApi(page, FAILING_BUYER, 'leads-e2e-failing');
  const campaign = await createLiveCampaign(api, {
    name: 'Windows - Manhattan webhook',
    buyer: buyerId,
    price: 50,
    fixed_id: 'LEADS-E2E-FAIL',
    service: 'windows',
    zip: '10001',
    webhook: receiver.url,
  });
  failingCampaign = campaign._id;

  ids.sold = await postLead(api, key, LEADS.sold, true);
  ids.unsold = await postLead(api, key, LEADS.unsold, false);
  ids.solar = await postLead(api, key, LEADS.solar, true);
  ids.hostile = await postLead(api, key, LEADS.hostile, false);
  ids.failing = await postLead(
    api,
    key,
    {
      service: 'windows',
      zip: '10001',
      campaign: 'LEADS-E2E-FAIL',
      name: 'Emery Webhookfail',
      phone: '2125557005',
      email: 'emery.webhookfail@example.com',
    },
    true,
  );
  await context.close();
});

afterAll(async () => {
  await receiver?.close();
});

/** The texts of a table's column headers. */
/** The leads screens on a wide screen, where the admin's 18 columns fit (1440 px). */
const WIDE = { width: 1440, height: 900 };

/** Where the web keeps a user's chosen leads columns (apps/web/src/features/leads/LeadColumnsChooser.tsx). */
const leadColumnsKey = (userId: string, role: string) => `leadex:lead-columns:${role}:${userId}`;

/**
 * A page of `user`, signed in, on a wide screen with every column of the leads table chosen (a laptop's
 * defaults hide some: leads-laptop.e2e.ts), opened at `path`.
 */
async function openWide(user: { username: string; password: string }, path: string) {
  const opened = await e2e.signedIn(user);
  const session = (await (await opened.page.request.get('/api/session')).json()) as { user_id: string; role: string };
  await opened.page.addInitScript(
    (key) => localStorage.setItem(key, '[]'),
    leadColumnsKey(session.user_id, session.role),
  );
  await opened.page.setViewportSize(WIDE);
  await opened.page.goto(path);
  return opened;
}

async function headers(scope: Page | Locator): Promise<string[]> {
  return (await scope.locator('table thead th').allInnerTexts()).map((t) => t.trim()).filter(Boolean);
}

/** The cells of a row, by column title. */
async function rowCells(page: Page, row: Locator): Promise<Record<string, string>> {
  const titles = (await page.locator('table thead th').allInnerTexts()).map((t) => t.trim());
  const cells = (await row.locator('td').allInnerTexts()).map((t) => t.trim());
  return Object.fromEntries(titles.map((title, i) => [title, cells[i] ?? '']));
}

/** Clicks Export to CSV and answers the downloaded file's name and lines (header first). */
async function exportCsv(page: Page): Promise<{ name: string; lines: string[] }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export to CSV' }).click(),
  ]);
  const csv = readFileSync((await download.path()) as string, 'utf8').replace(/^\uFEFF/, '');
  return { name: download.suggestedFilename(), lines: csv.trim().split(/\r?\n/) };
}

/** The list's total, from its pagination text ('1–15 of 53'). */
async function listTotal(page: Page): Promise<number> {
  const text = await page
    .locator('.mantine-datatable-pagination')
    .getByText(/^\d+–\d+ of \d+$/)
    .textContent();
  return Number(text?.split(' of ')[1]);
}

/** A URL search parameter of the page. */
function param(page: Page, name: string): string | null {
  return new URL(page.url()).searchParams.get(name);
}

describe('the admin leads list', () => {
  it('shows the 18 columns, the phone formatted and Yes/No badges; a wide table scrolls inside its card', async () => {
    const { context, page } = await openWide(USERS.admin, '/leads');
    const row = tableRows(page).filter({ hasText: LEADS.sold.name });
    await row.waitFor();
    expect(await headers(page)).toEqual(ADMIN_COLUMNS);
    // Today is the default range, newest first.
    expect(await page.getByRole('radio', { name: 'Today' }).isChecked()).toBe(true);

    const cells = await rowCells(page, row);
    expect(cells).toMatchObject({
      Name: LEADS.sold.name,
      Buyers: SUMMIT,
      // Issue 27 item 12: the service's label, never its key.
      Service: 'Roofing',
      State: 'TX',
      Zip: '75201',
      Cost: '$18.00',
      Price: '$45.00',
      Source: 'Apex Lead Partners',
      'Sub ID': 'e2e-sub',
      'Pub ID': 'e2e-pub',
      'TCPA Consent': 'Yes',
      'Trusted Form': 'Yes',
      LeadiD: 'No',
      Phone: '(214) 555-7001',
      Email: LEADS.sold.email,
      Homeowner: 'No',
    });
    expect(cells.Date).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2} [AP]M ET$/);
    expect((await rowCells(page, tableRows(page).filter({ hasText: LEADS.unsold.name }))).Buyers).toBe('No Buyer');

    // The table scrolls sideways inside its card; the page itself does not.
    const widths = await page.evaluate(() => {
      const table = document.querySelector('table');
      const scroller = table?.closest('.mantine-ScrollArea-viewport') as HTMLElement | null;
      return {
        page: document.documentElement.scrollWidth,
        window: window.innerWidth,
        table: table?.scrollWidth ?? 0,
        viewport: scroller?.clientWidth ?? 0,
      };
    });
    expect(widths.page).toBeLessThanOrEqual(widths.window);
    expect(widths.table).toBeGreaterThan(widths.viewport);
    await fullPageScreenshot(page, 'leads-admin-list');
    await context.close();
  });

  it('keeps the filters in the URL: Back restores them, a copied link opens the same view', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.goto('/leads');
    await tableRows(page).filter({ hasText: LEADS.sold.name }).waitFor();

    // The name filter (contains, any case) goes to the URL. 'leadtest' is in this file's name only: the
    // demo data has an Avery too, whose lead falls in today at some hours of the day.
    await page.getByRole('textbox', { name: 'Search by name' }).fill('LEADTEST');
    await expect.poll(() => param(page, 'name'), POLL).toBe('LEADTEST');
    await expect.poll(() => tableRows(page).count(), POLL).toBe(1);

    // A row opens the lead; Back comes to the same filtered list.
    await tableRows(page).filter({ hasText: LEADS.sold.name }).click();
    await expectPath(page, `/lead/${ids.sold}`);
    await page.getByRole('heading', { name: LEADS.sold.name, level: 1 }).waitFor();
    await page.goBack();
    await expectPath(page, '/leads');
    expect(param(page, 'name')).toBe('LEADTEST');
    await expect.poll(() => page.getByRole('textbox', { name: 'Search by name' }).inputValue(), POLL).toBe('LEADTEST');
    await expect.poll(() => tableRows(page).count(), POLL).toBe(1);
    await page.getByRole('textbox', { name: 'Search by name' }).fill('');
    await expect.poll(() => param(page, 'name'), POLL).toBe(null);

    // Buyer: No Buyer lists the unsold leads only.
    const buyer = page.getByRole('combobox', { name: 'Filter by buyer' });
    await buyer.click();
    await page.getByRole('option', { name: 'No Buyer', exact: true }).click();
    await expect.poll(() => param(page, 'buyer'), POLL).toBe('none');
    await tableRows(page).filter({ hasText: LEADS.unsold.name }).waitFor();
    await expect.poll(() => tableRows(page).filter({ hasText: LEADS.sold.name }).count(), POLL).toBe(0);

    // Service, a select of the values present today.
    const service = page.getByRole('combobox', { name: 'Filter by service' });
    await service.click();
    await page.getByRole('option', { name: 'Roofing', exact: true }).click();
    await expect.poll(() => param(page, 'service'), POLL).toBe('roofing');
    await expect.poll(() => tableRows(page).filter({ hasText: LEADS.unsold.name }).count(), POLL).toBe(1);
    const shared = page.url();

    // The copied link, opened elsewhere, shows the same view.
    const other = await e2e.signedIn(USERS.admin);
    await other.page.goto(shared);
    await tableRows(other.page).filter({ hasText: LEADS.unsold.name }).waitFor();
    await expect
      .poll(() => other.page.getByRole('combobox', { name: 'Filter by buyer' }).inputValue())
      .toBe('No Buyer');
    expect(await other.page.getByRole('combobox', { name: 'Filter by service' }).inputValue()).toBe('Roofing');
    expect(await tableRows(other.page).filter({ hasText: LEADS.sold.name }).count()).toBe(0);
    await other.context.close();
    await context.close();
  });

  it('pages and sorts in the URL over Last 30 Days; Custom enables the date picker', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.goto('/leads');
    await tableRows(page).first().waitFor();
    const picker = page.getByRole('button', { name: 'Custom date range' });
    expect(await picker.isDisabled()).toBe(true);

    // Last 30 Days holds the demo's leads: more than a page of 15.
    await page.getByText('Last 30 Days', { exact: true }).click();
    await expect.poll(() => param(page, 'dateq'), POLL).toBe('last30d');
    await expect.poll(() => tableRows(page).count(), POLL).toBe(15);
    const pagination = page.locator('.mantine-datatable-pagination');
    await pagination.getByText(/^1–15 of \d+$/).waitFor();
    await pagination.getByRole('button', { name: '2', exact: true }).click();
    await expect.poll(() => param(page, 'page'), POLL).toBe('2');
    await pagination.getByText(/^16–30 of \d+$/).waitFor();

    // Sorting by service goes back to the first page (mantine-datatable keeps the direction).
    await page
      .locator('table thead th')
      .filter({ hasText: /^Service$/ })
      .click();
    await expect.poll(() => param(page, 'sort'), POLL).toBe('service');
    expect(param(page, 'page')).toBe(null);
    const order = param(page, 'order');
    // The rows follow (the last ones may stay on screen for a moment).
    await expect
      .poll(async () => {
        const shown = await page.locator('table tbody tr td:nth-child(4)').allInnerTexts();
        const sorted = [...shown].sort();
        return JSON.stringify(shown) === JSON.stringify(order === 'desc' ? sorted.reverse() : sorted);
      }, POLL)
      .toBe(true);
    await pagination.getByText(/^1–15 of \d+$/).waitFor();

    // Back returns to page 2 of the list by date.
    await page.goBack();
    await expect.poll(() => param(page, 'page'), POLL).toBe('2');
    expect(param(page, 'sort')).toBe(null);
    await pagination.getByText(/^16–30 of \d+$/).waitFor();

    // Custom: the picker opens for it, starting at today's day, and the list follows.
    await page.getByText('Custom', { exact: true }).click();
    await expect.poll(() => param(page, 'dateq'), POLL).toBe('range');
    await expect.poll(() => picker.isDisabled(), POLL).toBe(false);
    const start = param(page, 'dateRangeStart') ?? '';
    expect(start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(param(page, 'dateRangeEnd')).toBe(start);
    const [y, m, d] = start.split('-');
    await expect.poll(() => picker.textContent(), POLL).toContain(`${m}/${d}/${y}`);
    await tableRows(page).filter({ hasText: LEADS.sold.name }).waitFor();
    await page.getByText('Today', { exact: true }).click();
    await expect.poll(() => param(page, 'dateq'), POLL).toBe(null);
    await expect.poll(() => picker.isDisabled(), POLL).toBe(true);
    expect(param(page, 'dateRangeStart')).toBe(null);
    await context.close();
  });

  it('exports the filtered list as leads_{date}.csv; the button is disabled without rows', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.goto('/leads?name=Leadtest');
    await tableRows(page).filter({ hasText: LEADS.sold.name }).waitFor();
    await expect.poll(() => tableRows(page).count(), POLL).toBe(1);
    const { name, lines } = await exportCsv(page);
    expect(name).toMatch(/^leads_\d{4}-\d{2}-\d{2}\.csv$/);
    // The role's columns first; the services' own fields follow them (issue 33).
    expect(lines[0]?.split(',').slice(0, CSV_HEADER.split(',').length).join(',')).toBe(CSV_HEADER);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(LEADS.sold.name);
    expect(lines[1]).toContain(SUMMIT);

    await page.getByRole('textbox', { name: 'Search by name' }).fill('nobody-has-this-name');
    await page.getByText('No results', { exact: true }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Export to CSV' }).isDisabled(), POLL).toBe(true);
    await context.close();
  });
});

describe('the admin lead detail', () => {
  it('edits a field with only the change, leaves edit mode on an unchanged save, and rates the quality', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const puts = recordBodies(page, 'PUT', new RegExp(`/api/lead/${ids.sold}$`));
    await page.goto(`/lead/${ids.sold}`);
    await page.getByRole('heading', { name: LEADS.sold.name, level: 1 }).waitFor();
    const city = page.getByRole('textbox', { name: 'City', exact: true });
    expect(await page.getByRole('textbox', { name: 'Phone' }).inputValue()).toBe('(214) 555-7001');

    // An unchanged Save only leaves edit mode.
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    expect(puts).toEqual([]);

    // A change sends only itself, with the spec's toast.
    await page.getByRole('button', { name: 'Edit' }).click();
    await city.fill('Dallas');
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, `${LEADS.sold.name} updated successfully`).waitFor();
    await page.getByRole('button', { name: 'Edit' }).waitFor();
    expect(puts).toEqual([{ city: 'Dallas' }]);
    await page.reload();
    await expect.poll(() => city.inputValue(), POLL).toBe('Dallas');

    // Cancel puts back what was there; a bad ZIP is refused on the field.
    await page.getByRole('button', { name: 'Edit' }).click();
    const zip = page.getByRole('textbox', { name: 'Zip', exact: true });
    await zip.fill('7520');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Zip must be 5 digits', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await zip.inputValue()).toBe('75201');
    expect(puts).toHaveLength(1);

    // Quality: Bad, then Good, each a PUT of quality.ok.
    const quality = section(page, 'Quality');
    await quality.getByRole('button', { name: 'Bad' }).click();
    await expect
      .poll(() => quality.getByRole('button', { name: 'Bad' }).getAttribute('aria-pressed'), POLL)
      .toBe('true');
    expect(puts.at(-1)).toEqual({ quality: { ok: false } });
    await quality.getByRole('button', { name: 'Good' }).click();
    await expect
      .poll(() => quality.getByRole('button', { name: 'Good' }).getAttribute('aria-pressed'), POLL)
      .toBe('true');
    expect(puts.at(-1)).toEqual({ quality: { ok: true } });

    // Metadata, pretty-printed.
    const metadata = section(page, 'Metadata').getByRole('region', { name: 'Metadata' });
    expect(await metadata.textContent()).toContain('"utm_source": "e2e"');
    await context.close();
  });

  it('shows the buyers, the delivery logs and the decision explained', async () => {
    const { context, page } = await openWide(USERS.admin, `/lead/${ids.sold}`);
    await page.getByRole('heading', { name: LEADS.sold.name, level: 1 }).waitFor();

    const buyers = section(page, 'Buyers');
    const match = tableRows(buyers).filter({ hasText: SUMMIT });
    await match.waitFor();
    expect(await match.textContent()).toContain('$45.00');

    // The decision: the targeted campaign won.
    const decision = section(page, 'Decision Explained');
    const won = tableRows(decision).filter({ hasText: 'Roofing - Texas & Oklahoma' });
    await won.getByText('Won', { exact: true }).waitFor();
    expect(await won.textContent()).toContain('$45.00');

    // The delivery logs: Summit's email, kept in the outbox (no SMTP in tests), logged as an attempt.
    const logs = section(page, 'Delivery Logs');
    await logs.getByText(SUMMIT, { exact: true }).first().waitFor();
    await expect
      .poll(
        async () => {
          await page.reload();
          await logs.getByText(SUMMIT, { exact: true }).first().waitFor();
          return logs.getByRole('heading', { name: 'Email', exact: true }).count();
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    const attempt = logs.getByRole('button', { name: /dispatch@summitroofing\.example/ });
    await attempt.click();
    await logs.getByText('Request', { exact: true }).first().waitFor();
    await section(page, 'Returns').getByText('No return requested').waitFor();
    await fullPageScreenshot(page, 'lead-admin-detail');
    await context.close();
  });

  it('resends a failed webhook delivery', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    // The first try has failed once the lead's webhook log holds an attempt not accepted.
    await expect
      .poll(
        async () => {
          const lead = (await (await page.request.get(`/api/lead/${ids.failing}?includeNotifyLogs=true`)).json()) as {
            match: { webhook?: { accept: boolean }[] }[];
          };
          return lead.match[0]?.webhook?.some((a) => !a.accept) ?? false;
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    const before = receiver.received();
    const resends = recordRequests(page, 'POST', /\/api\/lead\/lead_[^/]+\/match\/[^/]+\/resend$/);

    await page.goto(`/lead/${ids.failing}`);
    await page.getByRole('heading', { name: 'Emery Webhookfail', level: 1 }).waitFor();
    const logs = section(page, 'Delivery Logs');
    await logs.getByText(`The delivery to ${FAILING_BUYER} failed.`).waitFor();
    const failed = logs.getByRole('button', { name: new RegExp(receiver.url.replace(/[./]/g, '\\$&')) }).first();
    await failed.click();
    await logs.getByText(RECEIVER_ERROR).first().waitFor();
    await logs.getByRole('button', { name: 'Resend' }).click();
    await toast(page, `Resending to ${FAILING_BUYER}: 1 delivery queued.`).waitFor();
    expect(resends).toHaveLength(1);
    await expect.poll(() => receiver.received(), { timeout: 15_000 }).toBeGreaterThan(before);
    expect(failingCampaign).toMatch(/^cmp_/);
    await context.close();
  });
});

describe('the buyer’s leads', () => {
  it('lists only its own leads with its own price, and another buyer’s lead is not found', async () => {
    const { context, page } = await openWide(USERS.buyer, '/leads');
    const row = tableRows(page).filter({ hasText: LEADS.sold.name });
    await row.waitFor();
    const columns = await headers(page);
    expect(columns).toEqual(expect.arrayContaining(['Date', 'Name', 'Service', 'Price']));
    for (const hidden of ['Buyers', 'Cost', 'Source']) expect(columns).not.toContain(hidden);
    expect(await rowCells(page, row)).toMatchObject({ Price: '$45.00', Phone: '(214) 555-7001', Zip: '75201' });
    for (const other of [LEADS.unsold.name, LEADS.solar.name, 'Emery Webhookfail'])
      expect(await tableRows(page).filter({ hasText: other }).count()).toBe(0);
    await fullPageScreenshot(page, 'leads-buyer-list');
    await page.setViewportSize(WIDE);

    // Its export: its own columns, one line per lead of the list.
    const total = await listTotal(page);
    const csv = await exportCsv(page);
    expect(csv.name).toMatch(/^leads_\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv.lines[0]?.split(',').slice(0, 10).join(',')).toBe(
      'Date,Name,Service,State,Zip,Price,Phone,Email,Type,Return Status',
    );
    expect(csv.lines).toHaveLength(total + 1);
    expect(csv.lines.join('\n')).not.toContain('Apex Lead Partners');

    // Last 30 Days pages by 15; a copied link of page 2 opens page 2.
    await page.getByText('Last 30 Days', { exact: true }).click();
    await expect.poll(() => param(page, 'dateq'), POLL).toBe('last30d');
    await expect.poll(() => tableRows(page).count(), POLL).toBe(15);
    await page.locator('.mantine-datatable-pagination').getByRole('button', { name: '2', exact: true }).click();
    await expect.poll(() => param(page, 'page'), POLL).toBe('2');
    const other = await e2e.signedIn(USERS.buyer);
    await other.page.goto(page.url());
    await other.page
      .locator('.mantine-datatable-pagination')
      .getByText(/^16–30 of \d+$/)
      .waitFor();
    expect(await other.page.getByRole('radio', { name: 'Last 30 Days' }).isChecked()).toBe(true);
    await other.context.close();
    await page.goto('/leads');
    await row.waitFor();

    await tableRows(page).filter({ hasText: LEADS.sold.name }).click();
    await expectPath(page, `/lead/${ids.sold}`);
    await page.getByRole('heading', { name: LEADS.sold.name, level: 1 }).waitFor();
    const billing = section(page, 'Billing');
    expect(await billing.getByRole('textbox', { name: 'Price' }).inputValue()).toBe('$45.00');
    // Returns are open (issue 13): the button asks for a reason in its dialog (returns.e2e.ts).
    expect(await page.getByRole('button', { name: 'Request Lead Return' }).isEnabled()).toBe(true);
    expect(await page.getByText('Decision Explained').count()).toBe(0);
    expect(await page.getByText('Apex Lead Partners').count()).toBe(0);

    await page.goto(`/lead/${ids.solar}`);
    await page.getByText('Lead not found', { exact: true }).first().waitFor();
    expect(pathOf(page)).toBe(`/lead/${ids.solar}`);
    await context.close();
  });
});

describe('the source’s leads', () => {
  it('lists its leads without buyers or prices, and shows what it sent as inert text', async () => {
    const { context, page } = await openWide(USERS.source, '/leads');
    await tableRows(page).filter({ hasText: LEADS.sold.name }).waitFor();
    await tableRows(page).filter({ hasText: LEADS.unsold.name }).waitFor();
    // Whether each lead sold and its payout (issue 27 item 21), never a buyer or a buyer's price.
    expect(await headers(page)).toEqual(['Date', 'Name', 'Service', 'Zip', 'Sold', 'Payout']);
    const table = await page.locator('table').textContent();
    expect(table).toContain('$18.00');
    expect(table).not.toContain('$45.00');
    expect(table).not.toContain(SUMMIT);

    // Oldest first by the Date column; its export has its own columns, one line per lead.
    await page
      .locator('table thead th')
      .filter({ hasText: /^Date$/ })
      .click();
    await expect.poll(() => param(page, 'order'), POLL).toBe('asc');
    const total = await listTotal(page);
    const csv = await exportCsv(page);
    expect(csv.lines[0]?.split(',').slice(0, 8).join(',')).toBe('Date,Name,Service,State,Zip,Channel,Cost,Sold');
    expect(csv.lines).toHaveLength(total + 1);
    expect(csv.lines.join('\n')).not.toContain(SUMMIT);

    // The service filter offers the values present.
    await page.getByRole('combobox', { name: 'Filter by service' }).click();
    await page.getByRole('option', { name: 'Solar', exact: true }).click();
    await expect.poll(() => param(page, 'service'), POLL).toBe('solar');
    await expect.poll(() => tableRows(page).filter({ hasText: LEADS.sold.name }).count(), POLL).toBe(0);
    await tableRows(page).filter({ hasText: LEADS.solar.name }).click();
    await expectPath(page, `/lead/${ids.solar}`);
    await page.getByRole('heading', { name: LEADS.solar.name, level: 1 }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Source name' }).inputValue()).toBe('Apex Lead Partners');
    expect(await page.locator('main').textContent()).not.toContain('BrightPath');
    expect(await page.locator('main').textContent()).not.toContain('$');

    // HTML in the name is text; a javascript: URL is not a link.
    await page.goto(`/lead/${ids.hostile}`);
    await page.getByRole('heading', { name: LEADS.hostile.name, level: 1 }).waitFor();
    expect(await page.locator('main img').count()).toBe(0);
    // Issue 32: not a TrustedForm certificate, so kept out of the lead; the flag shows what was sent, as text.
    expect(await page.getByRole('textbox', { name: 'Trusted_Form' }).inputValue()).toBe('');
    await page.getByText('Sent “javascript:alert(1)”.').waitFor();
    expect(await page.getByRole('link', { name: 'Open the TrustedForm certificate' }).count()).toBe(0);
    for (const label of ['ID', 'Timestamp', 'Name', 'City', 'State', 'Zip', 'Phone', 'Email', 'Address'])
      await page.getByRole('textbox', { name: label, exact: true }).waitFor();
    for (const label of ['PUB_ID', 'SUB_ID', 'Jornaya', 'TCPA_Language'])
      await page.getByRole('textbox', { name: label, exact: true }).waitFor();
    await page.getByText('TCPA_Consent', { exact: true }).waitFor();
    await page.getByText('Homeowner', { exact: true }).waitFor();

    await page.goto(`/lead/${ids.sold}`);
    await page.getByRole('heading', { name: LEADS.sold.name, level: 1 }).waitFor();
    await fullPageScreenshot(page, 'lead-source-detail');
    await context.close();
  });
});

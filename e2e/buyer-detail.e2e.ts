import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { addUserInModal, chooseAndWait, recordBodies, section, tableRows, toast } from './screen';
import { fullPageScreenshot } from './screenshots';
import { DEMO_BUYER_NAME, expectPath, openNewBuyer, USERS, unique } from './support';

/** Admin spec §2 Buyer detail, complete: Lead Delivery, Billing, Bills, Users, Campaigns, Pause Campaigns. */
const e2e = useBrowser();

const PAUSE_CONFIRM = 'Are you sure you want to pause all campaigns for this buyer?';
/** A seeded buyer with one live and one paused campaign. */
const PAUSE_BUYER = { name: 'Comfort Air HVAC', live: 'HVAC - NYC Core', paused: 'HVAC - Florida' };

/** The id of a buyer found by name through the API (with the page's session). */
async function buyerIdByName(page: Page, name: string): Promise<string> {
  const res = await page.request.get(`/api/buyer?name=${encodeURIComponent(name)}`);
  const found = ((await res.json()) as { data: { _id: string; name: string }[] }).data.find((b) => b.name === name);
  if (!found) throw new Error(`no buyer named ${name}`);
  return found._id;
}

/** Picks an option of the select labelled `label` and waits until it shows it. */
async function choose(page: Page, label: string, option: string) {
  await chooseAndWait(page, page.getByRole('combobox', { name: label }), option);
}

/** Adds entries to a list field (a TagsInput): type, then Enter. */
async function addToList(page: Page, label: string, ...entries: string[]) {
  // A TagsInput's input is a combobox (it offers suggestions).
  const input = page.getByRole('combobox', { name: label, exact: true });
  for (const entry of entries) {
    await input.fill(entry);
    await input.press('Enter');
  }
}

/** The pills a list field shows. */
async function listValues(page: Page, label: string): Promise<string[]> {
  const field = page.locator('.mantine-TagsInput-root').filter({ has: page.getByText(label, { exact: true }) });
  return (await field.locator('.mantine-Pill-label').allInnerTexts()).map((t) => t.trim());
}

/** Whether the Auto Approve Returns slider is disabled (read-only: Mantine then hides its thumb). */
async function sliderDisabled(page: Page): Promise<boolean> {
  const thumb = page.getByRole('slider', { name: 'Auto Approve Returns', includeHidden: true });
  return (await thumb.getAttribute('aria-disabled')) === 'true';
}

describe('screenshot (docs/screenshots/buyer-detail-full.png)', () => {
  it('shows every section of a seeded buyer, read-only, 1440 wide, full page', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize({ width: 1440, height: 900 });
    const id = await buyerIdByName(page, DEMO_BUYER_NAME);
    await page.goto(`/buyer/${id}`);
    await page.getByRole('heading', { name: DEMO_BUYER_NAME }).waitFor();
    for (const title of ['Profile', 'Lead Delivery', 'Billing', 'Bills', 'Users', 'Campaigns', 'Latest Leads'])
      await page.getByRole('heading', { name: title, exact: true }).waitFor();
    await tableRows(section(page, 'Campaigns')).first().waitFor();
    await tableRows(section(page, 'Bills')).first().waitFor();
    await fullPageScreenshot(page, 'buyer-detail-full');
    await context.close();
  });
});

describe('Lead Delivery and Billing', () => {
  it('saves the delivery lists, the Auto Approve Returns slider and the billing terms', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const { id, name } = await openNewBuyer(page, 'Northwind Siding', 'detail');
    const bodies = recordBodies(page, 'PUT', new RegExp(`/api/buyer/${id}$`));

    // A new buyer's defaults (admin §9): invoice, monthly, 3 days' grace; 0% auto approve.
    expect(await page.getByRole('textbox', { name: 'Payment Method' }).inputValue()).toBe('Invoice');
    expect(await page.getByRole('textbox', { name: 'Billing Period' }).inputValue()).toBe('Monthly');
    expect(await page.getByRole('textbox', { name: 'Grace Period' }).inputValue()).toBe('3 days');
    expect(await page.getByTestId('auto-approve-returns').textContent()).toBe('0%');
    expect(await sliderDisabled(page)).toBe(true);

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    // A bad email is refused on the form with the spec's words, and nothing is sent.
    await addToList(page, 'Email List', 'leads@northwind.example', 'not-an-email');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Please enter valid email addresses', { exact: true }).waitFor();
    expect(bodies).toEqual([]);
    await page
      .locator('.mantine-TagsInput-root')
      .filter({ has: page.getByText('Email List', { exact: true }) })
      .locator('.mantine-Pill-root', { hasText: 'not-an-email' })
      .locator('.mantine-Pill-remove')
      .click();

    await addToList(page, 'SMS List', '(512) 555-0100');
    await page.getByRole('textbox', { name: 'Webhook', exact: true }).fill('https://crm.northwind.example/leads');
    await addToList(page, 'Broadcast Webhooks', 'https://hooks.northwind.example/all');
    const slider = page.getByRole('slider', { name: 'Auto Approve Returns' });
    await slider.focus();
    for (let i = 0; i < 3; i++) await slider.press('ArrowRight');
    await expect.poll(() => page.getByTestId('auto-approve-returns').textContent()).toBe('3%');

    await choose(page, 'Payment Method', 'Prepay');
    await choose(page, 'Billing Period', 'Weekly');
    await choose(page, 'Grace Period', '7 days');
    await page.getByRole('textbox', { name: 'Prepay' }).fill('2500');
    // Whole dollars up to 100000: the input takes no decimals and stops at the maximum.
    const threshold = page.getByRole('textbox', { name: 'Credit Threshold' });
    await threshold.fill('250000');
    await threshold.blur();
    expect(await threshold.inputValue()).toBe('$100,000');
    await threshold.fill('1500');

    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, `${name} updated successfully`).waitFor();
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    expect(bodies).toEqual([
      {
        notify: {
          email: ['leads@northwind.example'],
          sms: ['(512) 555-0100'],
          webhook: 'https://crm.northwind.example/leads',
          broadcast_webhooks: ['https://hooks.northwind.example/all'],
        },
        autoApproveReturns: 0.03,
        bill: { pay: 'prepay', prepay: 2500, period: 'weekly', grace: '7', threshold: 1500 },
      },
    ]);

    // It is stored: a reload shows the same values, read-only.
    await page.reload();
    await page.getByRole('heading', { name }).waitFor();
    await expect.poll(() => listValues(page, 'Email List')).toEqual(['leads@northwind.example']);
    expect(await listValues(page, 'SMS List')).toEqual(['(512) 555-0100']);
    expect(await listValues(page, 'Broadcast Webhooks')).toEqual(['https://hooks.northwind.example/all']);
    expect(await page.getByRole('textbox', { name: 'Webhook', exact: true }).inputValue()).toBe(
      'https://crm.northwind.example/leads',
    );
    expect(await page.getByTestId('auto-approve-returns').textContent()).toBe('3%');
    expect(await page.getByRole('textbox', { name: 'Payment Method' }).inputValue()).toBe('Prepay');
    expect(await page.getByRole('textbox', { name: 'Billing Period' }).inputValue()).toBe('Weekly');
    expect(await page.getByRole('textbox', { name: 'Grace Period' }).inputValue()).toBe('7 days');
    expect(await page.getByRole('textbox', { name: 'Prepay' }).inputValue()).toBe('$2,500');
    expect(await page.getByRole('textbox', { name: 'Credit Threshold' }).inputValue()).toBe('$1,500');

    // A buyer's first sale opens its first bill: before it, the Bills table says so (bills.e2e.ts opens bills).
    await section(page, 'Bills').getByText('No bills found').waitFor();

    // 'Add Custom Delivery' leads to the deliveries.
    await page.goto(`/buyer/${id}`);
    await page.getByRole('link', { name: 'Add Custom Delivery' }).click();
    await expectPath(page, '/deliveries');
    await context.close();
  });
});

describe('Users', () => {
  it('adds a user in Buyer User Details, sends a welcome email, locks, unlocks and edits it', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await openNewBuyer(page, 'Bluebird Gutters', 'detail');
    const email = `dispatch-${unique()}@bluebird.example`;
    const users = section(page, 'Users');
    await expect.poll(() => tableRows(users).count()).toBe(1);

    const { modal, row } = await addUserInModal(page, users, 'Buyer User Details', { name: 'Robin Ortiz', email });
    expect(await row.textContent()).toContain('Active');
    // The buyer's own form was not submitted by the modal's Save.
    expect(await page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(1);

    await row.getByRole('button', { name: `Send welcome email to ${email}` }).click();
    await toast(page, `Welcome email successfully sent to ${email}.`).waitFor();

    await row.getByRole('button', { name: `Lock ${email}` }).click();
    await toast(page, `Successfully locked ${email}.`).waitFor();
    await expect.poll(() => row.textContent()).toContain('On hold');

    await row.getByRole('button', { name: `Unlock ${email}` }).click();
    await toast(page, `Successfully unlocked ${email}.`).waitFor();
    await expect.poll(() => row.textContent()).toContain('Active');

    await row.getByRole('button', { name: `Edit ${email}` }).click();
    await modal.waitFor();
    expect(await modal.getByRole('textbox', { name: 'Name' }).inputValue()).toBe('Robin Ortiz');
    await modal.getByRole('textbox', { name: 'Name' }).fill('Robin Ortiz-Hale');
    await modal.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Robin Ortiz-Hale updated successfully').waitFor();
    await tableRows(users).filter({ hasText: 'Robin Ortiz-Hale' }).waitFor();
    await context.close();
  });
});

describe('Pause Campaigns', () => {
  let restore: (() => Promise<void>) | undefined;
  // Other specs run on the same seeded exchange: put the demo buyer's live campaign back.
  afterAll(async () => restore?.());

  it('asks first, pauses every live campaign of a demo buyer, and is then disabled', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const id = await buyerIdByName(page, PAUSE_BUYER.name);
    const pauses = recordBodies(page, 'PUT', new RegExp(`/api/buyer/${id}/pause$`));
    await page.goto(`/buyer/${id}`);
    await page.getByRole('heading', { name: PAUSE_BUYER.name }).waitFor();
    const campaigns = section(page, 'Campaigns');
    const live = tableRows(campaigns).filter({ hasText: PAUSE_BUYER.live });
    await live.waitFor();
    expect(await live.textContent()).toContain('Live');
    expect(await tableRows(campaigns).filter({ hasText: PAUSE_BUYER.paused }).textContent()).toContain('Paused');
    const liveId = await (async () => {
      const body = (await (await page.request.get(`/api/buyer/${id}?include=matches`)).json()) as {
        matches: { _id: string; name: string }[];
      };
      return body.matches.find((m) => m.name === PAUSE_BUYER.live)?._id ?? '';
    })();
    restore = async () => {
      const res = await page.request.put(`/api/match/${liveId}`, {
        data: { status: { live: true, draft: false, pause: false } },
      });
      expect(res.status()).toBe(200);
      await context.close();
    };

    const button = page.getByRole('button', { name: 'Pause Campaigns' });
    expect(await button.isEnabled()).toBe(true);

    // Cancel leaves everything as it was.
    await button.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(PAUSE_CONFIRM, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(pauses).toEqual([]);

    await button.click();
    await dialog.getByText(PAUSE_CONFIRM, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Pause Campaigns' }).click();
    await toast(page, '1 campaign paused').waitFor();
    expect(pauses).toEqual([{ reason: 'Admin paused all campaigns' }]);
    await expect.poll(() => live.textContent()).toContain('Paused');
    expect(await tableRows(campaigns).filter({ hasText: 'Live' }).count()).toBe(0);
    await expect.poll(() => button.isDisabled()).toBe(true);

    // A reload agrees: nothing live, the button stays disabled.
    await page.reload();
    await live.waitFor();
    expect(await live.textContent()).toContain('Paused');
    await expect.poll(() => page.getByRole('button', { name: 'Pause Campaigns' }).isDisabled()).toBe(true);
  });
});

describe("the buyer's own /buyer view", () => {
  it('is read-only, with the default lead delivery and users, and no admin actions', async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);
    await page.goto('/buyer');
    await page.getByRole('heading', { name: DEMO_BUYER_NAME }).waitFor();

    await page.getByRole('heading', { name: 'Lead Delivery' }).waitFor();
    await expect.poll(() => listValues(page, 'Email List')).toEqual(['dispatch@summitroofing.example']);
    for (const label of ['Email List', 'SMS List', 'Broadcast Webhooks'])
      expect(await page.getByRole('combobox', { name: label, exact: true }).isEditable(), label).toBe(false);
    expect(await page.getByRole('textbox', { name: 'Webhook', exact: true }).isEditable()).toBe(false);
    expect(await sliderDisabled(page)).toBe(true);
    expect(await page.getByTestId('auto-approve-returns').textContent()).toBe('5%');

    const users = section(page, 'Users');
    await tableRows(users).filter({ hasText: USERS.buyer.email }).waitFor();
    await page.getByText('To add, remove or change users, contact your provider.').waitFor();
    for (const button of ['Edit', 'Save', 'Add User', 'Pause Campaigns'])
      expect(await page.getByRole('button', { name: button }).count(), button).toBe(0);
    expect(await users.getByRole('button').count()).toBe(0);
    // The admin's tables are not part of the buyer's profile.
    for (const title of ['Bills', 'Campaigns', 'Latest Leads'])
      expect(await page.getByRole('heading', { name: title, exact: true }).count(), title).toBe(0);
    await context.close();
  });
});

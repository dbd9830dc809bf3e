import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { restoreBuyerAfterAll, useBrowser } from './browser';
import { tableRows } from './screen';
import { fullPageScreenshot } from './screenshots';
import { apiCall, demoBuyerMarket, USERS, unique } from './support';

/**
 * Issue 35: the admin erases a person by phone on the Compliance screen (search, preview, confirm),
 * sees the request record, and reads the access log (its view of the lead, the erasure); reads the
 * erased lead's sealed consent evidence with a reason (one access-log entry); runs a California
 * deletion list and sees its run.
 */
const e2e = useBrowser();

const NAME = `Erasa ${unique()}`;
const PHONE = `212555${String(Math.floor(Math.random() * 9000) + 1000)}`;
let leadId = '';
let listedLeadId = '';
const LISTED_EMAIL = `listed.${unique()}@drop-e2e.example`;
let buyerId = '';
let autoApproveBefore = 0;

beforeAll(async () => {
  const { context, page } = await e2e.signedIn(USERS.admin);
  const market = await demoBuyerMarket(page.request, {
    campaign: `Erasure e2e ${unique()}`,
    fixedId: `ERASURE-E2E-${unique()}`.toUpperCase(),
    zip: '10003',
    email: 'erasure-e2e@example.com',
    source: `Erasure e2e ${unique()}`,
  });
  ({ buyerId, autoApproveBefore } = market);
  leadId = await market.sell({ name: NAME, phone: PHONE, email: `${unique()}@erasure-e2e.example` });
  listedLeadId = await market.sell({ name: `Listed ${unique()}`, email: LISTED_EMAIL });
  await context.close();
});

restoreBuyerAfterAll(e2e, () => ({ buyerId, fields: { autoApproveReturns: autoApproveBefore } }));

describe('the Compliance screen', () => {
  it('erases a person, shows the request record, and the access log records the view and the erasure', async () => {
    const admin = await e2e.signedIn(USERS.admin);
    const { page } = admin;
    // A view of the lead: one entry of the access log.
    await page.goto(`/lead/${leadId}`);
    await page.getByRole('heading', { name: NAME }).waitFor();

    await page.goto('/compliance');
    await page.getByRole('heading', { name: 'Compliance' }).waitFor();
    await page
      .getByRole('textbox', { name: 'Phone' })
      .fill(`(${PHONE.slice(0, 3)}) ${PHONE.slice(3, 6)}-${PHONE.slice(6)}`);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1 lead(s) found').waitFor();
    await page.getByRole('cell', { name: NAME }).waitFor();
    await page.getByText('Buyers to be told').waitFor();
    await fullPageScreenshot(page, 'compliance-erasure-preview');
    await page.getByRole('textbox', { name: 'Requested by' }).fill('The consumer, by phone (e2e)');
    await page.getByRole('button', { name: 'Erase' }).click();
    await page.getByText('Erased', { exact: true }).waitFor();
    await fullPageScreenshot(page, 'compliance-erased');

    // The lead stays, without its name.
    const lead = await apiCall<{ name?: string; phone?: string; price: number }>(
      page.request,
      'get',
      `/api/lead/${leadId}`,
    );
    expect(lead.name).toBeUndefined();
    expect(lead.phone).toBeUndefined();
    expect(lead.price).toBe(35);

    await page.getByRole('tab', { name: 'Erasure requests' }).click();
    const record = tableRows(page).filter({ hasText: 'The consumer, by phone (e2e)' });
    await record.waitFor();
    await expect.poll(() => record.textContent()).toContain('Leads: 1');
    await fullPageScreenshot(page, 'compliance-requests');

    await page.getByRole('tab', { name: 'Access log' }).click();
    await page.getByRole('textbox', { name: 'Lead id' }).fill(leadId);
    const rows = tableRows(page);
    await expect.poll(() => rows.filter({ hasText: 'Erasure' }).count()).toBeGreaterThanOrEqual(1);
    await expect.poll(() => rows.filter({ hasText: 'Lead viewed' }).count()).toBeGreaterThanOrEqual(1);
    await fullPageScreenshot(page, 'compliance-access-log');
    await admin.context.close();
  });
});

describe('sealed evidence and deletion lists', () => {
  it('reads the erased lead’s sealed evidence with a reason, and the access log shows the read', async () => {
    const admin = await e2e.signedIn(USERS.admin);
    const { page } = admin;
    await page.goto(`/lead/${leadId}`);
    await page.getByText('Sealed', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Read Sealed Evidence' }).click();
    await page.getByText('Reason is required to read sealed evidence').first().waitFor();
    await page.getByRole('textbox', { name: 'Reason for reading' }).fill('Subpoena in Smith v. Summit (e2e)');
    await page.getByRole('button', { name: 'Read Sealed Evidence' }).click();
    await page.getByText('Hash checks').waitFor();
    await fullPageScreenshot(page, 'compliance-sealed-evidence');

    await page.goto('/compliance?tab=log');
    await page.getByRole('textbox', { name: 'Lead id' }).fill(leadId);
    const read = tableRows(page).filter({ hasText: 'Sealed evidence read' });
    await expect.poll(() => read.count()).toBe(1);
    await expect.poll(() => read.textContent()).toContain('Subpoena in Smith v. Summit (e2e)');
    await fullPageScreenshot(page, 'compliance-access-log-sealed-read');
    await admin.context.close();
  });

  it('runs a deletion list from the Compliance screen and shows the run', async () => {
    const admin = await e2e.signedIn(USERS.admin);
    const { page } = admin;
    await page.goto('/settings');
    await page.getByRole('link', { name: 'Open Compliance' }).click();
    await page.getByRole('tab', { name: 'Deletion lists' }).click();
    // As DROP delivers an Email list: a work item's ID and the SHA-256 in Base64.
    const hash = (email: string) => createHash('sha256').update(email.toLowerCase()).digest('base64');
    const file = `drop-e2e-${unique()}_Email.csv`;
    await page.locator('input[type="file"]').setInputFiles({
      name: file,
      mimeType: 'text/csv',
      buffer: Buffer.from(`ID,Hash\nA7kP2xQ9Lm4R,${hash(LISTED_EMAIL)}\nB8kP2xQ9Lm4S,${hash('nobody@example.com')}\n`),
    });
    await page.getByRole('button', { name: 'Run Deletion List' }).click();
    await page.getByText(`Run of ${file}`).waitFor();
    await page.getByText('2 entries, 1 leads matched, 1 erased').waitFor();
    const run = tableRows(page).filter({ hasText: file });
    await run.waitFor();
    expect(await run.textContent()).toContain('done');
    await fullPageScreenshot(page, 'compliance-deletion-list-run');
    const lead = await apiCall<{ email?: string }>(page.request, 'get', `/api/lead/${listedLeadId}`);
    expect(lead.email).toBeUndefined();
    await admin.context.close();
  });
});

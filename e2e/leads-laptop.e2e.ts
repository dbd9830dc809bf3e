import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { restoreBuyerAfterAll, useBrowser } from './browser';
import { section, tableRows } from './screen';
import { fullPageScreenshot, screenshot } from './screenshots';
import { apiCall, DEMO_BUYER_NAME, demoBuyerMarket, USERS, unique } from './support';

/**
 * Issue 27 in Chromium: a bill's Return Requested tooltip (item 7), an email-only lead's empty phone
 * (14), one sign for returns (19), the buyer's hidden lead sources and the admin's switch (20), the
 * source's Sold and Payout (21), and the leads table, Returns and a delivery at a laptop's 1366 px (23).
 */
const e2e = useBrowser();
const LAPTOP = { width: 1366, height: 768 };
const POLL = { timeout: 10_000 };

const RUN = unique();
const SOLD_NAME = `Fitwell ${RUN}`;
const MAIL_ONLY_NAME = `Mailonly ${RUN}`;
const COMMENT = `Called twice, the number rings a closed shop ${RUN}.`;
let buyerId = '';
let soldId = '';
let matchId = '';
let autoApproveBefore = 0;

beforeAll(async () => {
  const { context, page } = await e2e.signedIn(USERS.admin);
  const api = page.request;
  // The request must wait for the admin, and the buyer starts without its leads' sources.
  const market = await demoBuyerMarket(api, {
    campaign: `Laptop e2e ${RUN}`,
    fixedId: `LAPTOP-${RUN}`.toUpperCase(),
    zip: '10003',
    email: 'laptop-e2e@example.com',
    source: `Laptop e2e ${RUN}`,
    buyerChanges: { showSource: false },
  });
  ({ buyerId, autoApproveBefore } = market);
  const { sell } = market;
  soldId = await sell({
    name: SOLD_NAME,
    phone: `212555${String(Math.floor(Math.random() * 9000) + 1000)}`,
    email: `fitwell.${RUN}@laptop-e2e.example`,
  });
  // Item 14: a lead with an email and no phone at all.
  await sell({ name: MAIL_ONLY_NAME, email: `mailonly.${RUN}@laptop-e2e.example` });
  const lead = await apiCall<{ match: { _id: string }[] }>(api, 'get', `/api/lead/${soldId}`);
  matchId = lead.match[0]?._id ?? '';
  await context.close();

  // The buyer asks to return it, with a reason and a comment.
  const asBuyer = await e2e.signedIn(USERS.buyer);
  await apiCall(asBuyer.page.request, 'post', `/api/lead/${soldId}/match/${matchId}/return`, {
    reason: 'Bad Information',
    comment: COMMENT,
  });
  await asBuyer.context.close();
});

restoreBuyerAfterAll(e2e, () => ({ buyerId, fields: { autoApproveReturns: autoApproveBefore, showSource: false } }));

/** Whether an element shows all of its content (nothing cut by an ellipsis or a too-narrow box). */
const shownWhole = (locator: Locator) => locator.evaluate((el) => el.scrollWidth <= el.clientWidth);

/** The page's (first) table's width and its box's, with each column's width: no sideways scroll when it fits. */
const tableWidths = (page: Page) =>
  page
    .locator('table')
    .first()
    .evaluate((table) => {
      const box = table.closest('.mantine-ScrollArea-viewport') ?? table.parentElement;
      const columns = Array.from(table.querySelectorAll('thead th')).map(
        (th) => `${th.textContent}=${Math.round(th.getBoundingClientRect().width)}`,
      );
      return { table: table.scrollWidth, box: box?.clientWidth ?? 0, columns: columns.join(' ') };
    });

async function expectTableFits(page: Page) {
  const widths = await tableWidths(page);
  expect(
    widths.table,
    `the table's ${widths.table} px fit its ${widths.box} px: ${widths.columns}`,
  ).toBeLessThanOrEqual(widths.box);
}

/** The column titles of the page's (first) table, in order (a sortable one's title sits in a button). */
const columnTitles = async (page: Page) =>
  (await page.locator('table').first().locator('thead th').allTextContents()).map((h) => h.trim());

/** Whether a column header is within the window (not behind a sideways scroll). */
async function inView(page: Page, header: string) {
  const box = await page.getByRole('columnheader', { name: header, exact: true }).boundingBox();
  return box !== null && box.x >= 0 && box.x + box.width <= LAPTOP.width;
}

/**
 * `user`'s leads list at a laptop's width (screenshot `shot`): Phone and Email in view and the table
 * without a sideways scroll. Answers the signed-in page.
 */
async function leadsFitOnLaptop(user: { username: string; password: string }, shot: string) {
  const signedIn = await e2e.signedIn(user);
  const { page } = signedIn;
  await page.setViewportSize(LAPTOP);
  // This file's leads only: other files' leads of the day on the same exchange would make the widths vary.
  await page.goto(`/leads?name=${RUN}`);
  await tableRows(page).filter({ hasText: SOLD_NAME }).waitFor();
  await screenshot(page, shot);
  expect(await inView(page, 'Phone')).toBe(true);
  expect(await inView(page, 'Email')).toBe(true);
  await expectTableFits(page);
  return signedIn;
}

describe('a bill’s leads', () => {
  it('shows the return request’s reason and comment on hover over Return Requested (item 7)', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.goto(`/bill/next/buyer/${buyerId}`);
    await page.getByRole('heading', { name: 'Next Bill', level: 1 }).waitFor();
    const badge = section(page, 'Leads').getByText('Return Requested', { exact: true }).first();
    await badge.waitFor();
    await badge.hover();
    const tooltip = page.getByRole('tooltip');
    await expect.poll(() => tooltip.textContent(), POLL).toBe(`Bad Information: ${COMMENT}`);
    await screenshot(page, 'bill-return-tooltip');
    // The tooltip is drawn in a portal outside the landmarks: closed before the screen's accessibility check.
    await page.mouse.move(0, 0);
    await tooltip.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('hides the Source column from the buyer until an admin turns Show Lead Sources on (item 20)', async () => {
    const buyer = await e2e.signedIn(USERS.buyer);
    await buyer.page.goto(`/bill/next/buyer/${buyerId}`);
    await section(buyer.page, 'Leads').getByText('Return Requested', { exact: true }).first().waitFor();
    expect(await buyer.page.getByRole('columnheader', { name: 'Source', exact: true }).count()).toBe(0);
    expect(await buyer.page.getByText('Apex Lead Partners').count()).toBe(0);
    await fullPageScreenshot(buyer.page, 'bill-buyer-no-source');

    // The admin's switch, on the buyer's form.
    const admin = await e2e.signedIn(USERS.admin);
    await admin.page.goto(`/buyer/${buyerId}`);
    await admin.page.getByRole('heading', { name: DEMO_BUYER_NAME }).waitFor();
    const toggle = admin.page.getByRole('switch', { name: 'Show Lead Sources' });
    expect(await toggle.isChecked()).toBe(false);
    await admin.page.getByRole('button', { name: 'Edit', exact: true }).click();
    await toggle.click({ force: true });
    await admin.page.getByRole('button', { name: 'Save' }).click();
    await admin.page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    await expect.poll(() => toggle.isChecked(), POLL).toBe(true);
    await fullPageScreenshot(admin.page, 'buyer-show-lead-sources');
    const saved = await apiCall<{ showSource: boolean }>(admin.page.request, 'get', `/api/buyer/${buyerId}`);
    expect(saved.showSource).toBe(true);

    await buyer.page.reload();
    await buyer.page.getByRole('columnheader', { name: 'Source', exact: true }).waitFor();
    await section(buyer.page, 'Leads').getByText('Apex Lead Partners').first().waitFor();

    // And off again.
    await apiCall(admin.page.request, 'put', `/api/buyer/${buyerId}`, { showSource: false });
    await buyer.page.reload();
    await section(buyer.page, 'Leads').getByText('Return Requested', { exact: true }).first().waitFor();
    expect(await buyer.page.getByRole('columnheader', { name: 'Source', exact: true }).count()).toBe(0);
    await buyer.context.close();
    await admin.context.close();
  });
});

describe('at a laptop’s 1366 × 768 (item 23)', () => {
  it('keeps the Returns screen’s badges whole', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize(LAPTOP);
    await page.goto('/returns');
    const row = tableRows(page).filter({ hasText: SOLD_NAME });
    await row.waitFor();
    const badge = row.getByText('Return Requested', { exact: true });
    await badge.waitFor();
    await screenshot(page, 'returns-1366');
    expect(await shownWhole(badge)).toBe(true);
    // In view, not behind a sideways scroll under the pinned actions.
    expect(await inView(page, 'Status')).toBe(true);
    await expectTableFits(page);
    await context.close();
  });

  it('shows Phone and Email without a sideways scroll, lets the admin choose columns, kept per user', async () => {
    const { context, page } = await leadsFitOnLaptop(USERS.admin, 'leads-admin-1366-fit');
    // Item 14: the email-only lead's phone cell is empty, never Invalid.
    const mailOnly = tableRows(page).filter({ hasText: MAIL_ONLY_NAME });
    await mailOnly.waitFor();
    expect(await mailOnly.textContent()).not.toContain('Invalid');
    const phoneCell = mailOnly.getByRole('cell').nth((await columnTitles(page)).indexOf('Phone'));
    expect((await phoneCell.textContent())?.trim()).toBe('');
    await screenshot(page, 'leads-admin-1366');

    // Columns: Channel is off by default; turning it on shows it, and a reload keeps the choice.
    expect(await page.getByRole('columnheader', { name: 'Channel', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Columns' }).click();
    const channel = page.getByRole('checkbox', { name: 'Channel' });
    await channel.check();
    await page.getByRole('columnheader', { name: 'Channel', exact: true }).waitFor();
    await screenshot(page, 'leads-admin-columns-1366');
    await page.keyboard.press('Escape');
    await page.reload();
    await tableRows(page).filter({ hasText: SOLD_NAME }).waitFor();
    await page.getByRole('columnheader', { name: 'Channel', exact: true }).waitFor();
    // Reset columns brings the laptop defaults back.
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('button', { name: 'Reset columns' }).click();
    await expect.poll(() => page.getByRole('columnheader', { name: 'Channel', exact: true }).count()).toBe(0);
    await context.close();
  });

  it('shows the buyer’s Phone and Email without a sideways scroll', async () => {
    const { context, page } = await leadsFitOnLaptop(USERS.buyer, 'leads-buyer-1366-fit');
    const badge = tableRows(page).filter({ hasText: SOLD_NAME }).getByText('Return Requested', { exact: true });
    expect(await shownWhole(badge)).toBe(true);
    await screenshot(page, 'leads-buyer-1366');
    await context.close();
  });

  it('shows a delivery’s whole ID', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.setViewportSize(LAPTOP);
    const list = await apiCall<{ data: { _id: string; name: string }[] }>(page.request, 'get', '/api/webhook');
    const delivery = list.data[0];
    expect(delivery, 'the demo has a delivery').toBeDefined();
    await page.goto(`/delivery/${delivery?._id}`);
    const id = page.getByRole('textbox', { name: 'ID', exact: true });
    await expect.poll(() => id.inputValue(), POLL).toBe(delivery?._id);
    expect(await shownWhole(id)).toBe(true);
    await screenshot(page, 'delivery-1366');
    await context.close();
  });
});

describe('the source’s leads (item 21)', () => {
  it('shows whether each lead sold and its payout, never a buyer or a buyer’s price', async () => {
    const admin = await e2e.signedIn(USERS.admin);
    const lead = await apiCall<{ cost: number }>(admin.page.request, 'get', `/api/lead/${soldId}`);
    await admin.context.close();
    const { context, page } = await e2e.signedIn(USERS.source);
    await page.setViewportSize(LAPTOP);
    await page.goto('/leads');
    const row = tableRows(page).filter({ hasText: SOLD_NAME });
    await row.waitFor();
    const headers = await columnTitles(page);
    expect(headers).toEqual(expect.arrayContaining(['Sold', 'Payout']));
    expect(headers).not.toContain('Price');
    expect(headers).not.toContain('Buyers');
    const cell = (title: string) => row.getByRole('cell').nth(headers.indexOf(title));
    expect((await cell('Sold').textContent())?.trim()).toBe('Yes');
    expect((await cell('Payout').textContent())?.trim()).toBe(
      lead.cost.toLocaleString('en-US', { style: 'currency', currency: 'USD' }),
    );
    expect(await row.textContent()).not.toContain(DEMO_BUYER_NAME);
    expect(await row.textContent()).not.toContain('$35.00');
    await screenshot(page, 'leads-source-1366');
    await context.close();
  });
});

describe('returns carry one sign (item 19)', () => {
  it('reads an approved return as a deduction in the bills list as under the bill’s Totals', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await apiCall(page.request, 'post', `/api/lead/${soldId}/match/${matchId}/return`, { approve: true });
    await page.goto(`/bill/next/buyer/${buyerId}`);
    const totals = section(page, 'Totals');
    await totals.getByText('Net', { exact: true }).waitFor();
    const returnsIn = (text: string | null) => /Returns\s*(-?\$[\d,.]+)/.exec(text ?? '')?.[1] ?? '';
    const onBill = returnsIn(await totals.textContent());
    expect(onBill).toMatch(/^-\$/);

    await page.goto(`/buyer/${buyerId}`);
    const next = tableRows(section(page, 'Bills')).filter({ hasText: 'Next Bill' });
    await next.waitFor();
    const headers = (await section(page, 'Bills').locator('thead th').allTextContents()).map((h) => h.trim());
    expect((await next.getByRole('cell').nth(headers.indexOf('Returns')).textContent())?.trim()).toBe(onBill);
    await fullPageScreenshot(page, 'buyer-bills-returns-sign');
    await context.close();

    // The buyer's own Bills list reads it the same way.
    const buyer = await e2e.signedIn(USERS.buyer);
    await buyer.page.goto('/bills');
    const own = tableRows(buyer.page).filter({ hasText: 'Next Bill' });
    await own.waitFor();
    const ownHeaders = await columnTitles(buyer.page);
    expect((await own.getByRole('cell').nth(ownHeaders.indexOf('Returns')).textContent())?.trim()).toBe(onBill);
    await buyer.context.close();
  });
});

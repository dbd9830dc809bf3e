import { beforeAll, describe, expect, it } from 'vitest';
import { resetMockDateAfterAll, useBrowser } from './browser';
import { fieldError, section, tableRows, toast } from './screen';
import { fullPageScreenshot } from './screenshots';
import { apiCall, DEMO_BUYER_NAME, expectPath, USERS } from './support';

/**
 * Issue 13, bills: the admin's Bills list and a bill's credits and debits; the buyer's own bills,
 * read-only. The demo's bills come from the seed's daily billing runs.
 */
const e2e = useBrowser();
resetMockDateAfterAll(e2e);
const POLL = { timeout: 10_000 };

interface BillRow {
  _id: string;
  buyer: string;
  buyer_name: string;
  accruing: boolean;
  start: number;
  /** When its grace runs out, epoch seconds: the billing run closes it then. */
  grace: number;
  total: { net: number };
}
let accruing: BillRow;
let othersBill: BillRow;

beforeAll(async () => {
  const { context, page } = await e2e.signedIn(USERS.admin);
  const { data } = await apiCall<{ data: BillRow[] }>(page.request, 'get', '/api/bill/date/all?pageSize=200');
  accruing = data.find((b) => b.buyer_name === DEMO_BUYER_NAME && b.accruing) as BillRow;
  othersBill = data.find((b) => b.buyer_name !== DEMO_BUYER_NAME) as BillRow;
  expect(accruing, 'the demo buyer has an accruing bill').toBeDefined();
  expect(othersBill, 'another buyer has a bill').toBeDefined();
  await context.close();
});

describe('the admin bills', () => {
  it('lists bills with the accruing one first, filters by buyer, and opens the oldest bill at its period', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.goto('/bills');
    await page.getByRole('heading', { name: 'Bills', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Search by buyer' }).fill('summit');
    await expect.poll(() => new URL(page.url()).searchParams.get('buyer'), POLL).toBe('summit');
    await expect
      .poll(async () => (await tableRows(page).allInnerTexts()).every((row) => row.includes(DEMO_BUYER_NAME)), POLL)
      .toBe(true);
    await tableRows(page).first().getByText('Next Bill').waitFor();
    await fullPageScreenshot(page, 'bills-admin-list');

    // The oldest bill starts at the period of the buyer's first sale (issue 27 item 26), never "Initial Bill".
    await tableRows(page).last().click();
    await expectPath(page, /^\/bill\/bil_/);
    await page.getByRole('heading', { name: `Bill ${DEMO_BUYER_NAME}`, level: 1 }).waitFor();
    await expect
      .poll(() => section(page, 'Billing Period').getByLabel('Start').inputValue(), POLL)
      .toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    await section(page, 'Bill Details').getByText('No stripe invoice yet.').waitFor();

    // A nobody's search says so.
    await page.goto('/bills?buyer=nobody-buys-here');
    await page.getByText('No bills found').waitFor();
    await context.close();
  });

  it('adds credits and debits to the accruing bill in edit mode, with the field messages, and the net follows', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    await page.goto(`/bill/${accruing._id}`);
    await page.getByRole('heading', { name: 'Next Bill', level: 1 }).waitFor();
    const totals = section(page, 'Totals');
    await totals.getByText('Net', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Edit' }).click();
    await section(page, 'Credits').getByRole('button', { name: 'Add credit' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    const amount = page.getByRole('textbox', { name: 'Credits 1 amount' });
    await expect.poll(async () => (await fieldError(amount)).message, POLL).toBe('Amount is required');
    expect((await fieldError(page.getByRole('textbox', { name: 'Credits 1 description' }))).message).toBe(
      'Description is required',
    );
    await amount.fill('12.50');
    await page.getByRole('textbox', { name: 'Credits 1 description' }).fill('Bad batch');
    await section(page, 'Debits').getByRole('button', { name: 'Add debit' }).click();
    await page.getByRole('textbox', { name: 'Debits 1 amount' }).fill('30');
    await page.getByRole('textbox', { name: 'Debits 1 description' }).fill('Setup fee');
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Credits and debits saved').waitFor();
    await page.getByRole('button', { name: 'Edit' }).waitFor();

    const expected = (accruing.total.net - 12.5 + 30).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
    await totals.getByText(expected, { exact: true }).waitFor();
    await section(page, 'Credits').getByText('Bad batch').waitFor();
    await section(page, 'Debits').getByText('$30.00').waitFor();
    const saved = await apiCall<{ credits: unknown[]; debits: unknown[] }>(
      page.request,
      'get',
      `/api/bill/${accruing._id}`,
    );
    expect(saved.credits).toEqual([{ amount: 12.5, description: 'Bad batch' }]);
    expect(saved.debits).toEqual([{ amount: 30, description: 'Setup fee' }]);
    await fullPageScreenshot(page, 'bill-admin-detail');

    // The billing run after the bill's end and grace closes it (the simulator's mock date moves the
    // exchange's clock there): its credits and debits are final, and edit mode is gone.
    await apiCall(page.request, 'post', '/api/sim/mockDate', { date: accruing.grace + 60 });
    try {
      const run = await apiCall<{ closed: number }>(page.request, 'post', '/api/sim/billing');
      expect(run.closed).toBeGreaterThanOrEqual(1);
    } finally {
      await apiCall(page.request, 'post', '/api/sim/mockDate', { reset: true });
    }
    await page.reload();
    await page.getByRole('heading', { name: `Bill ${DEMO_BUYER_NAME}`, level: 1 }).waitFor();
    await page.getByText('This bill is closed: its totals are final.').waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await section(page, 'Credits').getByText('Bad batch').waitFor();
    await section(page, 'Totals').getByText(expected, { exact: true }).waitFor();
    await fullPageScreenshot(page, 'bill-admin-closed');
    await context.close();
  });
});

describe("the buyer's Payment Information", () => {
  it('shows its billing terms and no saved cards, and says why a card cannot be added without Stripe', async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);
    await page.goto('/');
    const card = page
      .locator('.mantine-Card-root')
      .filter({ has: page.getByRole('heading', { name: 'Payment Information' }) });
    await card.getByText('No saved cards').waitFor();
    await card.getByText(/billed (weekly|monthly)/).waitFor();
    await card
      .getByText('Cards cannot be added here yet: the exchange has not set up card payments.', { exact: false })
      .waitFor();
    expect(await card.getByRole('button', { name: 'Add Card' }).count()).toBe(0);
    await fullPageScreenshot(page, 'buyer-payment-information');
    await context.close();
  });
});

describe("the buyer's bills", () => {
  it('lists its own bills, opens the accruing one as /bill/next/buyer/{id} read-only, and cannot open another buyer’s', async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);
    await page.goto('/bills');
    await tableRows(page).first().getByText('Next Bill').waitFor();
    await tableRows(page).first().click();
    await expectPath(page, `/bill/next/buyer/${accruing.buyer}`);
    await page.getByRole('heading', { name: 'Next Bill', level: 1 }).waitFor();
    await section(page, 'Leads').getByRole('table').waitFor();
    expect(await page.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await fullPageScreenshot(page, 'bill-buyer-detail');

    await page.goto(`/bill/${othersBill._id}`);
    await page.getByText('This bill does not exist, or you cannot see it.').waitFor();
    await context.close();
  });
});

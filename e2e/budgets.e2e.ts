import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { section, toast } from './screen';
import { fullPageScreenshot, screenshot } from './screenshots';
import { addUserWithPassword, apexKey, apiCall, createBuyerViaApi, createLiveCampaign, USERS, unique } from './support';

/**
 * Issue 33 item 4 in Chromium: the admin sets a campaign's daily budget on its Budget section and a
 * buyer's daily budget on the buyer screen; a lead sold shows what is spent on both, a second lead
 * that would pass the campaign's budget is not sold to it, and the buyer reads its budget on its profile.
 */
const e2e = useBrowser();

/**
 * On a screen whose Budget section has no budget yet (so no spent line `spentId`): Edit, a daily budget
 * of `dollars`, Save. Answers the section.
 */
async function setDailyBudget(page: Page, spentId: string, dollars: string) {
  const budget = section(page, 'Budget');
  const daily = budget.getByRole('textbox', { name: 'Daily budget' });
  await daily.waitFor();
  expect(await budget.getByTestId(spentId).count()).toBe(0);
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await daily.fill(dollars);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  return budget;
}

describe('budget caps in dollars', () => {
  const suffix = unique();
  const email = `budget-${suffix}@budget.example`;
  const password = 'budget-pass-1';

  it('a campaign budget and a buyer budget are set on their screens and show what is spent', async () => {
    const { context, page } = await e2e.signedIn(USERS.admin);
    const api = page.request;
    const buyerName = `Budget Roofing ${suffix}`;
    const buyerId = await createBuyerViaApi(page, buyerName, 'budget');
    await addUserWithPassword(api, { kind: 'buyer', id: buyerId }, { name: 'Dana Budget', email, password });
    const fixedId = `BUDGET-${suffix}`.toUpperCase();
    const zip = '78701';
    const campaign = await createLiveCampaign(api, {
      name: `Budget Campaign ${suffix}`,
      buyer: buyerId,
      price: 25,
      fixed_id: fixedId,
      service: 'roofing',
      zip,
      email: [`leads-${suffix}@budget.example`],
    });

    // The buyer screen: no budget, no spent line; the admin sets $100 a day.
    await page.goto(`/buyer/${buyerId}`);
    await page.getByRole('heading', { name: buyerName }).waitFor();
    const buyerBudget = await setDailyBudget(page, 'buyer-spent-today', '100');
    await toast(page, `${buyerName} updated successfully`).waitFor();
    await expect
      .poll(() => buyerBudget.getByTestId('buyer-spent-today').textContent())
      .toBe('Spent $0.00 of $100.00 today');
    const saved = await apiCall<{ budget_daily: number | null }>(api, 'get', `/api/buyer/${buyerId}`);
    expect(saved.budget_daily).toBe(100);

    // The campaign's Budget section: no budget, no spent line; the admin sets $40 a day.
    await page.goto(`/campaign/${campaign._id}`);
    await page.getByRole('heading', { name: campaign.name }).waitFor();
    const budget = await setDailyBudget(page, 'budget-spent-daily', '40');
    await page.getByRole('button', { name: 'Edit', exact: true }).waitFor();
    await expect.poll(() => budget.getByTestId('budget-spent-daily').textContent()).toBe('Spent $0.00 of $40.00 today');
    expect(await budget.getByTestId('budget-spent-weekly').count()).toBe(0);

    // A $25 lead sells to it; a second would pass $40 and is not sold to it.
    const key = await apexKey(api, `Budget e2e ${suffix}`);
    const post = async (n: number) => {
      const res = await api.post('/api/lead', {
        headers: { authorization: `Bearer ${key}` },
        data: {
          service: 'roofing',
          zip,
          campaign: fixedId,
          tcpa_consent: true,
          name: `Budget Lead ${n}`,
          phone: `512555010${n}`,
          email: `budget.lead.${n}.${suffix}@example.com`,
        },
      });
      return (await res.json()) as { ok: boolean; status?: string };
    };
    const first = await post(1);
    expect(first, JSON.stringify(first)).toMatchObject({ ok: true, status: 'sold' });
    const second = await post(2);
    expect(second.status, JSON.stringify(second)).not.toBe('sold');

    await page.reload();
    await page.getByRole('heading', { name: campaign.name }).waitFor();
    await expect
      .poll(() => budget.getByTestId('budget-spent-daily').textContent())
      .toBe('Spent $25.00 of $40.00 today');
    await screenshot(budget, 'budget-campaign-section');

    await page.goto(`/buyer/${buyerId}`);
    await page.getByRole('heading', { name: buyerName }).waitFor();
    await expect
      .poll(() => buyerBudget.getByTestId('buyer-spent-today').textContent())
      .toBe('Spent $25.00 of $100.00 today');
    await screenshot(buyerBudget, 'budget-buyer-section');
    await context.close();
  });

  it('the buyer reads its daily budget and what it spent on its profile, read-only', async () => {
    // The buyer's own profile reads the same, read-only.
    const buyer = await e2e.signedIn({ username: email, password });
    await buyer.page.goto('/buyer');
    const own = section(buyer.page, 'Budget');
    await expect.poll(() => own.getByTestId('buyer-spent-today').textContent()).toBe('Spent $25.00 of $100.00 today');
    const input = own.getByRole('textbox', { name: 'Daily budget' });
    expect(await input.inputValue()).toBe('100.00');
    expect(await input.getAttribute('readonly')).not.toBeNull();
    await fullPageScreenshot(buyer.page, 'budget-buyer-profile');
    await buyer.context.close();
  });
});

import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, leadInput } from '../../test/factories';
import { useAdminTestApp } from '../../test/harness';
import { leadMatches, leads } from '../db/schema';

/**
 * Budget caps in dollars (issue 33 item 4): a sale that reaches a budget exactly is allowed, one
 * cent over falls to the next buyer; windows in the campaign's zone; a buyer's daily budget across
 * its campaigns. Each test sells in a state of its own, so only its campaigns may buy.
 */
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createSourceWithKey(t, { maxCost: 5 }));
});

/** Sets a campaign's budgets through the API (dollars), as the campaign screen does. */
async function setBudget(campaignId: string, budget: Record<string, number | null>) {
  const res = await t.request({
    method: 'PUT',
    url: `/api/match/${campaignId}`,
    as: admin.cookie,
    payload: { budget },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Posts a lead in `zip`; answers the campaign that bought it (null: unsold) and the lead's explanation. */
async function post(zip: string) {
  const res = await t.sourceApi('/api/lead', apiKey, leadInput({ zip, name: 'Kim Budget', tcpa_consent: 'true' }));
  const body = res.json() as { ok: boolean; lead_id: string };
  const [match] = await t.database.db
    .select({ campaignId: leadMatches.campaignId })
    .from(leadMatches)
    .where(eq(leadMatches.leadId, body.lead_id));
  const [lead] = await t.database.db
    .select({ explanation: leads.explanation })
    .from(leads)
    .where(eq(leads.id, body.lead_id));
  return { to: match?.campaignId ?? null, explanation: JSON.stringify(lead?.explanation) };
}

/** A $`price` roofing campaign in `state`, of a new buyer unless one is given. */
async function campaignIn(state: string, price: number, buyerId?: string) {
  const buyer = buyerId ?? (await createBuyer(t))._id;
  const id = await createCampaign(t, buyer, { price, services: ['roofing'], states: [state] });
  return { id, buyerId: buyer as string };
}

describe('budget caps in dollars', () => {
  it('sells up to a daily budget reached exactly, then falls to the next buyer and says why', async () => {
    const capped = await campaignIn('NV', 25);
    const next = await campaignIn('NV', 10);
    await setBudget(capped.id, { daily: 50 });
    expect((await post('89101')).to).toBe(capped.id);
    expect((await post('89101')).to).toBe(capped.id);
    const third = await post('89101');
    expect(third.to).toBe(next.id);
    expect(third.explanation).toContain('Daily budget of $50.00 reached');
    const detail = await t.request({ method: 'GET', url: `/api/match/${capped.id}`, as: admin.cookie });
    expect(detail.json()).toMatchObject({ budget: { daily: 50, weekly: null, monthly: null }, spent: { daily: 50 } });
  });

  it('lets no sale pass a budget by one cent', async () => {
    const capped = await campaignIn('NM', 25);
    await setBudget(capped.id, { weekly: 49.99 });
    expect((await post('87101')).to).toBe(capped.id);
    const second = await post('87101');
    expect(second.to).toBeNull();
    expect(second.explanation).toContain('Weekly budget of $49.99 reached');
  });

  it('starts a new daily window at midnight in the campaign zone', async () => {
    // 23:59 in New York (the exchange zone, the campaign has no hours): the day's budget is spent.
    t.clock.set('2026-03-10T03:59:00Z');
    const capped = await campaignIn('UT', 25);
    await setBudget(capped.id, { daily: 25, monthly: 75 });
    expect((await post('84101')).to).toBe(capped.id);
    expect((await post('84101')).to).toBeNull();
    t.clock.set('2026-03-10T04:00:00Z');
    expect((await post('84101')).to).toBe(capped.id);
    expect((await post('84101')).to).toBeNull();
  });

  it('holds a buyer daily budget across its campaigns', async () => {
    const first = await campaignIn('GA', 25);
    const second = await campaignIn('WA', 25, first.buyerId);
    const put = await t.request({
      method: 'PUT',
      url: `/api/buyer/${first.buyerId}`,
      as: admin.cookie,
      payload: { budget_daily: 60 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await post('30301')).to).toBe(first.id);
    expect((await post('98101')).to).toBe(second.id);
    const third = await post('30301');
    expect(third.to).toBeNull();
    expect(third.explanation).toContain("Buyer's daily budget of $60.00 reached");
    const buyer = await t.request({ method: 'GET', url: `/api/buyer/${first.buyerId}`, as: admin.cookie });
    expect(buyer.json()).toMatchObject({ budget_daily: 60, spent_today: 50 });
  });

  it('names the field of a bad budget, and clears one sent empty', async () => {
    const c = await campaignIn('CO', 25);
    const bad = await t.request({
      method: 'PUT',
      url: `/api/match/${c.id}`,
      as: admin.cookie,
      payload: { budget: { daily: 'lots', monthly: -1 } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({
      'budget.daily': 'Daily budget must be a number',
      'budget.monthly': 'Monthly budget must be at least 0',
    });
    await setBudget(c.id, { daily: 25 });
    expect((await setBudget(c.id, { daily: null })).budget).toEqual({ daily: null, weekly: null, monthly: null });
  });
});

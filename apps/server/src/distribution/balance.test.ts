import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test/database';
import { createBuyer, createCampaign, createSourceWithKey, leadInput, saveBillTerms } from '../../test/factories';
import { useAdminTestApp } from '../../test/harness';
import { bills, buyerSpend, leadMatches, leads } from '../db/schema';

/**
 * DESIGN.md §5 rule 7: a prepay buyer never buys beyond its balance, a credit buyer never beyond its
 * threshold, reserved at the sale like a cap. Each test sells in a state of its own, so its campaign
 * is the only one that may buy.
 */
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createSourceWithKey(t, { maxCost: 5 }));
});

/** A buyer paying by `pay` with a $`price` roofing campaign in `state` (its ZIP: `zip`). */
async function buyerIn(
  state: string,
  pay: 'prepay' | 'credit',
  dollars: { prepay?: number; threshold?: number },
  price: number,
) {
  const buyer = await createBuyer(t);
  await saveBillTerms(t, admin.cookie, buyer._id, {
    pay,
    prepay: dollars.prepay ?? 0,
    period: 'monthly',
    grace: 3,
    threshold: dollars.threshold ?? 0,
  });
  await createCampaign(t, buyer._id, { price, services: ['roofing'], states: [state] });
  return buyer._id as string;
}

/** Posts a lead in `zip`; answers whether it sold and the lead's id. */
async function post(zip: string) {
  const res = await t.sourceApi('/api/lead', apiKey, leadInput({ zip, name: 'Kim Rule', tcpa_consent: 'true' }));
  const body = res.json() as { ok: boolean; lead_id: string; status?: string };
  return { sold: body.ok && body.status === 'sold', leadId: body.lead_id };
}

const spendOf = async (buyerId: string) =>
  (await t.database.db.select().from(buyerSpend).where(eq(buyerSpend.buyerId, buyerId)))[0];

describe('rule 7: the buyer can pay', () => {
  it('sells a prepay buyer what its deposits cover, and more after a return or a new deposit', async () => {
    const buyerId = await buyerIn('NV', 'prepay', { prepay: 100 }, 30);
    const results = [];
    for (let i = 0; i < 4; i += 1) results.push(await post('89101'));
    expect(results.map((r) => r.sold)).toEqual([true, true, true, false]);
    expect(await spendOf(buyerId)).toMatchObject({ spentCents: 9000, limitCents: 10000 });
    const info = await t.request({
      method: 'GET',
      url: `/api/buyer/${buyerId}/stripe/paymentMethods`,
      as: admin.cookie,
    });
    expect(info.json()).toMatchObject({ available: 10, prepay_balance: 100 });

    // The refused lead says why.
    const [refused] = await t.database.db
      .select({ explanation: leads.explanation })
      .from(leads)
      .where(eq(leads.id, results[3]?.leadId as string));
    expect(JSON.stringify(refused?.explanation)).toContain("the buyer's balance or credit does not cover the price");

    // An approved return gives the price back; a new deposit adds to what it may buy.
    const [match] = await t.database.db
      .select({ id: leadMatches.id })
      .from(leadMatches)
      .where(eq(leadMatches.leadId, results[0]?.leadId as string));
    const approved = await t.request({
      method: 'POST',
      url: `/api/lead/${results[0]?.leadId}/match/${match?.id}/return`,
      as: admin.cookie,
      payload: { approve: true },
    });
    expect(approved.statusCode).toBe(200);
    expect((await post('89101')).sold).toBe(true);
    expect((await post('89101')).sold).toBe(false);
    await t.request({
      method: 'PUT',
      url: `/api/buyer/${buyerId}`,
      as: admin.cookie,
      payload: { bill: { pay: 'prepay', prepay: 130, period: 'monthly', grace: 3, threshold: 0 } },
    });
    expect(await spendOf(buyerId)).toMatchObject({ spentCents: 9000, limitCents: 13000 });
    expect((await post('89101')).sold).toBe(true);
    expect((await post('89101')).sold).toBe(false);
  });

  it('sells a credit buyer up to its threshold, and again once its bill is paid', async () => {
    const buyerId = await buyerIn('NM', 'credit', { threshold: 50 }, 20);
    const sold = [];
    for (let i = 0; i < 3; i += 1) sold.push((await post('87101')).sold);
    expect(sold).toEqual([true, true, false]);

    // The bill is paid (a closed bill, marked paid by Stripe): the billing run frees the credit.
    const [bill] = (await t.request({ method: 'GET', url: `/api/bill/buyer/${buyerId}`, as: admin.cookie })).json();
    await t.database.db.update(leadMatches).set({ billId: bill._id }).where(eq(leadMatches.buyerId, buyerId));
    await t.database.db.update(bills).set({ status: 'closed', paidAt: t.clock.now() }).where(eq(bills.id, bill._id));
    await t.request({ method: 'POST', url: '/api/sim/billing', as: admin.cookie });
    expect(await spendOf(buyerId)).toMatchObject({ spentCents: 0, limitCents: 5000 });
    expect((await post('87101')).sold).toBe(true);
  });

  it('leaves buyers paying by card or invoice without a limit', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 40, services: ['roofing'], states: ['UT'] });
    for (let i = 0; i < 3; i += 1) expect((await post('84101')).sold).toBe(true);
    expect(await spendOf(buyer._id)).toBeUndefined();
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('rule 7 under concurrent posts on PostgreSQL', () => {
  it('sells exactly what the balance covers when 300 posts arrive at once', async () => {
    const buyerId = await buyerIn('ID', 'prepay', { prepay: 100 }, 10);
    const results = await Promise.all(Array.from({ length: 300 }, () => post('83702')));
    expect(results.filter((r) => r.sold)).toHaveLength(10);
    expect(await spendOf(buyerId)).toMatchObject({ spentCents: 10000, limitCents: 10000 });
    const matches = await t.database.db.select().from(leadMatches).where(eq(leadMatches.buyerId, buyerId));
    expect(matches).toHaveLength(10);
  });
});

import { eq, sum } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, postReturn, postSoldLead } from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { leadMatches, leads, sourceChargebacks } from '../../db/schema';

/**
 * Issue 30: the chargeback of a fully returned shared lead is split over its sales with the largest
 * remainder (bills/money.ts splitCents), so the source gives back exactly its payout. With a round()
 * per part, three equal sales of a 500-cent payout charged it 167 × 3 = 501 cents.
 */
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

let apiKey: string;
beforeAll(async () => {
  ({ apiKey } = await createSourceWithKey(t, { maxCost: 5 }));
});

/** `prices.length` buyers sharing leads of `state` at these shared prices (dollars). */
async function sharedBuyersIn(state: string, prices: number[]) {
  for (const price of prices) {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 1, shared: price, services: ['roofing'], states: [state] });
  }
}

/** Sells a lead of `zip` through the engine, returns every sale of it, and answers its matches' chargebacks. */
async function soldAndFullyReturned(zip: string) {
  const sale = await postSoldLead(t, apiKey, { zip, tcpa_consent: 'true' });
  const [lead] = await t.deps.db.select().from(leads).where(eq(leads.id, sale.leadId));
  const matches = await t.deps.db.select().from(leadMatches).where(eq(leadMatches.leadId, sale.leadId));
  for (const m of matches)
    expect(
      (await postReturn(t, admin.cookie, { leadId: sale.leadId, matchId: m.id }, { approve: true })).statusCode,
    ).toBe(200);
  const rows = await t.deps.db
    .select()
    .from(sourceChargebacks)
    .where(eq(sourceChargebacks.leadId, sale.leadId))
    .orderBy(sourceChargebacks.amountCents);
  const [total] = await t.deps.db
    .select({ cents: sum(sourceChargebacks.amountCents).mapWith(Number) })
    .from(sourceChargebacks)
    .where(eq(sourceChargebacks.leadId, sale.leadId));
  return {
    payout: lead?.costCents,
    kinds: matches.map((m) => m.kind),
    parts: rows.map((r) => r.amountCents),
    total: total?.cents,
  };
}

describe('the chargeback of a fully returned shared lead', () => {
  it('charges a 500-cent payout sold to three buyers at one price exactly 500 cents (167 + 167 + 166)', async () => {
    await sharedBuyersIn('TX', [20, 20, 20]);
    const result = await soldAndFullyReturned('75201');
    expect(result.kinds).toEqual(['shared', 'shared', 'shared']);
    expect(result.payout).toBe(500);
    expect(result.parts).toEqual([166, 167, 167]);
    expect(result.total).toBe(500);
  });

  it('charges the whole payout at unequal prices whose exact parts end in half cents (7, 7 and 26 dollars)', async () => {
    await sharedBuyersIn('OK', [7, 7, 26]);
    const result = await soldAndFullyReturned('73102');
    expect(result.kinds).toEqual(['shared', 'shared', 'shared']);
    // 500 × 7/40 = 87.5 twice and 500 × 26/40 = 325: a round() each charged 88 + 88 + 325 = 501.
    expect(result.parts).toEqual([87, 88, 325]);
    expect(result.total).toBe(500);
  });
});

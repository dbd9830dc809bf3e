import type { ServerResponse } from 'node:http';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../test/database';
import { createBuyer, createCampaign, createSourceWithKey, leadInput, saveBillTerms } from '../../test/factories';
import { useAdminTestApp } from '../../test/harness';
import { untilWaitingOnLocks } from '../../test/locks';
import { createDelivery, fieldRows, useAnsweringServer } from '../../test/receivers';
import { bills, buyerSpend, campaigns, leadMatches, leads } from '../db/schema';
import { newId } from '../lib/ids';
import { billsRepo } from '../modules/bills/bills.repo';

/**
 * DESIGN.md §5 rule 7: a prepay buyer never buys beyond its balance, a credit buyer never beyond its
 * threshold, reserved at the sale like a cap. Each test sells in a state of its own, so its campaign
 * is the only one that may buy.
 */
/** A buyer's system behind a live custom delivery: it accepts (`{"ok":true}`) unless a test says otherwise. */
const crm = useAnsweringServer('{"ok":true}');
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0, ALLOW_PRIVATE_DELIVERY_TARGETS: true });

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

/** The buyer a lead posted in `zip` was sold to (null: not sold); `headers` may force the careful sale. */
async function soldTo(zip: string, headers: Record<string, string> = {}): Promise<string | null> {
  const res = await t.sourceApi('/api/lead', apiKey, leadInput({ zip, tcpa_consent: 'true' }), headers);
  const body = res.json() as { ok: boolean; lead_id: string; status?: string };
  if (!(body.ok && body.status === 'sold')) return null;
  const sold = await t.database.db
    .select({ buyerId: leadMatches.buyerId })
    .from(leadMatches)
    .where(and(eq(leadMatches.leadId, body.lead_id), eq(leadMatches.rejected, false)));
  return sold.map((m) => m.buyerId).join(',');
}

/** Sets a campaign's exclusive price, in cents, and reloads the engine. */
async function priceCampaign(campaignId: string, cents: number) {
  await t.database.db.update(campaigns).set({ priceCents: cents }).where(eq(campaigns.id, campaignId));
  await t.deps.engine.reload();
}

/**
 * A limited buyer `limited` ($50, $100 of prepay or credit) and the next one, `next` (invoice, $45),
 * both buying roofing in the state of `zip`, and nothing else there.
 */
async function limitedAndNext(zip: string, pay: 'prepay' | 'credit') {
  const state = t.deps.engine.stateOf(zip) as string;
  const limited = await buyerIn(state, pay, pay === 'prepay' ? { prepay: 100 } : { threshold: 100 }, 50);
  const [campaign] = await t.database.db.select().from(campaigns).where(eq(campaigns.buyerId, limited));
  const next = await createBuyer(t);
  await createCampaign(t, next._id, { price: 45, services: ['roofing'], states: [state] });
  return { limited, next: next._id as string, campaignId: campaign?.id as string };
}

/** A live delivery of the buyer to the CRM at `path`, accepting `{"ok":true}`; the engine is reloaded. */
async function liveCrmDelivery(buyerId: string, path: string) {
  await createDelivery(t, admin.cookie, {
    buyer: buyerId,
    name: 'CRM',
    url: `${crm.base}${path}`,
    accept: fieldRows({ ok: 'true' }),
    status: 'live',
  });
  await t.deps.engine.reload();
}

/** The buyer's accruing bill's id (its first sale opened it). */
async function accruingBillOf(buyerId: string): Promise<string> {
  const res = await t.request({ method: 'GET', url: `/api/bill/buyer/${buyerId}/current`, as: admin.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json()._id;
}

/** PUT /api/bill/{id}: the admin's credits and debits on the bill, in dollars, each list whole. */
async function adjust(billId: string, credits: number[], debits: number[]) {
  const line = (amount: number) => ({ amount, description: `adjustment of $${amount}` });
  const res = await t.request({
    method: 'PUT',
    url: `/api/bill/${billId}`,
    as: admin.cookie,
    payload: { credits: credits.map(line), debits: debits.map(line) },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Expects the buyer's running spend to be what a recompute from its sales, returns and adjustments sets. */
async function expectSpendFromFacts(buyerId: string) {
  const running = await spendOf(buyerId);
  await t.database.db.transaction((tx) => billsRepo.recomputeSpendOf(tx, buyerId));
  expect(await spendOf(buyerId), 'the sales reserved what the facts say').toEqual(running);
}

/**
 * Issue 30, weak area 1: the limit's boundary, both sides of it to the cent, on both ways a sale takes
 * the spend: the one-statement sale and the careful one (an Idempotency-Key forces it).
 */
describe('rule 7 at the limit, to the cent', () => {
  it.each([
    ['prepay', 'the one-statement sale', '37203'],
    ['prepay', 'the careful sale', '40202'],
    ['credit', 'the one-statement sale', '46204'],
    ['credit', 'the careful sale', '35203'],
  ] as const)(
    'a %s buyer through %s: a price landing exactly on the limit sells, one cent over goes to the next buyer',
    async (pay, path, zip) => {
      const { limited, next, campaignId } = await limitedAndNext(zip, pay);
      const headers = (): Record<string, string> =>
        path === 'the careful sale' ? { 'idempotency-key': newId('key') } : {};
      const sold: (string | null)[] = [];
      // $50 + $50 lands exactly on $100: sold; a third $50 is over: the next buyer.
      for (let i = 0; i < 3; i += 1) sold.push(await soldTo(zip, headers()));
      expect(sold).toEqual([limited, limited, next]);
      expect(await spendOf(limited)).toMatchObject({ spentCents: 10000, limitCents: 10000 });

      // $151 now: $51.01 is one cent over it, $51.00 exactly on it.
      await saveBillTerms(t, admin.cookie, limited, {
        pay,
        period: 'monthly',
        grace: 3,
        ...(pay === 'prepay' ? { prepay: 151, threshold: 0 } : { prepay: 0, threshold: 151 }),
      });
      await priceCampaign(campaignId, 5101);
      expect(await soldTo(zip, headers())).toBe(next);
      expect(await spendOf(limited)).toMatchObject({ spentCents: 10000, limitCents: 15100 });
      await priceCampaign(campaignId, 5100);
      expect(await soldTo(zip, headers())).toBe(limited);
      expect(await spendOf(limited)).toMatchObject({ spentCents: 15100, limitCents: 15100 });
      await expectSpendFromFacts(limited);
    },
  );
});

describe("rule 7: an admin's credits and debits move what a prepay buyer may still buy", () => {
  it('a debit refuses a sale that would otherwise sell; a credit lets through one that would be refused', async () => {
    const zip = '39201';
    const { limited, next } = await limitedAndNext(zip, 'prepay');
    expect(await soldTo(zip)).toBe(limited);
    const bill = await accruingBillOf(limited);

    // $50 spent of $100: a one-cent debit leaves $49.99, short of the $50 price.
    await adjust(bill, [], [0.01]);
    expect(await spendOf(limited)).toMatchObject({ spentCents: 5001, limitCents: 10000 });
    expect(await soldTo(zip)).toBe(next);
    // Without it the same sale lands exactly on the limit.
    await adjust(bill, [], []);
    expect(await soldTo(zip)).toBe(limited);
    expect(await soldTo(zip)).toBe(next);

    // $100 spent of $100: a $49.99 credit leaves one cent short, a $50 credit exactly the price.
    await adjust(bill, [49.99], []);
    expect(await spendOf(limited)).toMatchObject({ spentCents: 5001 });
    expect(await soldTo(zip)).toBe(next);
    await adjust(bill, [50], []);
    expect(await spendOf(limited)).toMatchObject({ spentCents: 5000 });
    expect(await soldTo(zip)).toBe(limited);
    expect(await spendOf(limited)).toMatchObject({ spentCents: 10000 });
    await expectSpendFromFacts(limited);
  });
});

describe('rule 7: a winner that does not buy gives its reservation back', () => {
  it('a prepay buyer whose live delivery answers Not Accepted keeps its whole balance for the next leads', async () => {
    const zip = '64106';
    const { limited, next } = await limitedAndNext(zip, 'prepay');
    await liveCrmDelivery(limited, '/crm');

    crm.answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":false}');
    expect(await soldTo(zip)).toBe(next);
    expect(await spendOf(limited)).toMatchObject({ spentCents: 0, limitCents: 10000 });

    crm.answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    const sold = [];
    for (let i = 0; i < 3; i += 1) sold.push(await soldTo(zip));
    expect(sold).toEqual([limited, limited, next]);
    await expectSpendFromFacts(limited);
  });

  it('a shared winner sold exclusively once a co-winner cannot pay reserves its exclusive price, not its shared one', async () => {
    // $20 + $20 shared beats $30 exclusive; the second buyer has no balance, so the sale reruns without it and
    // the first buyer buys alone at $30: exactly its $30 balance.
    const state = t.deps.engine.stateOf('72201') as string;
    const first = await createBuyer(t);
    await saveBillTerms(t, admin.cookie, first._id, { pay: 'prepay', prepay: 30, period: 'monthly', grace: 3 });
    await createCampaign(t, first._id, { price: 30, shared: 20, services: ['roofing'], states: [state] });
    const broke = await createBuyer(t);
    await saveBillTerms(t, admin.cookie, broke._id, { pay: 'prepay', prepay: 0, period: 'monthly', grace: 3 });
    await createCampaign(t, broke._id, { price: 10, shared: 20, services: ['roofing'], states: [state] });

    expect(await soldTo('72201')).toBe(first._id);
    expect(await spendOf(first._id)).toMatchObject({ spentCents: 3000, limitCents: 3000 });
    await expectSpendFromFacts(first._id);
    // Its balance is spent: it buys nothing more, alone or shared.
    expect(await soldTo('72201')).toBeNull();
    expect(await spendOf(first._id)).toMatchObject({ spentCents: 3000, limitCents: 3000 });
  });
});

/**
 * The spend recompute (billing runs, adjustments, returns, terms) against a sale, forced on PostgreSQL
 * with two connections, each way round. PGlite runs one statement at a time: no lock is ever waited on.
 */
describe.skipIf(testDatabaseKind !== 'postgres')(
  'rule 7: the spend recompute raced against a sale (PostgreSQL)',
  () => {
    it('a recompute that starts while a sale holds its reservation uncommitted counts that sale', async () => {
      const zip = '43215';
      const { limited, next } = await limitedAndNext(zip, 'prepay');
      await liveCrmDelivery(limited, '/held');
      expect(await soldTo(zip)).toBe(limited);

      // The sale's transaction has reserved the price and waits for the buyer's system to answer.
      let held: ServerResponse | undefined;
      const arrived = new Promise<void>((resolve) => {
        crm.answer = (res) => {
          held = res;
          resolve();
        };
      });
      const sale = soldTo(zip);
      await arrived;
      const recompute = t.database.db.transaction((tx) => billsRepo.recomputeSpendOf(tx, limited));
      await untilWaitingOnLocks(t, 1);
      held?.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      expect(await sale).toBe(limited);
      await recompute;

      expect(await spendOf(limited)).toMatchObject({ spentCents: 10000, limitCents: 10000 });
      crm.answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      expect(await soldTo(zip)).toBe(next);
    });

    it('a sale waiting on a recompute that took the room (a debit) judges by the committed row, not its snapshot', async () => {
      const zip = '50309';
      const { limited, next } = await limitedAndNext(zip, 'prepay');
      expect(await soldTo(zip)).toBe(limited);
      const bill = await accruingBillOf(limited);

      let sale: Promise<string | null> | undefined;
      await t.database.db.transaction(async (tx) => {
        // An admin's one-cent debit, recomputed and not yet committed, leaves $49.99 of room for a $50 lead.
        await billsRepo.replaceAdjustments(tx, bill, [
          {
            id: newId('adj'),
            billId: bill,
            kind: 'debit',
            amountCents: 1,
            description: 'race',
            position: 0,
            createdAt: t.clock.now(),
          },
        ]);
        await billsRepo.recomputeSpendOf(tx, limited);
        sale = soldTo(zip);
        await untilWaitingOnLocks(t, 1);
      });
      expect(await sale).toBe(next);
      expect(await spendOf(limited)).toMatchObject({ spentCents: 5001, limitCents: 10000 });
      await expectSpendFromFacts(limited);
    });
  },
);

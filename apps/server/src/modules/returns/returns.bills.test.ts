import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test/database';
import {
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  postReturn,
  postSoldLead,
  type Sale,
  saveBillTerms,
  shareSoldLead,
} from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { untilWaitingOnLocks } from '../../../test/locks';
import { buyerSpend, buyers, leadMatches, messages, sourceChargebacks } from '../../db/schema';
import { newId } from '../../lib/ids';

/**
 * Issue 30, weak area 2: returns across bill boundaries. A return on a lead of a closed bill, the
 * auto-approve share counted in the period of the returned sale (both sides of the period boundary),
 * the same return decided twice at once (PostgreSQL, forced) and a chargeback split that does not
 * divide evenly. Each test buys in a state of its own; times are the injected clock's.
 */
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
const DAY_MS = 86_400_000;

let apiKey: string;
beforeAll(async () => {
  // A $5 payout: what an approved return charges back to the source.
  ({ apiKey } = await createSourceWithKey(t, { maxCost: 5 }));
});

/** A buyer with a login and a $20 roofing campaign in the state of `zip` (monthly bills, 3 grace days). */
async function buyerIn(zip: string, autoApproveReturns = 0) {
  const buyer = await createBuyerWithLogin(t);
  const state = t.deps.engine.stateOf(zip) as string;
  await createCampaign(t, buyer.buyer._id, { price: 20, services: ['roofing'], states: [state] });
  if (autoApproveReturns)
    await t.deps.db.update(buyers).set({ autoApproveReturns }).where(eq(buyers.id, buyer.buyer._id));
  return buyer;
}

/** Sells a lead in `zip` at `at` (the clock is set there). */
async function sellAt(zip: string, at: Date): Promise<Sale> {
  t.clock.set(at);
  const { leadId, matchId } = await postSoldLead(t, apiKey, { zip, name: 'Robin Shaw', tcpa_consent: 'true' });
  return { leadId, matchId };
}

const runBilling = async () =>
  expect((await t.request({ method: 'POST', url: '/api/sim/billing', as: admin.cookie })).statusCode).toBe(200);

/** The buyer's bills as the admin lists them, oldest first. */
async function billsOf(buyerId: string) {
  const res = await t.request({ method: 'GET', url: `/api/bill/buyer/${buyerId}`, as: admin.cookie });
  return (
    res.json() as Array<{
      _id: string;
      accruing: boolean;
      status: { complete: boolean };
      total: { charges: number; returns: number; credits: number; debits: number; net: number };
    }>
  ).reverse();
}

const matchOf = async (matchId: string) =>
  (await t.deps.db.select().from(leadMatches).where(eq(leadMatches.id, matchId)))[0];
const chargebacksOf = (matchId: string) =>
  t.deps.db.select().from(sourceChargebacks).where(eq(sourceChargebacks.matchId, matchId));

describe('a return on a lead whose bill has rolled', () => {
  it("is taken during the bill's grace days, on that bill, and refused once the bill has closed", async () => {
    // May's bill ends at midnight of June 1st in New York (04:00Z) and closes 3 grace days later.
    const buyer = await buyerIn('37203');
    const end = Date.parse('2031-06-01T04:00:00Z');
    const inGrace = await sellAt('37203', new Date(end - DAY_MS));
    const afterClose = await sellAt('37203', new Date(end - DAY_MS + 60_000));

    // The last millisecond of grace: the bill has rolled, not closed; a return still changes it.
    t.clock.set(new Date(end + 3 * DAY_MS - 1));
    await runBilling();
    const [may] = await billsOf(buyer.buyer._id);
    expect(may).toMatchObject({ accruing: false, status: { complete: false } });
    expect((await postReturn(t, buyer.cookie, inGrace, { reason: 'Location' })).json()).toMatchObject({
      status: 'requested',
    });
    expect((await postReturn(t, admin.cookie, inGrace, { approve: true })).json()).toMatchObject({
      status: 'approved',
    });
    expect((await billsOf(buyer.buyer._id))[0]?.total).toMatchObject({ charges: 40, returns: 20, net: 20 });

    // Grace over: the bill closes with the return in its final totals; the next return is refused.
    t.clock.set(new Date(end + 3 * DAY_MS));
    await runBilling();
    const closed = (await billsOf(buyer.buyer._id))[0];
    expect(closed).toMatchObject({ _id: may?._id, status: { complete: true } });
    expect(closed?.total).toMatchObject({ charges: 40, returns: 20, credits: 0, net: 20 });
    const messagesBefore = (await t.deps.db.select().from(messages)).length;
    for (const as of [buyer.cookie, admin.cookie]) {
      const refused = await postReturn(
        t,
        as,
        afterClose,
        as === admin.cookie ? { approve: true } : { reason: 'Bad Information' },
      );
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        ok: false,
        message: "This lead's bill is closed: its returns can no longer change",
      });
    }
    // Nothing moved: not the sale, not the closed bill, not the open one, not the source, no message.
    expect(await matchOf(afterClose.matchId)).toMatchObject({ returnStatus: null, returnRequestedAt: null });
    const after = await billsOf(buyer.buyer._id);
    expect(after[0]?.total).toEqual(closed?.total);
    expect(
      after.slice(1).map((b) => b.total),
      'June, the bill the run opened, carries no credit for it',
    ).toEqual([{ charges: 0, returns: 0, credits: 0, debits: 0, net: 0 }]);
    expect(await chargebacksOf(afterClose.matchId)).toEqual([]);
    expect(await chargebacksOf(inGrace.matchId)).toHaveLength(1);
    expect((await t.deps.db.select().from(messages)).length).toBe(messagesBefore);
  });
});

describe('the auto-approve share', () => {
  it('counts the leads and approved returns of the returned sale’s own period, on both sides of its start', async () => {
    // 50 %: September starts at 04:00Z. Two sales end August (an hour and a millisecond before), two
    // start September (at its first instant and an hour in). The returns are asked in September.
    const buyer = await buyerIn('40202', 0.5);
    const start = Date.parse('2031-09-01T04:00:00Z');
    const augustEarly = await sellAt('40202', new Date(start - 3_600_000));
    const augustLast = await sellAt('40202', new Date(start - 1));
    const septemberFirst = await sellAt('40202', new Date(start));
    const septemberLater = await sellAt('40202', new Date(start + 3_600_000));
    t.clock.set(new Date(start + 2 * 3_600_000));

    const statuses = [];
    for (const sale of [septemberFirst, augustLast, septemberLater, augustEarly])
      statuses.push((await postReturn(t, buyer.cookie, sale, { reason: 'Wrong Service' })).json().status);
    // Each month: 1 of its 2 leads approved at once, the second waits for an admin.
    expect(statuses).toEqual(['approved', 'approved', 'requested', 'requested']);
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('the same return decided twice at once (PostgreSQL)', () => {
  it.each([
    ['approve', 'deny', { approve: true }, { deny: true }],
    ['approve', 'approve', { approve: true }, { approve: true }],
  ] as const)(
    '%s then %s: the first decides, the second is told it was decided, the money moves once',
    async (_a, _b, first, second) => {
      const zip = first === second ? '46204' : '35203';
      const buyer = await buyerIn(zip);
      await saveBillTerms(t, admin.cookie, buyer.buyer._id, {
        pay: 'prepay',
        prepay: 100,
        period: 'monthly',
        grace: 3,
      });
      const sale = await sellAt(zip, new Date(Date.parse('2031-11-12T15:00:00Z')));
      expect((await postReturn(t, buyer.cookie, sale, { reason: 'Location' })).json().status).toBe('requested');

      // Both decisions have read the request as waiting; the buyer's lock (held here) makes them queue in order.
      let one: ReturnType<typeof postReturn> | undefined;
      let two: ReturnType<typeof postReturn> | undefined;
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1 from buyers where id = ${buyer.buyer._id} for update`);
        one = postReturn(t, admin.cookie, sale, first);
        await untilWaitingOnLocks(t, 1);
        two = postReturn(t, admin.cookie, sale, second);
        await untilWaitingOnLocks(t, 2);
      });
      const [won, lost] = await Promise.all([one, two]);
      expect(won?.statusCode, won?.body).toBe(200);
      expect(won?.json()).toMatchObject({ status: 'approved' });
      expect(lost?.statusCode, lost?.body).toBe(409);
      expect(lost?.json().message).toBe('This return was already decided');

      expect(await matchOf(sale.matchId)).toMatchObject({ returnStatus: 'approved' });
      expect((await chargebacksOf(sale.matchId)).map((c) => c.amountCents)).toEqual([500]);
      const [bill] = await billsOf(buyer.buyer._id);
      expect(bill?.total).toMatchObject({ charges: 20, returns: 20, net: 0 });
      const [spend] = await t.deps.db.select().from(buyerSpend).where(eq(buyerSpend.buyerId, buyer.buyer._id));
      expect(spend).toMatchObject({ spentCents: 0, limitCents: 10000 });
      const [message] = (await t.deps.db.select().from(messages)).filter(
        (m) => (m.data as { match_id?: string }).match_id === sale.matchId,
      );
      expect(message?.data).toMatchObject({ resolved: 'approved' });
    },
  );
});

describe('a chargeback that does not divide evenly', () => {
  // Three equal thirds of a 500-cent payout, rounded each, were 167 + 167 + 167 = 501 cents; the split is
  // now by the largest remainder (modules/bills/money.ts splitCents).
  it('charges the source exactly its $5 payout for a lead returned by three buyers at equal prices', async () => {
    await buyerIn('50309');
    const sale = await sellAt('50309', new Date(Date.parse('2031-12-03T15:00:00Z')));
    const all: Sale[] = [sale];
    for (let i = 0; i < 2; i += 1) all.push(await shareSoldLead(t, sale.leadId, 2000));
    for (const s of all) expect((await postReturn(t, admin.cookie, s, { approve: true })).statusCode).toBe(200);
    const parts = (await Promise.all(all.map((s) => chargebacksOf(s.matchId)))).flat().map((c) => c.amountCents);
    expect(parts).toHaveLength(3);
    for (const part of parts) expect([166, 167]).toContain(part);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(500);
  });
});

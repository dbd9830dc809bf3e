import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { adjustOpenBill, expectBillsConsistent } from '../../../test/bill-checks';
import { testDatabaseKind } from '../../../test/database';
import { createBuyer, createCampaign, createSourceWithKey, postReturn, uniquePhone } from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { createDelivery, pingPostDelivery, useAnsweringServer } from '../../../test/receivers';
import { rowsOf } from '../../db/client';
import { buyers as buyersTable, leadMatches, leads } from '../../db/schema';
import type { Viewer } from '../../plugins/auth';

/**
 * Issue 30: the money of the exchange under random sequences of sales (fixed prices and a Ping/Post
 * buyer's bids), returns (requested, approved, denied, auto-approved; on open and closed bills),
 * credits, debits, prepay top-ups and billing runs, across period ends and both daylight-saving
 * changes of America/New_York. Everything runs through the real routes and services on ONE harness
 * database: each sequence starts by deleting the money rows of the one before (sales, bills,
 * adjustments, deposits, chargebacks), so it may start at any instant and the billing run only sees
 * its own four buyers. After every step (SQL reads, cheap) and at the end of each sequence (the API):
 * - every bill's net = charges - approved returns - credits + debits, to the cent;
 * - no sale on two bills;
 * - no sale takes a limited buyer (prepay or credit) past what it may spend; no prepay balance below zero
 *   while no admin adjustment was made (an admin's debit, or a credit taken back, may leave a drawn prepay
 *   balance below zero: the draw then records "a deposit is due", bill-payments.ts);
 * - a buyer who can pay is sold to: an unsold lead had no eligible buyer able to pay, a shared lead
 *   goes to every shared buyer able to pay;
 * - the source gives back exactly its payout for a lead whose every sale is returned (the chargeback
 *   split, issue 30), never more than it, each part within a cent of its price's share.
 *
 * Sequences are short (3 to 8 steps, about 0.3 s each on PGlite) so that MONEY_PROPERTY_RUNS (see RUNS for the
 * default) take as little time as they can. The seed is printed on a failure (fast-check's report); MONEY_PROPERTY_SEED replays one.
 */
/**
 * 500 sequences on PostgreSQL (CI runs that project too); PGlite, which runs one statement at a time and
 * about three times slower, runs 100 so as not to add minutes to CI for the same rules.
 */
const RUNS = Number(process.env.MONEY_PROPERTY_RUNS ?? (testDatabaseKind === 'postgres' ? 500 : 100));
const SEED = process.env.MONEY_PROPERTY_SEED ? Number(process.env.MONEY_PROPERTY_SEED) : undefined;

const bidder = useAnsweringServer('{"ok":true}');
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0, ALLOW_PRIVATE_DELIVERY_TARGETS: true });

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const PAYOUT = 500;
/** The ZIP each step posts in: TX (exclusive $13 and $7, shared $6), OK (three shared at $7), NV (bids against $7). */
const ZIPS = { TX: '75201', OK: '73102', NV: '89101' } as const;
type State = keyof typeof ZIPS;

/** Instants just before period ends and the daylight-saving changes of New York (a sequence starts near one). */
const STARTS = [
  '2026-03-06T15:00:00Z', // the Friday before the spring change (Sunday 2026-03-08)
  '2026-10-29T15:00:00Z', // the last days of October, the week of the fall change (Sunday 2026-11-01)
  '2027-03-12T15:00:00Z', // before the spring change of 2027 (03-14)
  '2027-11-04T15:00:00Z', // before the first Sunday of November 2027 (11-07)
  '2026-06-27T15:00:00Z', // a week and a month ending together (Sunday 06-28, Tuesday 06-30)
].map((iso) => new Date(iso).getTime());

type Step =
  | { kind: 'post'; state: State; bid: number }
  | { kind: 'request'; pick: number }
  | { kind: 'decide'; pick: number; approve: boolean }
  | { kind: 'adjust'; buyer: number; credit: number; debit: number }
  | { kind: 'topUp'; dollars: number }
  | { kind: 'run' }
  | { kind: 'wait'; hours: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('post' as const),
      state: fc.constantFrom<State>('TX', 'OK', 'NV'),
      bid: fc.oneof(fc.constant(0), fc.integer({ min: 3, max: 20 })),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('request' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('decide' as const), pick: fc.nat(), approve: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('adjust' as const),
      buyer: fc.nat(3),
      credit: fc.constantFrom(0, 1, 333, 700),
      debit: fc.constantFrom(0, 1, 250, 1300),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('topUp' as const), dollars: fc.constantFrom(3, 7, 14) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('run' as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('wait' as const), hours: fc.integer({ min: 1, max: 24 * 5 }) }),
  },
);

/** A sequence's buyers' terms. */
const terms = fc.record({
  period: fc.constantFrom<'weekly' | 'monthly'>('weekly', 'monthly'),
  deposit: fc.constantFrom(0, 7, 14, 21, 10),
  threshold: fc.constantFrom(13, 26, 30),
  share: fc.constantFrom(0, 0.29, 0.5, 1),
  grace: fc.constantFrom(0, 3),
  startAt: fc.constantFrom(...STARTS),
  offsetHours: fc.integer({ min: 0, max: 72 }),
});

/** The four buyers, made once: P prepay, K credit, V and D invoiced; D bids through its Ping/Post delivery. */
interface Cast {
  P: string;
  K: string;
  V: string;
  D: string;
}
let cast: Cast;
/** What each buyer's campaigns pay in each state, cents: exclusive and shared. */
let prices: Record<State, Array<{ buyer: keyof Cast; exclusive?: number; shared?: number }>>;
let apiKey = '';
/** The bid D's system answers at the next ping (dollars; 0: no bid). */
let nextBid = 0;

beforeAll(async () => {
  ({ apiKey } = await createSourceWithKey(t, { maxCost: PAYOUT / 100 }));
  const [P, K, V, D] = (await Promise.all([0, 1, 2, 3].map(async () => (await createBuyer(t))._id))) as [
    string,
    string,
    string,
    string,
  ];
  cast = { P, K, V, D };
  await createCampaign(t, P, { price: 7, states: ['TX', 'NV'] });
  await createCampaign(t, P, { price: 1, shared: 7, states: ['OK'] });
  await createCampaign(t, K, { price: 13, states: ['TX'] });
  await createCampaign(t, K, { price: 1, shared: 7, states: ['OK'] });
  await createCampaign(t, V, { price: 1, shared: 6, states: ['TX'] });
  await createCampaign(t, V, { price: 1, shared: 7, states: ['OK'] });
  // D's own price never counts: its bid stands in for it.
  await createCampaign(t, D, { price: 5, states: ['NV'] });
  prices = {
    TX: [
      { buyer: 'K', exclusive: 1300 },
      { buyer: 'P', exclusive: 700 },
      { buyer: 'V', shared: 600 },
    ],
    OK: [
      { buyer: 'P', shared: 700 },
      { buyer: 'K', shared: 700 },
      { buyer: 'V', shared: 700 },
    ],
    NV: [{ buyer: 'P', exclusive: 700 }],
  };
  await createDelivery(
    t,
    admin.cookie,
    pingPostDelivery({
      buyer: D,
      name: 'Bids',
      base: bidder.base,
      map: { phone: 'Phone', buyer_ping_id: 'PingId', price: 'Price' },
      pingMap: { service: 'Service', zip: 'Zip' },
    }),
  );
});

/** Deletes every sale, bill, deposit and chargeback: the next sequence starts on a clean ledger. */
async function resetMoney() {
  await t.database.db.execute(sql`delete from prepay_entries`);
  await t.database.db.execute(sql`delete from source_chargebacks`);
  await t.database.db.execute(sql`delete from bill_adjustments`);
  await t.database.db.execute(sql`delete from lead_matches`);
  await t.database.db.execute(sql`delete from leads`);
  await t.database.db.execute(sql`delete from bills`);
  await t.database.db.execute(sql`delete from buyer_spend`);
  await t.database.db.update(buyersTable).set({ prepayCents: 0 });
}

async function saveTerms(buyerId: string, payload: object) {
  const res = await t.request({ method: 'PUT', url: `/api/buyer/${buyerId}`, as: admin.cookie, payload });
  expect(res.statusCode, res.body).toBe(200);
}

const rows = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await t.database.db.execute(query));

/** What each limited buyer may still spend, cents (absent: no limit). */
async function allowances(): Promise<Map<string, number>> {
  const spend = await rows<{ buyer_id: string; left: number }>(
    sql`select buyer_id, (limit_cents - spent_cents)::int as left from buyer_spend`,
  );
  return new Map(spend.map((r) => [r.buyer_id, Number(r.left)]));
}

/** Four columns of a row, as numbers. */
const fourNumbers = (...columns: [unknown, unknown, unknown, unknown]) =>
  columns.map(Number) as [number, number, number, number];

/** The invariants that hold after every step (SQL over the ledger). */
async function expectMoneyHolds(afterRun: boolean, adjusted: boolean) {
  // No prepay balance below zero, unless an admin's adjustment moved it (see the top).
  const balances = await rows<{ buyer_id: string; cents: number }>(
    sql`select buyer_id, sum(amount_cents)::int as cents from prepay_entries group by buyer_id`,
  );
  if (!adjusted)
    for (const b of balances) expect(Number(b.cents), `prepay balance of ${b.buyer_id}`).toBeGreaterThanOrEqual(0);

  // Every closed bill's totals are its sales, approved returns and adjustments, and its net is their sum.
  const closed = await rows<Record<string, number | string>>(sql`
    select b.id, b.charges_cents, b.returns_cents, b.credits_cents, b.debits_cents, b.net_cents,
      (select coalesce(sum(m.price_cents), 0)::int from lead_matches m where m.bill_id = b.id and not m.rejected) as charges,
      (select coalesce(sum(m.price_cents), 0)::int from lead_matches m
        where m.bill_id = b.id and not m.rejected and m.return_status = 'approved') as returns,
      (select coalesce(sum(a.amount_cents), 0)::int from bill_adjustments a where a.bill_id = b.id and a.kind = 'credit') as credits,
      (select coalesce(sum(a.amount_cents), 0)::int from bill_adjustments a where a.bill_id = b.id and a.kind = 'debit') as debits
    from bills b where b.status = 'closed'`);
  for (const b of closed) {
    const [charges, returns, credits, debits] = fourNumbers(b.charges, b.returns, b.credits, b.debits);
    expect(
      [b.charges_cents, b.returns_cents, b.credits_cents, b.debits_cents, b.net_cents].map(Number),
      `closed bill ${b.id}`,
    ).toEqual([charges, returns, credits, debits, charges - returns - credits + debits]);
  }

  // No sale on two bills (its stamped bill, or the accruing bill it falls in); after a run, every sale on one.
  const onBills = await rows<{ id: string; n: number }>(sql`
    select m.id, (select count(*)::int from bills b where b.buyer_id = m.buyer_id and (b.id = m.bill_id
      or (m.bill_id is null and b.status = 'accruing' and m.created_at < b.end_at))) as n
    from lead_matches m where not m.rejected`);
  for (const m of onBills) {
    expect(Number(m.n), `sale ${m.id} on at most one bill`).toBeLessThanOrEqual(1);
    if (afterRun) expect(Number(m.n), `sale ${m.id} on a bill after the run`).toBe(1);
  }

  // The source gives back its payout of a fully returned lead, never more, each part within a cent of its share.
  const byLead = await rows<{ id: string; cost: number; sales: number; returned: number; back: number }>(sql`
    select l.id, l.cost_cents as cost,
      (select count(*)::int from lead_matches m where m.lead_id = l.id and not m.rejected) as sales,
      (select count(*)::int from lead_matches m where m.lead_id = l.id and not m.rejected and m.return_status = 'approved') as returned,
      (select coalesce(sum(c.amount_cents), 0)::int from source_chargebacks c where c.lead_id = l.id) as back
    from leads l where l.price_cents > 0`);
  for (const l of byLead) {
    const [cost, sales, returned, back] = fourNumbers(l.cost, l.sales, l.returned, l.back);
    if (returned === 0) expect(back, `lead ${l.id}: nothing returned, nothing back`).toBe(0);
    else if (returned === sales) expect(back, `lead ${l.id}: fully returned, its whole payout back`).toBe(cost);
    else expect(back, `lead ${l.id}: part returned`).toBeLessThanOrEqual(cost);
  }
  const parts = await rows<{ amount: number; exact: number }>(sql`
    select c.amount_cents as amount, l.cost_cents::float8 * m.price_cents
      / (select sum(x.price_cents) from lead_matches x where x.lead_id = l.id and not x.rejected) as exact
    from source_chargebacks c join lead_matches m on m.id = c.match_id join leads l on l.id = c.lead_id`);
  for (const p of parts) expect(Math.abs(Number(p.amount) - Number(p.exact))).toBeLessThan(1);
}

/** Posts a lead in `state`; checks that it went to who could pay, and answers its sales. */
async function post(state: State, bid: number): Promise<Array<{ leadId: string; matchId: string }>> {
  const before = await allowances();
  const canPay = (buyer: keyof Cast, cents: number) => (before.get(cast[buyer]) ?? Number.POSITIVE_INFINITY) >= cents;
  nextBid = bid;
  const res = await t.sourceApi('/api/lead', apiKey, {
    service: 'roofing',
    zip: ZIPS[state],
    name: 'Prop Money',
    phone: uniquePhone(),
    tcpa_consent: 'true',
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { status?: string; lead_id: string };
  const sold = await t.database.db
    .select({ id: leadMatches.id, buyerId: leadMatches.buyerId })
    .from(leadMatches)
    .where(eq(leadMatches.leadId, body.lead_id));
  const able = prices[state].filter((p) => canPay(p.buyer, p.exclusive ?? p.shared ?? 0)).map((p) => cast[p.buyer]);
  if (state === 'NV' && bid * 100 >= PAYOUT) able.push(cast.D);
  if (body.status !== 'sold') expect(able, 'an unsold lead: nobody who could pay was eligible').toEqual([]);
  else expect(able.length, 'sold to someone who could pay').toBeGreaterThan(0);
  if (state === 'OK')
    expect(sold.map((m) => m.buyerId).sort(), 'every shared buyer who could pay').toEqual(able.sort());
  // No sale took its buyer past what it may spend.
  const after = await allowances();
  for (const m of sold) {
    const left = after.get(m.buyerId);
    if (left !== undefined) expect(left, `what ${m.buyerId} may still spend after its sale`).toBeGreaterThanOrEqual(0);
  }
  return sold.map((m) => ({ leadId: body.lead_id, matchId: m.id }));
}

/** The match's return and whether its bill is closed. */
async function returnState(matchId: string) {
  const [row] = await rows<{ status: string | null; closed: boolean }>(sql`
    select m.return_status as status, coalesce(b.status = 'closed', false) as closed
    from lead_matches m left join bills b on b.id = m.bill_id where m.id = ${matchId}`);
  return row as { status: string | null; closed: boolean };
}

describe('money under random sequences of sales, returns, adjustments, top-ups and billing runs', () => {
  it(`holds every rule after every step (${RUNS} sequences)`, async () => {
    bidder.answer = (res, req) => {
      const body =
        req.url === '/ping' ? (nextBid > 0 ? { ok: true, bid: nextBid, id: 'p1' } : { ok: false }) : { ok: true };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    let sequence = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 8 }), terms, async (steps, term) => {
        sequence += 1;
        await resetMoney();
        t.clock.set(new Date(term.startAt + term.offsetHours * HOUR_MS));
        // The invoiced buyers' terms written directly; the limited buyers' through the route (their deposit
        // ledger and spend limit follow it).
        await t.database.db
          .update(buyersTable)
          .set({ period: term.period, graceDays: term.grace, autoApproveReturns: term.share })
          .where(sql`${buyersTable.id} in (${cast.V}, ${cast.D})`);
        const bill = { period: term.period, grace: term.grace };
        await saveTerms(cast.P, {
          bill: { ...bill, pay: 'prepay', prepay: term.deposit, threshold: 0 },
          autoApproveReturns: term.share,
        });
        await saveTerms(cast.K, {
          bill: { ...bill, pay: 'credit', prepay: 0, threshold: term.threshold },
          autoApproveReturns: term.share,
        });
        let deposited = term.deposit;
        let adjusted = false;
        const sales: Array<{ leadId: string; matchId: string }> = [];
        const pick = (n: number) => sales[n % sales.length] as { leadId: string; matchId: string };

        for (const s of steps) {
          if (s.kind === 'wait') t.clock.advance(s.hours * HOUR_MS);
          if (s.kind === 'run') {
            const res = await t.request({ method: 'POST', url: '/api/sim/billing?doPayments=true', as: admin.cookie });
            expect(res.statusCode, res.body).toBe(200);
          }
          if (s.kind === 'post') sales.push(...(await post(s.state, s.bid)));
          if (s.kind === 'topUp') {
            deposited += s.dollars;
            await saveTerms(cast.P, { bill: { pay: 'prepay', prepay: deposited } });
          }
          if (s.kind === 'request' && sales.length > 0) {
            const sale = pick(s.pick);
            const was = await returnState(sale.matchId);
            // The buyer asks, through the returns service as its route calls it (no sign-in per sequence).
            const [m] = await t.database.db.select().from(leadMatches).where(eq(leadMatches.id, sale.matchId));
            const viewer: Viewer = { role: 'buyer', roleId: m?.buyerId ?? null, userId: 'prop-user' };
            const answer = await t.deps.services.returns
              .act(viewer, sale.leadId, sale.matchId, { reason: 'Duplicate Lead' })
              .then((r) => r.status)
              .catch((e: { code?: string }) => `refused ${e.code}`);
            if (was.status !== null || was.closed)
              expect(answer, 'a decided or closed sale is not returned').toBe('refused conflict');
            else expect(['approved', 'requested', 'refused conflict']).toContain(answer); // conflict: past the window
          }
          if (s.kind === 'decide' && sales.length > 0) {
            const sale = pick(s.pick);
            const was = await returnState(sale.matchId);
            const res = await postReturn(t, admin.cookie, sale, s.approve ? { approve: true } : { deny: true });
            const allowed = !was.closed && (was.status === 'requested' || (s.approve && was.status === null));
            expect(res.statusCode, res.body).toBe(allowed ? 200 : 409);
          }
          if (s.kind === 'adjust') {
            adjusted = true;
            await adjustOpenBill(t, admin.cookie, [cast.P, cast.K, cast.V, cast.D][s.buyer] as string, s);
          }
          await expectMoneyHolds(s.kind === 'run', adjusted);
        }

        // Every tenth sequence also runs far ahead and reads every bill through the API (slower).
        if (sequence % 10 === 0) {
          t.clock.advance(70 * DAY_MS);
          await t.request({ method: 'POST', url: '/api/sim/billing?doPayments=true', as: admin.cookie });
          await expectMoneyHolds(true, adjusted);
          const matches = await t.database.db.select().from(leadMatches);
          for (const id of Object.values(cast))
            await expectBillsConsistent(
              t,
              admin.cookie,
              id,
              matches.filter((m) => m.buyerId === id && !m.rejected).map((m) => m.id),
            );
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    expect(await t.database.db.select().from(leads).limit(1)).toBeDefined();
  }, 600_000);
});

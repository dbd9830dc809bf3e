import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectBillsConsistent, startCaseInItsOwnYear } from '../../../test/bill-checks';
import { createBuyer, createCampaign, createSourceWithKey, postReturn, uniquePhone } from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { buyerSpend, leadMatches, prepayEntries } from '../../db/schema';
import { billsRepo } from './bills.repo';

/**
 * Issue 13, rule 7 under random sequences: a prepay buyer and a credit buyer buy through the engine
 * while deposits are topped up, sales are returned and billing runs close and draw bills. After every
 * step no prepay balance is below zero, no buyer has spent past its limit, and what the sales reserved
 * equals what the facts say (the recompute of every other path changes nothing). At the end every bill
 * adds up. Each case sells in two states of its own, so earlier cases' campaigns never compete.
 */
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
const DAY_MS = 86_400_000;
const RUNS = 10;
/** Two ZIPs of distinct states a case. */
const ZIPS = [
  '75201',
  '89101',
  '87101',
  '84101',
  '83702',
  '85004',
  '80202',
  '73102',
  '66603',
  '68508',
  '50309',
  '64106',
  '72201',
  '70112',
  '39201',
  '35203',
  '37203',
  '40202',
  '43215',
  '46204',
];

type Step =
  | { kind: 'post'; buyer: number }
  | { kind: 'topUp'; dollars: number }
  | { kind: 'return'; pick: number }
  | { kind: 'run' }
  | { kind: 'wait'; hours: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('post' as const), buyer: fc.nat(1) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('topUp' as const), dollars: fc.integer({ min: 1, max: 60 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('return' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('run' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('wait' as const), hours: fc.integer({ min: 1, max: 24 * 10 }) }),
  },
);

let apiKey = '';
beforeAll(async () => {
  ({ apiKey } = await createSourceWithKey(t, { maxCost: 1 }));
});

const spendOf = async (buyerId: string) =>
  (await t.database.db.select().from(buyerSpend).where(eq(buyerSpend.buyerId, buyerId)))[0];

const prepayBalance = async (buyerId: string) => {
  const [row] = await t.database.db
    .select({ cents: sql<number>`coalesce(sum(${prepayEntries.amountCents}), 0)`.mapWith(Number) })
    .from(prepayEntries)
    .where(eq(prepayEntries.buyerId, buyerId));
  return row?.cents ?? 0;
};

/** The limits hold, and the sales' running reservation equals the recompute from the facts. */
async function expectWithinLimits(buyerIds: string[], prepayId: string) {
  expect(await prepayBalance(prepayId), 'prepay balance').toBeGreaterThanOrEqual(0);
  for (const id of buyerIds) {
    const before = await spendOf(id);
    expect(before?.spentCents ?? 0, 'spent within the limit').toBeLessThanOrEqual(before?.limitCents ?? 0);
    await t.database.db.transaction((tx) => billsRepo.recomputeSpendOf(tx, id));
    expect(await spendOf(id), 'the sales reserved what the facts say').toEqual(before);
  }
}

describe('rule 7 under random sales, top-ups, returns and billing runs', () => {
  it('keeps every prepay balance at or above zero and every buyer within its limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 5, maxLength: 30 }),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 1, max: 80 }),
        fc.constantFrom<'weekly' | 'monthly'>('weekly', 'monthly'),
        async (steps, deposit, threshold, period) => {
          const n = startCaseInItsOwnYear(t);
          const zips = [ZIPS[2 * n], ZIPS[2 * n + 1]] as [string, string];
          const terms = [
            { pay: 'prepay', prepay: deposit, threshold: 0, price: 7 },
            { pay: 'credit', prepay: 0, threshold, price: 13 },
          ] as const;
          const buyerIds: string[] = [];
          for (const [i, term] of terms.entries()) {
            const buyer = await createBuyer(t);
            const saved = await t.request({
              method: 'PUT',
              url: `/api/buyer/${buyer._id}`,
              as: admin.cookie,
              payload: { bill: { pay: term.pay, prepay: term.prepay, period, grace: 3, threshold: term.threshold } },
            });
            expect(saved.statusCode, saved.body).toBe(200);
            const state = t.deps.engine.stateOf(zips[i] as string) as string;
            await createCampaign(t, buyer._id, { price: term.price, services: ['roofing'], states: [state] });
            buyerIds.push(buyer._id);
          }
          const [prepayId] = buyerIds as [string, string];
          let deposited = deposit;
          const sales: Array<{ leadId: string; matchId: string; buyer: number }> = [];

          for (const s of steps) {
            if (s.kind === 'wait') t.clock.advance(s.hours * 3_600_000);
            if (s.kind === 'run') {
              const run = await t.request({
                method: 'POST',
                url: '/api/sim/billing?doPayments=true',
                as: admin.cookie,
              });
              expect(run.statusCode).toBe(200);
            }
            if (s.kind === 'topUp') {
              deposited += s.dollars;
              const res = await t.request({
                method: 'PUT',
                url: `/api/buyer/${prepayId}`,
                as: admin.cookie,
                payload: { bill: { pay: 'prepay', prepay: deposited, period, grace: 3, threshold: 0 } },
              });
              expect(res.statusCode).toBe(200);
            }
            if (s.kind === 'post') {
              const res = await t.sourceApi('/api/lead', apiKey, {
                service: 'roofing',
                zip: zips[s.buyer],
                name: 'Prop Test',
                phone: uniquePhone(),
                tcpa_consent: 'true',
              });
              const body = res.json() as { ok: boolean; status?: string; lead_id: string };
              if (body.ok && body.status === 'sold') {
                const [match] = await t.database.db
                  .select({ id: leadMatches.id })
                  .from(leadMatches)
                  .where(eq(leadMatches.leadId, body.lead_id));
                sales.push({ leadId: body.lead_id, matchId: match?.id as string, buyer: s.buyer });
              }
            }
            if (s.kind === 'return' && sales.length > 0) {
              const sold = sales[s.pick % sales.length] as (typeof sales)[number];
              const res = await postReturn(t, admin.cookie, sold, { approve: true });
              expect([200, 409]).toContain(res.statusCode);
            }
            await expectWithinLimits(buyerIds, prepayId);
          }

          // The prepay buyer bought no more than its deposits cover.
          const prepaySold = sales.filter((s) => s.buyer === 0).length;
          expect(prepaySold * 700).toBeLessThanOrEqual(deposited * 100 + 700 * (await approvedCount(prepayId)));
          t.clock.advance(70 * DAY_MS);
          await t.request({ method: 'POST', url: '/api/sim/billing?doPayments=true', as: admin.cookie });
          await expectWithinLimits(buyerIds, prepayId);
          for (const [index, id] of buyerIds.entries())
            await expectBillsConsistent(
              t,
              admin.cookie,
              id,
              sales.filter((s) => s.buyer === index).map((s) => s.matchId),
            );
        },
      ),
      // A failure reports its case at once: shrinking a case of 30 HTTP steps would take minutes.
      { numRuns: RUNS, endOnFailure: true },
    );
  }, 300_000);
});

async function approvedCount(buyerId: string): Promise<number> {
  const [row] = await t.database.db
    .select({ n: sql<number>`count(*) filter (where ${leadMatches.returnStatus} = 'approved')`.mapWith(Number) })
    .from(leadMatches)
    .where(eq(leadMatches.buyerId, buyerId));
  return row?.n ?? 0;
}

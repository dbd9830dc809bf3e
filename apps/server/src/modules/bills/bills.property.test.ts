import { eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adjustOpenBill, expectBillsConsistent, startCaseInItsOwnYear } from '../../../test/bill-checks';
import {
  createBuyer,
  createCampaign,
  createSourceWithKey,
  insertSale,
  postReturn,
  saveBillTerms,
} from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { leadMatches } from '../../db/schema';

const { t, admin } = useAdminTestApp();
const DAY_MS = 86_400_000;

/** What a random day of the exchange may hold. */
type Step =
  | { kind: 'sale'; buyer: number; cents: number; undelivered: boolean }
  | { kind: 'approve'; pick: number }
  | { kind: 'deliver'; pick: number }
  | { kind: 'adjust'; buyer: number; credit: number; debit: number }
  | { kind: 'run' }
  | { kind: 'wait'; hours: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('sale' as const),
      buyer: fc.nat(1),
      cents: fc.integer({ min: 1, max: 50_000 }),
      undelivered: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('approve' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deliver' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('adjust' as const),
      buyer: fc.nat(1),
      credit: fc.integer({ min: 0, max: 10_000 }),
      debit: fc.integer({ min: 0, max: 10_000 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('run' as const) }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('wait' as const), hours: fc.integer({ min: 1, max: 24 * 12 }) }),
  },
);

describe('bills under random sequences of sales, returns, adjustments, deliveries and billing runs', () => {
  it('keep every sale on exactly one bill, periods back to back, and each net to the cent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 5, maxLength: 30 }),
        fc.constantFrom<'weekly' | 'monthly'>('weekly', 'monthly'),
        async (steps, period) => {
          startCaseInItsOwnYear(t);
          const { sourceId } = await createSourceWithKey(t);
          const buyers = await Promise.all(
            [0, 1].map(async () => {
              const buyer = await createBuyer(t);
              await saveBillTerms(t, admin.cookie, buyer._id, { period, grace: 3 });
              return { id: buyer._id, campaignId: await createCampaign(t, buyer._id, { status: 'draft' }) };
            }),
          );
          const sales: Array<{ leadId: string; matchId: string; buyer: number }> = [];
          const undelivered: string[] = [];

          for (const s of steps) {
            if (s.kind === 'wait') t.clock.advance(s.hours * 3_600_000);
            if (s.kind === 'run') await t.request({ method: 'POST', url: '/api/sim/billing', as: admin.cookie });
            if (s.kind === 'sale') {
              const b = buyers[s.buyer] as (typeof buyers)[number];
              const sold = await insertSale(
                t,
                b.id,
                b.campaignId,
                sourceId,
                t.clock.now().toISOString(),
                s.cents / 100,
                {
                  undelivered: s.undelivered,
                },
              );
              sales.push({ ...sold, buyer: s.buyer });
              if (s.undelivered) undelivered.push(sold.matchId);
            }
            if (s.kind === 'approve' && sales.length > 0) {
              const sold = sales[s.pick % sales.length] as (typeof sales)[number];
              const res = await postReturn(t, admin.cookie, sold, { approve: true });
              // Refused only for a reason: already decided, or its bill is closed.
              expect([200, 409]).toContain(res.statusCode);
            }
            if (s.kind === 'deliver' && undelivered.length > 0) {
              const matchId = undelivered.splice(s.pick % undelivered.length, 1)[0] as string;
              await t.database.db
                .update(leadMatches)
                .set({ deliveryStatus: 'delivered' })
                .where(eq(leadMatches.id, matchId));
            }
            if (s.kind === 'adjust') {
              const b = buyers[s.buyer] as (typeof buyers)[number];
              await adjustOpenBill(t, admin.cookie, b.id, s);
            }
          }

          // Deliver what is left, then run far enough ahead that every bill with a sale has rolled and closed.
          if (undelivered.length > 0)
            await t.database.db
              .update(leadMatches)
              .set({ deliveryStatus: 'delivered' })
              .where(inArray(leadMatches.id, undelivered));
          t.clock.advance(70 * DAY_MS);
          await t.request({ method: 'POST', url: '/api/sim/billing', as: admin.cookie });

          for (const [index, b] of buyers.entries())
            await expectBillsConsistent(
              t,
              admin.cookie,
              b.id,
              sales.filter((s) => s.buyer === index).map((s) => s.matchId),
            );
        },
      ),
      // A failure reports its case at once: shrinking a case of 30 HTTP steps would take minutes.
      { numRuns: 12, endOnFailure: true },
    );
  }, 240_000);
});

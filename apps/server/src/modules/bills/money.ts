import type { BillPeriod } from '@leadex/domain';
import { periodStart } from '../../lib/time';
import type { BillTotals } from './bills.repo';

/**
 * The money rules that need no database (issue 30): how an amount is split into parts, a bill's
 * period, its net, a buyer's auto-approve share of returns and the return window. Pure functions of
 * integer cents and instants; the services call them, the unit tests and the mutation run hold them.
 */

const DAY_MS = 86_400_000;

/**
 * Splits `totalCents` into one part per weight, in proportion to the weights, by the largest
 * remainder: each part gets the whole cents of its exact share, and the cents left over go one each
 * to the parts with the largest fractions, the earlier part first on a tie. The parts always add up
 * to the total (a per-part round() of 500 in three charged 501). A negative total splits as its
 * opposite, negated. Weights are whole numbers (cents, counts) at or above 0, at least one above 0.
 */
export function splitCents(totalCents: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(totalCents))
    throw new RangeError(`cannot split ${totalCents}: not a whole number of cents`);
  if (weights.some((w) => !Number.isSafeInteger(w) || w < 0))
    throw new RangeError('the weights of a split must be whole numbers at or above 0');
  const whole = weights.reduce((a, w) => a + BigInt(w), 0n);
  if (whole === 0n) throw new RangeError('a split needs at least one weight above 0');
  const sign = totalCents < 0 ? -1 : 1;
  const amount = BigInt(Math.abs(totalCents));
  // Exact integer arithmetic: amount × weight can pass 2^53 for large amounts.
  const exact = weights.map((w) => amount * BigInt(w));
  const parts = exact.map((e) => e / whole);
  let left = amount - parts.reduce((a, p) => a + p, 0n);
  // Largest remainder first; sort() is stable, so equal remainders keep the parts' order.
  const byRemainder = exact
    .map((e, index) => ({ index, remainder: e % whole }))
    .sort((a, b) => (b.remainder > a.remainder ? 1 : b.remainder < a.remainder ? -1 : 0));
  for (const { index } of byRemainder) {
    if (left === 0n) break;
    parts[index] = (parts[index] as bigint) + 1n;
    left -= 1n;
  }
  return parts.map((p) => sign * Number(p));
}

/**
 * The billing period of `period` containing `now` in `zone` (weeks from Monday, months from the 1st, at
 * local midnight): its first instant and the first instant of the next one.
 */
export function billingPeriodIn(period: BillPeriod, zone: string, now: Date): { start: Date; next: Date } {
  const unit = period === 'weekly' ? 'weekly' : 'monthly';
  const start = periodStart(unit, zone, now);
  // A day past the longest period lands inside the next one, whatever DST did in between.
  const inNext = new Date(start.getTime() + (period === 'weekly' ? 8 : 32) * DAY_MS);
  return { start, next: periodStart(unit, zone, inNext) };
}

/** Net = charges - approved returns - credits + debits, in cents (DESIGN.md §7). */
export const netCents = (t: BillTotals): number => t.chargesCents - t.returnsCents - t.creditsCents + t.debitsCents;

/**
 * Whether one more return may be approved without an admin: the buyer's auto-approve share (0 to 1)
 * of its `leads` on the bill must cover `approved` + 1 returns. The share is read as whole basis
 * points, so 29 % of 100 leads allows 29 (0.29 × 100 is 28.999999999999996 in floating point).
 */
export function autoApproveAllows(share: number, approved: number, leads: number): boolean {
  return (approved + 1) * 10_000 <= Math.round(share * 10_000) * leads;
}

/** Whether a sale made at `soldAt` may still be returned at `now`: up to `days` after it, to the millisecond. */
export function withinReturnWindow(soldAt: Date, now: Date, days: number): boolean {
  return now.getTime() <= soldAt.getTime() + days * DAY_MS;
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autoApproveAllows, billingPeriodIn, netCents, splitCents, withinReturnWindow } from './money';

/**
 * The money rules that need no database (money.ts). No app, no database: Stryker runs this file for
 * each mutant of money.ts (vitest.mutation.config.ts).
 */
const NY = 'America/New_York';
const at = (iso: string) => new Date(iso);
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const sum = (parts: number[]) => parts.reduce((a, b) => a + b, 0);

describe('splitCents: an amount split by weights with the largest remainder', () => {
  it('splits 500 cents in three equal parts as 167 + 167 + 166, never 501 (issue 30)', () => {
    expect(splitCents(500, [4000, 4000, 4000])).toEqual([167, 167, 166]);
    expect(splitCents(500, [1, 1, 1])).toEqual([167, 167, 166]);
  });

  it('gives the left-over cents to the earliest parts on a tie', () => {
    expect(splitCents(1, [1, 1, 1])).toEqual([1, 0, 0]);
    expect(splitCents(2, [1, 1, 1])).toEqual([1, 1, 0]);
    expect(splitCents(5, [2, 2, 2, 2])).toEqual([2, 1, 1, 1]);
  });

  it('gives the left-over cents to the largest fractions, wherever they stand', () => {
    // 33.33 and 66.67: the second part has the larger fraction.
    expect(splitCents(100, [1, 2])).toEqual([33, 67]);
    // 500, 333.33, 166.67 of a lead sold at 30, 20 and 10 dollars.
    expect(splitCents(1000, [3000, 2000, 1000])).toEqual([500, 333, 167]);
    // 1.4, 1.6, 2.0 (fractions .4, .6, 0): the one cent left goes to the .6.
    expect(splitCents(5, [7, 8, 10])).toEqual([1, 2, 2]);
    // 0.83, 1.67, 2.5 and 5: the two cents left go to the .83 and the .67, not the .5.
    expect(splitCents(10, [1, 2, 3, 6])).toEqual([1, 2, 2, 5]);
  });

  it('splits nothing as nothing and an even amount evenly', () => {
    expect(splitCents(0, [1, 2, 3])).toEqual([0, 0, 0]);
    expect(splitCents(900, [1, 1, 1])).toEqual([300, 300, 300]);
    expect(splitCents(7, [5])).toEqual([7]);
  });

  it('gives a part of weight 0 nothing, even a left-over cent', () => {
    expect(splitCents(100, [0, 1])).toEqual([0, 100]);
    expect(splitCents(1, [0, 1, 1])).toEqual([0, 1, 0]);
  });

  it('splits a negative amount as its opposite, negated', () => {
    expect(splitCents(-500, [1, 1, 1])).toEqual([-167, -167, -166]);
    expect(splitCents(-100, [1, 2])).toEqual([-33, -67]);
  });

  it('is exact past 2^53 in the products (BigInt arithmetic)', () => {
    const max = Number.MAX_SAFE_INTEGER; // 9007199254740991
    expect(splitCents(max, [1, 1])).toEqual([4503599627370496, 4503599627370495]);
    expect(sum(splitCents(max, [max, 3, max]))).toBe(max);
  });

  it('refuses what cannot be split into cents', () => {
    expect(() => splitCents(1.5, [1, 1])).toThrow(RangeError);
    expect(() => splitCents(Number.NaN, [1])).toThrow('not a whole number of cents');
    expect(() => splitCents(100, [1, -1])).toThrow('whole numbers at or above 0');
    expect(() => splitCents(100, [1, 0.5])).toThrow('whole numbers at or above 0');
    expect(() => splitCents(100, [0, 0])).toThrow('at least one weight above 0');
    expect(() => splitCents(100, [])).toThrow('at least one weight above 0');
  });

  it('always adds up to the whole, each part within a cent of its exact share (random amounts and weights)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 8 }),
        (total, weights) => {
          fc.pre(weights.some((w) => w > 0));
          const parts = splitCents(total, weights);
          const whole = sum(weights);
          expect(parts).toHaveLength(weights.length);
          expect(sum(parts)).toBe(total);
          for (const [i, part] of parts.entries()) {
            const exact = (total * (weights[i] as number)) / whole;
            expect(Number.isInteger(part)).toBe(true);
            expect(Math.abs(part - exact)).toBeLessThan(1);
          }
        },
      ),
      { seed: 30, numRuns: 500 },
    );
  });
});

describe('billingPeriodIn: bill periods in the exchange zone', () => {
  it('runs a week from Monday midnight to the next Monday midnight', () => {
    const p = billingPeriodIn('weekly', NY, at('2026-06-10T15:00:00Z'));
    expect(p.start.toISOString()).toBe('2026-06-08T04:00:00.000Z');
    expect(p.next.toISOString()).toBe('2026-06-15T04:00:00.000Z');
  });

  it('is one hour shorter the week of the spring change (2026-03-08) and starts each side on local midnight', () => {
    const p = billingPeriodIn('weekly', NY, at('2026-03-08T12:00:00Z'));
    expect(p.start.toISOString()).toBe('2026-03-02T05:00:00.000Z');
    expect(p.next.toISOString()).toBe('2026-03-09T04:00:00.000Z');
    expect(p.next.getTime() - p.start.getTime()).toBe(7 * DAY_MS - HOUR_MS);
  });

  it('is one hour longer the week of the fall change (the first Sunday of November, 2026-11-01)', () => {
    const p = billingPeriodIn('weekly', NY, at('2026-11-01T06:30:00Z')); // 01:30 EST, the second one
    expect(p.start.toISOString()).toBe('2026-10-26T04:00:00.000Z');
    expect(p.next.toISOString()).toBe('2026-11-02T05:00:00.000Z');
    expect(p.next.getTime() - p.start.getTime()).toBe(7 * DAY_MS + HOUR_MS);
  });

  it('takes its start instant and leaves its end instant to the next period', () => {
    const start = at('2026-11-02T05:00:00Z');
    expect(billingPeriodIn('weekly', NY, start).start).toEqual(start);
    expect(billingPeriodIn('weekly', NY, new Date(start.getTime() - 1)).next).toEqual(start);
    expect(billingPeriodIn('weekly', NY, new Date(start.getTime() - 1)).start.toISOString()).toBe(
      '2026-10-26T04:00:00.000Z',
    );
  });

  it('runs a month from the 1st to the 1st, across both daylight-saving changes and February', () => {
    const nov = billingPeriodIn('monthly', NY, at('2026-11-15T12:00:00Z'));
    expect([nov.start.toISOString(), nov.next.toISOString()]).toEqual([
      '2026-11-01T04:00:00.000Z',
      '2026-12-01T05:00:00.000Z',
    ]);
    const mar = billingPeriodIn('monthly', NY, at('2026-03-31T23:00:00Z'));
    expect([mar.start.toISOString(), mar.next.toISOString()]).toEqual([
      '2026-03-01T05:00:00.000Z',
      '2026-04-01T04:00:00.000Z',
    ]);
    const feb = billingPeriodIn('monthly', NY, at('2028-02-29T12:00:00Z'));
    expect([feb.start.toISOString(), feb.next.toISOString()]).toEqual([
      '2028-02-01T05:00:00.000Z',
      '2028-03-01T05:00:00.000Z',
    ]);
    // Before midnight in New York on the last evening of January is still January, though UTC is in February.
    expect(billingPeriodIn('monthly', NY, at('2027-02-01T04:59:59Z')).start.toISOString()).toBe(
      '2027-01-01T05:00:00.000Z',
    );
  });

  it('counts in the zone it is given', () => {
    const p = billingPeriodIn('monthly', 'UTC', at('2026-11-15T12:00:00Z'));
    expect([p.start.toISOString(), p.next.toISOString()]).toEqual([
      '2026-11-01T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
    ]);
  });

  it('holds every instant in exactly one period, periods back to back (random instants, 2026 to 2040)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2040, 0, 1) }),
        fc.constantFrom('weekly' as const, 'monthly' as const),
        (ms, period) => {
          const now = new Date(ms);
          const { start, next } = billingPeriodIn(period, NY, now);
          expect(start.getTime()).toBeLessThanOrEqual(ms);
          expect(next.getTime()).toBeGreaterThan(ms);
          expect(billingPeriodIn(period, NY, next).start).toEqual(next);
          expect(billingPeriodIn(period, NY, new Date(next.getTime() - 1)).start).toEqual(start);
          const length = next.getTime() - start.getTime();
          if (period === 'weekly') expect([7 * DAY_MS - HOUR_MS, 7 * DAY_MS, 7 * DAY_MS + HOUR_MS]).toContain(length);
          else expect(length).toBeGreaterThanOrEqual(28 * DAY_MS - HOUR_MS);
        },
      ),
      { seed: 30, numRuns: 300 },
    );
  });
});

describe('netCents', () => {
  it('is charges - approved returns - credits + debits', () => {
    expect(netCents({ chargesCents: 10_000, returnsCents: 2_500, creditsCents: 300, debitsCents: 700 })).toBe(7_900);
    expect(netCents({ chargesCents: 0, returnsCents: 0, creditsCents: 1_000, debitsCents: 0 })).toBe(-1_000);
  });
});

describe('autoApproveAllows: the auto-approve share of a bill', () => {
  it('allows returns up to the share of the leads, and not one more', () => {
    expect(autoApproveAllows(0.1, 0, 10)).toBe(true);
    expect(autoApproveAllows(0.1, 1, 10)).toBe(false);
    expect(autoApproveAllows(0.5, 1, 4)).toBe(true);
    expect(autoApproveAllows(0.5, 2, 4)).toBe(false);
    expect(autoApproveAllows(1, 0, 1)).toBe(true);
    expect(autoApproveAllows(1, 1, 1)).toBe(false);
  });

  it('allows none with a share of 0 or no leads', () => {
    expect(autoApproveAllows(0, 0, 100)).toBe(false);
    expect(autoApproveAllows(0.5, 0, 0)).toBe(false);
    expect(autoApproveAllows(0.05, 0, 10)).toBe(false); // half a return: none
  });

  it('allows 29 of 100 at 29 % (0.29 × 100 is 28.999999999999996 in floating point)', () => {
    expect(autoApproveAllows(0.29, 28, 100)).toBe(true);
    expect(autoApproveAllows(0.29, 29, 100)).toBe(false);
    expect(autoApproveAllows(0.57, 56, 100)).toBe(true);
    // The column is a real (float4): 0.29 as it may come back.
    expect(autoApproveAllows(Math.fround(0.29), 28, 100)).toBe(true);
  });
});

describe('withinReturnWindow', () => {
  it('allows a return up to the window, to the millisecond', () => {
    const sold = at('2026-11-01T05:30:00Z');
    expect(withinReturnWindow(sold, new Date(sold.getTime() + 7 * DAY_MS), 7)).toBe(true);
    expect(withinReturnWindow(sold, new Date(sold.getTime() + 7 * DAY_MS + 1), 7)).toBe(false);
    expect(withinReturnWindow(sold, sold, 0)).toBe(true);
  });
});

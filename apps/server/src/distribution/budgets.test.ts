import { describe, expect, it } from 'vitest';
import { indexedCampaign } from '../../test/engine-fixtures';
import { budgetFailure, budgetSlots, MemoryBudgetSpend } from './budgets';
import type { IndexedCampaign } from './types';

// Pure unit tests of the budget windows (the counters' SQL is exercised by budget.test.ts).
const LA = { zone: 'America/Los_Angeles', weekday: { start: 0, end: 24 }, weekend: { start: 0, end: 24 } };

const campaign = (overrides: Partial<IndexedCampaign> = {}) =>
  indexedCampaign({ priceCents: 2500, states: new Set(['CA']), time: LA, ...overrides });

/** The spend after one sale of `c` at `price` at `at`. */
function spentAt(c: IndexedCampaign, price: number, at: Date) {
  const spend = new MemoryBudgetSpend();
  spend.add(budgetSlots(c, price, at));
  return spend;
}

describe('budget windows in the campaign zone', () => {
  it('has no slot for an empty or 0 budget', () => {
    expect(budgetSlots(campaign({ budgets: { daily: null, weekly: 0 } }), 2500, new Date())).toEqual([]);
  });

  it('starts a week on Monday 00:00 in the zone, not before', () => {
    const c = campaign({ budgets: { weekly: 2500 } });
    // Sunday 2026-03-08 23:59:59 in Los Angeles (PDT from 02:00 that day: UTC-7).
    const sunday = new Date('2026-03-09T06:59:59Z');
    const spend = spentAt(c, 2500, sunday);
    expect(budgetFailure(c, 2500, spend, sunday)).toBe('Weekly budget of $25.00 reached');
    expect(budgetFailure(c, 2500, spend, new Date('2026-03-09T07:00:00Z'))).toBeNull();
  });

  it('starts a month on the 1st 00:00 in the zone, not before', () => {
    const c = campaign({ budgets: { monthly: 150_000 } });
    const lastMinute = new Date('2026-04-01T06:59:00Z'); // March 31, 23:59 in Los Angeles
    const spend = spentAt(c, 150_000, lastMinute);
    expect(budgetFailure(c, 1, spend, lastMinute)).toBe('Monthly budget of $1,500.00 reached');
    expect(budgetFailure(c, 1, spend, new Date('2026-04-01T07:00:00Z'))).toBeNull();
  });

  it('allows a sale that reaches the budget exactly, not one cent over', () => {
    const c = campaign({ budgets: { daily: 5000 } });
    const at = new Date('2026-03-10T18:00:00Z');
    const spend = spentAt(c, 2500, at);
    expect(budgetFailure(c, 2500, spend, at)).toBeNull();
    expect(budgetFailure(c, 2501, spend, at)).toBe('Daily budget of $50.00 reached');
  });

  it("counts a buyer's daily budget in the exchange zone, across its campaigns", () => {
    const at = new Date('2026-03-10T18:00:00Z');
    const a = campaign({ id: 'cmp_a', buyerDailyBudgetCents: 6000 });
    const b = campaign({ id: 'cmp_b', buyerDailyBudgetCents: 6000, time: null });
    const spend = spentAt(a, 2500, at);
    spend.add(budgetSlots(b, 2500, at));
    expect(budgetFailure(a, 1000, spend, at)).toBeNull();
    expect(budgetFailure(b, 1001, spend, at)).toBe("Buyer's daily budget of $60.00 reached");
    // Midnight in New York (04:00Z in March, EDT) starts a new day for the buyer.
    expect(budgetFailure(b, 1001, spend, new Date('2026-03-11T04:00:00Z'))).toBeNull();
    expect(budgetFailure(b, 1001, spend, new Date('2026-03-11T03:59:59Z'))).not.toBeNull();
  });
});

import { and, gte, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { budgetCounters } from '../db/schema';
import { exchangeZone } from '../lib/exchange-zone';
import { currentPeriods } from '../lib/time';
import type { IndexedCampaign } from './types';

/** A campaign's budget periods (issue 33), counted like its lead caps. */
export const BUDGET_PERIODS = ['daily', 'weekly', 'monthly'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];
/** A counter's period: a campaign's budget periods, or the buyer's daily budget across its campaigns. */
export type BudgetCounterPeriod = BudgetPeriod | 'buyer_daily';

/** A campaign's budgets count in its zone, like its lead caps (caps.ts). */
const campaignZone = (c: IndexedCampaign): string => c.time?.zone ?? exchangeZone();
/**
 * A buyer has no zone of its own and its campaigns may each have one: its daily budget counts in the
 * exchange's zone, as a buyer's "Today" does (docs/decisions.md "Budget caps in dollars").
 */
const buyerZone = (): string => exchangeZone();

/** Only a positive amount is a budget: empty (null) is none, and 0 is read as none like a lead cap's 0. */
const isSet = (cents: number | null | undefined): cents is number => typeof cents === 'number' && cents > 0;

/** Whether the campaign or its buyer has any budget, so its spend is worth reading. */
export function hasBudget(c: IndexedCampaign): boolean {
  return BUDGET_PERIODS.some((p) => isSet(c.budgets?.[p])) || isSet(c.buyerDailyBudgetCents);
}

/** One budget counter a sale raises by its price, and the budget it may not pass. */
export interface BudgetSlot {
  ownerId: string;
  period: BudgetCounterPeriod;
  periodStart: Date;
  limitCents: number;
  amountCents: number;
}

/**
 * The budget counters a sale of this campaign at this price raises (one per set budget, the buyer's
 * included). The raise is a conditional `… DO UPDATE SET spent = spent + price WHERE spent + price
 * <= budget` in the sale's statement (sale.repo.ts), which concurrent sales on any number of
 * processes cannot push past the budget, like a lead cap.
 */
export function budgetSlots(c: IndexedCampaign, priceCents: number, now: Date): BudgetSlot[] {
  const slots: BudgetSlot[] = [];
  if (BUDGET_PERIODS.some((p) => isSet(c.budgets?.[p]))) {
    const starts = currentPeriods(campaignZone(c), now);
    for (const period of BUDGET_PERIODS) {
      const limit = c.budgets?.[period];
      if (isSet(limit))
        slots.push({ ownerId: c.id, period, periodStart: starts[period], limitCents: limit, amountCents: priceCents });
    }
  }
  if (isSet(c.buyerDailyBudgetCents))
    slots.push({
      ownerId: c.buyerId,
      period: 'buyer_daily',
      periodStart: currentPeriods(buyerZone(), now).daily,
      limitCents: c.buyerDailyBudgetCents,
      amountCents: priceCents,
    });
  return slots;
}

/** Orders slots by owner then period, so concurrent sales lock counter rows in one order and never deadlock. */
export function budgetLockOrder(slots: BudgetSlot[]): BudgetSlot[] {
  return [...slots].sort((a, b) =>
    a.ownerId === b.ownerId ? a.period.localeCompare(b.period) : a.ownerId < b.ownerId ? -1 : 1,
  );
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** "$1,500.00": a budget as the explanation names it. */
export const formatBudget = (cents: number): string => usd.format(cents / 100);

const LABEL: Record<BudgetCounterPeriod, string> = {
  daily: 'Daily budget',
  weekly: 'Weekly budget',
  monthly: 'Monthly budget',
  buyer_daily: "Buyer's daily budget",
};

/** "Daily budget of $500.00 reached": why a campaign was left out by a budget. */
export const budgetReached = (period: BudgetCounterPeriod, limitCents: number): string =>
  `${LABEL[period]} of ${formatBudget(limitCents)} reached`;

/** Cents spent in the current periods, by owner (campaign or buyer) then period. */
export interface BudgetSpend {
  spent(ownerId: string, period: BudgetCounterPeriod, periodStart: Date): number;
}

/** The first budget a sale at this price would pass, as the explanation's detail; null when every budget allows it. */
export function budgetFailure(c: IndexedCampaign, priceCents: number, spend: BudgetSpend, now: Date): string | null {
  for (const slot of budgetSlots(c, priceCents, now)) {
    // Reaching a budget exactly is allowed; one cent over is not.
    if (spend.spent(slot.ownerId, slot.period, slot.periodStart) + priceCents > slot.limitCents)
      return budgetReached(slot.period, slot.limitCents);
  }
  return null;
}

const key = (ownerId: string, period: string, periodStart: Date) => `${ownerId}|${period}|${periodStart.getTime()}`;

/**
 * Spend held in memory for the ping path, read from the database at every engine refresh. It only
 * spares the sale an auction the database would refuse: the sale's statement is what enforces a budget.
 */
export class MemoryBudgetSpend implements BudgetSpend {
  private readonly cents = new Map<string, number>();

  spent(ownerId: string, period: BudgetCounterPeriod, periodStart: Date): number {
    return this.cents.get(key(ownerId, period, periodStart)) ?? 0;
  }

  /** Counts a sale made by this process (other processes' sales arrive with the next read). */
  add(slots: readonly BudgetSlot[]): void {
    for (const s of slots) {
      const k = key(s.ownerId, s.period, s.periodStart);
      this.cents.set(k, (this.cents.get(k) ?? 0) + s.amountCents);
    }
  }

  /** The spend of these owners (campaigns and buyers) in the periods not older than a month. */
  static async read(db: Db, ownerIds: readonly string[], now: Date): Promise<MemoryBudgetSpend> {
    const memory = new MemoryBudgetSpend();
    if (ownerIds.length === 0) return memory;
    for (const row of await readBudgetCounters(db, ownerIds, now))
      memory.cents.set(key(row.ownerId, row.period, row.periodStart), row.spentCents);
    return memory;
  }
}

/** The counters of these owners whose periods started within the last 32 days (every current period). */
export async function readBudgetCounters(db: Db, ownerIds: readonly string[], now: Date) {
  if (ownerIds.length === 0) return [];
  return db
    .select()
    .from(budgetCounters)
    .where(
      and(
        inArray(budgetCounters.ownerId, [...ownerIds]),
        gte(budgetCounters.periodStart, new Date(now.getTime() - 32 * 86_400_000)),
      ),
    );
}

/** What a campaign and its buyer spent in the current periods, for the screens (dollars are the caller's). */
export async function spentNow(
  db: Db,
  c: IndexedCampaign | { id: string; buyerId: string; zone: string | null },
  now: Date,
): Promise<{ daily: number; weekly: number; monthly: number; buyerDaily: number }> {
  const zone = 'zone' in c ? (c.zone ?? exchangeZone()) : campaignZone(c);
  const starts = currentPeriods(zone, now);
  const buyerStart = currentPeriods(buyerZone(), now).daily;
  const memory = await MemoryBudgetSpend.read(db, [c.id, c.buyerId], now);
  return {
    daily: memory.spent(c.id, 'daily', starts.daily),
    weekly: memory.spent(c.id, 'weekly', starts.weekly),
    monthly: memory.spent(c.id, 'monthly', starts.monthly),
    buyerDaily: memory.spent(c.buyerId, 'buyer_daily', buyerStart),
  };
}

/** What a buyer spent today against its daily budget. */
export async function buyerSpentToday(db: Db, buyerId: string, now: Date): Promise<number> {
  const memory = await MemoryBudgetSpend.read(db, [buyerId], now);
  return memory.spent(buyerId, 'buyer_daily', currentPeriods(buyerZone(), now).daily);
}

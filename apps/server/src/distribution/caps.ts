import { and, gte, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { capCounters } from '../db/schema';
import { exchangeZone } from '../lib/exchange-zone';
import { currentPeriods } from '../lib/time';
import { CAP_PERIODS, type CapCounts, type CapPeriod, type IndexedCampaign } from './types';

/** Caps of a campaign without hours are counted in the exchange's zone (docs/decisions.md "One clock"). */
const zoneOf = (c: IndexedCampaign): string => c.time?.zone ?? exchangeZone();

/** The caps a campaign actually has: an empty cap, or 0, means no cap (DESIGN.md §5 rule 5). */
export function setCaps(c: IndexedCampaign): [CapPeriod, number][] {
  return CAP_PERIODS.flatMap((p) => {
    const limit = c.caps[p];
    return limit && limit > 0 ? [[p, limit] as [CapPeriod, number]] : [];
  });
}

/** One cap slot a sale takes: the campaign's counter of one period, and its limit. */
export interface CapSlot {
  campaignId: string;
  period: CapPeriod;
  periodStart: Date;
  limit: number;
}

/**
 * The counters a sale to this campaign increments (one per set cap), in the campaign's zone. The
 * increment itself is a conditional `… DO UPDATE SET n = n + 1 WHERE n < cap` in the sale's
 * statement (distribution/sale.repo.ts), which no number of concurrent posts on any
 * number of processes can push past the cap.
 */
export function capSlots(c: IndexedCampaign, now: Date): CapSlot[] {
  const caps = setCaps(c);
  if (caps.length === 0) return [];
  const starts = currentPeriods(zoneOf(c), now);
  return caps.map(([period, limit]) => ({ campaignId: c.id, period, periodStart: starts[period], limit }));
}

/**
 * Orders slots by campaign and period, so that concurrent sales lock counter rows in the same order
 * and never deadlock on each other.
 */
export function lockOrder(slots: CapSlot[]): CapSlot[] {
  return [...slots].sort((a, b) =>
    a.campaignId === b.campaignId ? a.period.localeCompare(b.period) : a.campaignId < b.campaignId ? -1 : 1,
  );
}

type Counted = Partial<Record<CapPeriod, { start: number; n: number }>>;

/**
 * Cap counts held in memory for the ping path. Each count remembers the period it belongs to, so
 * at midnight (or the top of the hour) in a campaign's zone an old count stops applying at once,
 * not at the next refresh.
 */
export class MemoryCapCounts implements CapCounts {
  /** One entry per capped campaign, each with at most its four periods; the engine reads a new one every second. */
  private readonly counts = new Map<string, { zone: string; periods: Counted }>();

  constructor(private readonly now: () => Date) {}

  get(campaignId: string): Partial<Record<CapPeriod, number>> | undefined {
    const entry = this.counts.get(campaignId);
    if (!entry) return undefined;
    const starts = currentPeriods(entry.zone, this.now());
    const current: Partial<Record<CapPeriod, number>> = {};
    for (const [period, count] of Object.entries(entry.periods) as [CapPeriod, { start: number; n: number }][]) {
      if (count.start === starts[period].getTime()) current[period] = count.n;
    }
    return current;
  }

  /** Counts one sale made by this process (other processes' sales arrive with the next read). */
  increment(c: IndexedCampaign, at: Date): void {
    const zone = zoneOf(c);
    const starts = currentPeriods(zone, at);
    const entry = this.counts.get(c.id) ?? { zone, periods: {} };
    for (const [period] of setCaps(c)) {
      const start = starts[period].getTime();
      const count = entry.periods[period];
      entry.periods[period] = count?.start === start ? { start, n: count.n + 1 } : { start, n: 1 };
    }
    this.counts.set(c.id, entry);
  }

  /** Replaces every count with what the database holds now. */
  static async read(db: Db, capped: readonly IndexedCampaign[], now: () => Date): Promise<MemoryCapCounts> {
    const memory = new MemoryCapCounts(now);
    if (capped.length === 0) return memory;
    const at = now();
    // A month back covers every current period; rows of older periods are ignored below.
    const since = new Date(at.getTime() - 32 * 86_400_000);
    const rows = await db
      .select()
      .from(capCounters)
      .where(
        and(
          inArray(
            capCounters.campaignId,
            capped.map((c) => c.id),
          ),
          gte(capCounters.periodStart, since),
        ),
      );
    const byId = new Map(capped.map((c) => [c.id, { zone: zoneOf(c), starts: currentPeriods(zoneOf(c), at) }]));
    for (const row of rows) {
      const campaign = byId.get(row.campaignId);
      const period = row.period as CapPeriod;
      if (!campaign || campaign.starts[period].getTime() !== row.periodStart.getTime()) continue;
      const entry = memory.counts.get(row.campaignId) ?? { zone: campaign.zone, periods: {} };
      entry.periods[period] = { start: row.periodStart.getTime(), n: row.n };
      memory.counts.set(row.campaignId, entry);
    }
    return memory;
  }
}

export type { CapCounts };

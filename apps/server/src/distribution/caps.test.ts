import { DEFAULT_EXCHANGE_ZONE as DEFAULT_ZONE } from '@leadex/domain';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { indexedCampaign as campaign } from '../../test/engine-fixtures';
import type { Db } from '../db/client';
import { currentPeriods } from '../lib/time';
import { type CapSlot, capSlots, lockOrder, MemoryCapCounts, setCaps } from './caps';

// Pure unit tests (no database): the counters' SQL is exercised by the PGlite tests of the sale.

// Thursday 2026-01-15 10:30 in New York, 07:30 in Los Angeles.
const NOW = new Date('2026-01-15T15:30:00Z');
const LA = { zone: 'America/Los_Angeles', weekday: { start: 0, end: 24 }, weekend: { start: 0, end: 24 } };

describe('setCaps', () => {
  it('lists the set caps in period order, skipping empty, zero and negative ones', () => {
    expect(setCaps(campaign({ caps: { monthly: 100, hourly: 5, daily: null, weekly: 0 } }))).toEqual([
      ['hourly', 5],
      ['monthly', 100],
    ]);
    expect(setCaps(campaign({ caps: { daily: 1, weekly: -1 } }))).toEqual([['daily', 1]]);
    expect(setCaps(campaign({ caps: {} }))).toEqual([]);
  });
});

describe('capSlots', () => {
  it('is empty for a campaign without caps', () => {
    expect(capSlots(campaign({ caps: { daily: 0 } }), NOW)).toEqual([]);
  });

  it('gives one slot per set cap, starting at the period start in the campaign zone', () => {
    const starts = currentPeriods('America/Los_Angeles', NOW);
    expect(capSlots(campaign({ id: 'cmp_la', time: LA, caps: { daily: 3, monthly: 50 } }), NOW)).toEqual([
      { campaignId: 'cmp_la', period: 'daily', periodStart: starts.daily, limit: 3 },
      { campaignId: 'cmp_la', period: 'monthly', periodStart: starts.monthly, limit: 50 },
    ]);
    expect(starts.daily.toISOString()).toBe('2026-01-15T08:00:00.000Z');
  });

  it('counts a campaign without hours in the exchange home zone (New York)', () => {
    expect(DEFAULT_ZONE).toBe('America/New_York');
    const [slot] = capSlots(campaign({ caps: { daily: 3 } }), NOW);
    expect(slot?.periodStart.toISOString()).toBe('2026-01-15T05:00:00.000Z');
  });
});

describe('lockOrder', () => {
  const slot = (campaignId: string, period: CapSlot['period']): CapSlot => ({
    campaignId,
    period,
    periodStart: NOW,
    limit: 1,
  });

  it('orders by campaign id, then by period name, without touching its input', () => {
    const input = [slot('cmp_b', 'daily'), slot('cmp_a', 'weekly'), slot('cmp_a', 'daily'), slot('cmp_b', 'hourly')];
    const copy = [...input];
    expect(lockOrder(input).map((s) => `${s.campaignId}/${s.period}`)).toEqual([
      'cmp_a/daily',
      'cmp_a/weekly',
      'cmp_b/daily',
      'cmp_b/hourly',
    ]);
    expect(input).toEqual(copy);
  });

  it('gives the same order whichever order the slots come in', () => {
    const a = [slot('cmp_a', 'monthly'), slot('cmp_c', 'daily'), slot('cmp_b', 'daily')];
    const expected = ['cmp_a/monthly', 'cmp_b/daily', 'cmp_c/daily'];
    expect(lockOrder(a).map((s) => `${s.campaignId}/${s.period}`)).toEqual(expected);
    expect(lockOrder([...a].reverse()).map((s) => `${s.campaignId}/${s.period}`)).toEqual(expected);
  });
});

describe('MemoryCapCounts', () => {
  it('knows nothing of a campaign that never sold', () => {
    expect(new MemoryCapCounts(() => NOW).get('cmp_1')).toBeUndefined();
  });

  it('counts each sale in every set cap, and only in set caps', () => {
    const memory = new MemoryCapCounts(() => NOW);
    const c = campaign({ caps: { hourly: 5, daily: 10 } });
    memory.increment(c, NOW);
    memory.increment(c, NOW);
    expect(memory.get('cmp_1')).toEqual({ hourly: 2, daily: 2 });
    expect(memory.get('cmp_2')).toBeUndefined();
  });

  it('drops a count when its period ends, and starts the new period at one', () => {
    let now = NOW;
    const memory = new MemoryCapCounts(() => now);
    const c = campaign({ caps: { hourly: 5, daily: 10 } });
    memory.increment(c, NOW);
    memory.increment(c, NOW);
    now = new Date('2026-01-15T16:00:00Z'); // 11:00 in New York: a new hour, the same day
    expect(memory.get('cmp_1')).toEqual({ daily: 2 });
    memory.increment(c, now);
    expect(memory.get('cmp_1')).toEqual({ hourly: 1, daily: 3 });
  });

  it('ends the day at midnight in the campaign zone, not in New York', () => {
    // 23:30 in Los Angeles is 02:30 the next day in New York.
    const lateLa = new Date('2026-01-16T07:30:00Z');
    let now = lateLa;
    const memory = new MemoryCapCounts(() => now);
    const c = campaign({ time: LA, caps: { daily: 10 } });
    memory.increment(c, lateLa);
    now = new Date('2026-01-16T07:59:00Z'); // 23:59 in Los Angeles: still the same day there
    expect(memory.get('cmp_1')).toEqual({ daily: 1 });
    now = new Date('2026-01-16T08:00:00Z'); // midnight in Los Angeles
    expect(memory.get('cmp_1')).toEqual({});
  });

  describe('read', () => {
    const dialect = new PgDialect();

    /** A stand-in for `db.select().from(capCounters).where(…)` that answers rows and keeps the condition. */
    const fakeDb = (rows: { campaignId: string; period: string; periodStart: Date; n: number }[]) => {
      const seen: { where?: SQL } = {};
      const db = {
        select: () => ({
          from: () => ({
            where: async (where: SQL) => {
              seen.where = where;
              return rows;
            },
          }),
        }),
      } as unknown as Db;
      return { db, seen };
    };

    it('does not query when no campaign has caps', async () => {
      const db = {
        select: () => {
          throw new Error('no query expected');
        },
      } as unknown as Db;
      const memory = await MemoryCapCounts.read(db, [], () => NOW);
      expect(memory.get('cmp_1')).toBeUndefined();
    });

    it("keeps the rows of each campaign's current periods, in its zone, and ignores the rest", async () => {
      const ny = currentPeriods(DEFAULT_ZONE, NOW);
      const la = currentPeriods('America/Los_Angeles', NOW);
      const { db, seen } = fakeDb([
        { campaignId: 'cmp_ny', period: 'daily', periodStart: ny.daily, n: 4 },
        { campaignId: 'cmp_ny', period: 'hourly', periodStart: new Date(ny.hourly.getTime() - 3_600_000), n: 9 },
        { campaignId: 'cmp_ny', period: 'monthly', periodStart: ny.monthly, n: 40 },
        { campaignId: 'cmp_la', period: 'daily', periodStart: la.daily, n: 2 },
        // New York's day start is not the current day in Los Angeles.
        { campaignId: 'cmp_la', period: 'weekly', periodStart: ny.weekly, n: 7 },
        { campaignId: 'cmp_gone', period: 'daily', periodStart: ny.daily, n: 1 },
      ]);
      const capped = [campaign({ id: 'cmp_ny', caps: { daily: 5 } }), campaign({ id: 'cmp_la', time: LA })];
      const memory = await MemoryCapCounts.read(db, capped, () => NOW);
      expect(memory.get('cmp_ny')).toEqual({ daily: 4, monthly: 40 });
      expect(memory.get('cmp_la')).toEqual({ daily: 2 });
      expect(memory.get('cmp_gone')).toBeUndefined();

      // The query asks for the capped campaigns' rows of the last 32 days.
      const query = dialect.sqlToQuery(seen.where as SQL);
      expect(query.sql).toBe('("cap_counters"."campaign_id" in ($1, $2) and "cap_counters"."period_start" >= $3)');
      expect(query.params.slice(0, 2)).toEqual(['cmp_ny', 'cmp_la']);
      expect(new Date(query.params[2] as string).toISOString()).toBe('2025-12-14T15:30:00.000Z');
    });

    it('reads counts that keep following the clock afterwards', async () => {
      const ny = currentPeriods(DEFAULT_ZONE, NOW);
      const { db } = fakeDb([{ campaignId: 'cmp_1', period: 'hourly', periodStart: ny.hourly, n: 3 }]);
      let now = NOW;
      const memory = await MemoryCapCounts.read(db, [campaign({ caps: { hourly: 5 } })], () => now);
      expect(memory.get('cmp_1')).toEqual({ hourly: 3 });
      now = new Date('2026-01-15T16:00:00Z');
      expect(memory.get('cmp_1')).toEqual({});
    });
  });
});

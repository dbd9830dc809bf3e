import { addDays, format } from 'date-fns';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { rowsOf } from '../../db/client';
import { settings, statsDays } from '../../db/schema';
import type { ScheduledJob } from '../../jobs/boss';
import type { Clock } from '../../lib/clock';
import { exchangeZone } from '../../lib/exchange-zone';
import { dayInZone } from '../../lib/time';
import { dayStart, type TimeSpan } from '../leads/date-range';

/** The settings row naming the last rolled day: every day up to it (included) is in stats_days. */
const ROLLED_KEY = 'stats_rolled_through';
/** Advisory lock class of the rollup: one writer of stats_days at a time (see db/client.ts for others). */
const ROLLUP_LOCK = 727_201;
/**
 * A day is rolled only this long after it ended, so a sale answered at 23:59:59 and a ping batch the
 * recorder writes a few seconds later are in it.
 */
export const ROLL_GRACE_MS = 10 * 60_000;

/** The New York day after `day` (YYYY-MM-DD). */
const nextDay = (day: string) => format(addDays(new Date(`${day}T12:00:00Z`), 1), 'yyyy-MM-dd');
/** The first instant of a New York day. */
const startOf = (day: string) => new Date(dayStart(day).getTime());

/**
 * What each New York day adds up to per source (rows with buyer_id '') and per buyer (rows with
 * source_id ''), from the base tables: the rollup writes it for closed days and the reports read it live
 * for the rest. A sale counts in both its source's row and its buyer's; a report reads one kind, so a
 * year is a few thousand rows, never the source × buyer product. Test leads and pings never count;
 * a sale's revenue is its price unless its return was approved; a lead's payout counts when it sold;
 * chargebacks belong to their lead's day; a buyer's cost is its kept sales' share of the lead's payout,
 * split by price.
 */
export function dayFigures(from: Date, to: Date): SQL {
  return sql`
    select (created_at at time zone ${exchangeZone()})::date as day, source_id, ''::text as buyer_id,
      count(*)::bigint as pings, 0::bigint as leads, 0::bigint as posts, 0::bigint as sold,
      0::bigint as payouts, 0::bigint as chargebacks, 0::bigint as sales, 0::bigint as gross,
      0::bigint as returns, 0::bigint as revenue, 0::bigint as buyer_cost
    from pings where created_at >= ${from} and created_at < ${to} and not test
    group by 1, 2
    union all
    select (created_at at time zone ${exchangeZone()})::date, source_id, '', 0, count(*),
      count(*) filter (where ping_id <> 'no_ping'), count(*) filter (where price_cents > 0),
      coalesce(sum(cost_cents) filter (where price_cents > 0), 0), 0, 0, 0, 0, 0, 0
    from leads where created_at >= ${from} and created_at < ${to} and not test
    group by 1, 2
    union all
    select (l.created_at at time zone ${exchangeZone()})::date, c.source_id, '', 0, 0, 0, 0, 0, sum(c.amount_cents), 0, 0, 0, 0, 0
    from source_chargebacks c join leads l on l.id = c.lead_id
    where l.created_at >= ${from} and l.created_at < ${to} and not l.test
    group by 1, 2
    union all
    select s.day, coalesce(s.source_id, ''), coalesce(s.buyer_id, ''), 0, 0, 0, 0, 0, 0,
      count(*), sum(s.price_cents), count(*) filter (where s.return_status = 'approved'),
      coalesce(sum(s.price_cents) filter (where s.return_status is distinct from 'approved'), 0),
      coalesce(sum(round(s.cost_cents::numeric * s.price_cents / nullif(s.lead_revenue, 0)))
        filter (where s.return_status is distinct from 'approved'), 0)
    from (
      select (m.created_at at time zone ${exchangeZone()})::date as day, m.buyer_id, m.price_cents, m.return_status,
        l.source_id, l.cost_cents, sum(m.price_cents) over (partition by m.lead_id) as lead_revenue
      from lead_matches m join leads l on l.id = m.lead_id
      where m.created_at >= ${from} and m.created_at < ${to} and not m.rejected and not l.test
    ) s
    group by grouping sets ((s.day, s.source_id), (s.day, s.buyer_id))`;
}

async function rolledThroughIn(db: Db | Tx): Promise<string | null> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, ROLLED_KEY));
  return (row?.value as { day?: string } | undefined)?.day ?? null;
}

/** Writes the days of [from, to) into the rollup (their rows must not be there). */
async function writeDays(tx: Tx, from: Date, to: Date): Promise<void> {
  await tx.execute(sql`
    insert into stats_days (day, source_id, buyer_id, pings, leads, posts, sold, payouts, chargebacks, sales,
      gross, returns, revenue, buyer_cost)
    select day, source_id, buyer_id, sum(pings), sum(leads), sum(posts), sum(sold), sum(payouts), sum(chargebacks),
      sum(sales), sum(gross), sum(returns), sum(revenue), sum(buyer_cost)
    from (${dayFigures(from, to)}) f
    group by day, source_id, buyer_id`);
}

export const statsRollup = {
  /** The last day in the rollup (null: none yet); every day up to it is there. */
  rolledThrough: (db: Db | Tx) => rolledThroughIn(db),

  /** The last day that may be rolled at `now`: yesterday once its grace has passed, else the day before. */
  rollableThrough(now: Date): string {
    const today = dayInZone(exchangeZone(), now);
    const todayStart = startOf(today).getTime();
    const yesterday = dayInZone(exchangeZone(), new Date(todayStart - 1));
    return now.getTime() >= todayStart + ROLL_GRACE_MS
      ? yesterday
      : dayInZone(exchangeZone(), new Date(startOf(yesterday).getTime() - 1));
  },

  /**
   * Rolls every closed day not rolled yet (the first run: all of them, in one statement). One roller at
   * a time; a run with nothing to roll reads one row.
   */
  async roll(db: Db, now: Date): Promise<{ through: string | null; rolledFrom: string | null }> {
    const target = this.rollableThrough(now);
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ROLLUP_LOCK}, 0)`);
      const through = await rolledThroughIn(tx);
      if (through !== null && through >= target) return { through, rolledFrom: null };
      const fromDay = through === null ? null : nextDay(through);
      const from = fromDay === null ? new Date(0) : startOf(fromDay);
      await tx.execute(sql`delete from stats_days where day >= ${fromDay ?? '0001-01-01'}::date`);
      await writeDays(tx, from, startOf(nextDay(target)));
      // Fresh statistics, so the planner reads a year of rows by the day index as the rows are.
      await tx.execute(sql`analyze stats_days`);
      await tx
        .insert(settings)
        .values({ key: ROLLED_KEY, category: 'stats', value: { day: target }, updatedAt: now })
        .onConflictDoUpdate({ target: settings.key, set: { value: { day: target }, updatedAt: now } });
      return { through: target, rolledFrom: fromDay ?? 'the first day' };
    });
  },

  /**
   * Rewrites the rolled days a changed sale belongs to (its own day and its lead's), inside the change's
   * transaction: an approved return changes the revenue, returns, chargebacks and costs of a closed day.
   */
  async refreshSale(tx: Tx, matchId: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(${ROLLUP_LOCK}, 0)`);
    const through = await rolledThroughIn(tx);
    if (through === null) return;
    const result = await tx.execute(sql`
      select distinct to_char(d, 'YYYY-MM-DD') as day from (
        select (m.created_at at time zone ${exchangeZone()})::date as d from lead_matches m where m.id = ${matchId}
        union all
        select (l.created_at at time zone ${exchangeZone()})::date from lead_matches m join leads l on l.id = m.lead_id
        where m.id = ${matchId}
      ) days`);
    for (const { day } of rowsOf<{ day: string }>(result)) {
      if (day > through) continue;
      await tx.delete(statsDays).where(eq(statsDays.day, day));
      await writeDays(tx, startOf(day), startOf(nextDay(day)));
    }
  },

  /** Forgets the rollup (the mock date moved: the days it holds may be "today" again). */
  async clear(db: Db): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ROLLUP_LOCK}, 0)`);
      await tx.delete(settings).where(eq(settings.key, ROLLED_KEY));
      await tx.delete(statsDays);
    });
  },

  /**
   * The figures rows of a span of whole New York days: the rollup's rows for its rolled days, the
   * base tables' for the rest (today, and any day not rolled yet).
   */
  async spanRows(db: Db, span: TimeSpan): Promise<SQL> {
    const through = await rolledThroughIn(db);
    const fromDay = dayInZone(exchangeZone(), span.from);
    if (through === null || through < fromDay) return dayFigures(span.from, span.to);
    const liveFrom = startOf(nextDay(through));
    const rolled = sql`
      select day, source_id, buyer_id, pings, leads, posts, sold, payouts, chargebacks, sales, gross, returns,
        revenue, buyer_cost
      from stats_days where day >= ${fromDay}::date and day <= ${through}::date and day < ${dayInZone(exchangeZone(), span.to)}::date`;
    if (liveFrom >= span.to) return rolled;
    return sql`${rolled} union all ${dayFigures(new Date(Math.max(liveFrom.getTime(), span.from.getTime())), span.to)}`;
  },
};

/** Hourly, and once when a worker starts: the days closed since the last run go into the rollup. */
export const STATS_ROLLUP_QUEUE = 'stats-rollup';
export const STATS_ROLLUP_CRON = '31 * * * *';

export function statsRollupJob({ db, clock }: { db: Db; clock: Clock }): ScheduledJob {
  return {
    queue: STATS_ROLLUP_QUEUE,
    cron: STATS_ROLLUP_CRON,
    retryLimit: 2,
    retryDelaySeconds: 300,
    expireInSeconds: 3600,
    runAtStart: true,
    run: () => statsRollup.roll(db, clock.now()),
  };
}

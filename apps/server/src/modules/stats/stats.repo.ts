import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import type { TimeSpan } from '../leads/date-range';
import { statsRollup } from './stats-rollup';

/** Sums come back as text from bigint; every figure is read as a number of cents or a count. */
const num = (value: unknown): number => Number(value ?? 0);

export interface SourceFigures {
  id: string;
  name: string;
  pings: number;
  leads: number;
  /** Leads posted with a ping's id (the rest came direct). */
  posts: number;
  sold: number;
  sales: number;
  grossCents: number;
  returns: number;
  revenueCents: number;
  costCents: number;
}

export interface BuyerFigures {
  id: string;
  name: string;
  leads: number;
  grossCents: number;
  returns: number;
  revenueCents: number;
  costCents: number;
}

/** One New York day of one buyer's purchases. */
export interface BuyerDayFigures {
  day: string;
  /** Sales to the buyer (returned ones included). */
  sales: number;
  /** Of those, the approved returns. */
  returns: number;
  /** Their prices less the approved returns': what the buyer is charged. */
  spendCents: number;
}

export interface DayFigures {
  day: string;
  revenueCents: number;
  costCents: number;
}

/** The New York days a span covers (its last instant's day included): ad spend is recorded per day. */
const spendDays = (span: TimeSpan, zone: string) => sql`a.day >= (${span.from}::timestamptz at time zone ${zone})::date
  and a.day <= ((${span.to}::timestamptz - interval '1 microsecond') at time zone ${zone})::date`;

/** Every New York day of a span, one row each (`day`), so a quiet day still shows as 0. */
const daySeries = (span: TimeSpan, zone: string) => sql`select generate_series(
  (${span.from}::timestamptz at time zone ${zone})::date,
  ((${span.to}::timestamptz - interval '1 microsecond') at time zone ${zone})::date,
  interval '1 day')::date as day`;

/**
 * The dashboard's reports (issue 14), over the figures of stats-rollup.ts (the daily rollup for rolled
 * days, the base tables for the rest). A source's cost is its payouts less chargebacks plus its ad spend;
 * a buyer's cost is its kept sales' share of their leads' payouts.
 */
export const statsRepo = {
  /**
   * The month's totals of the dashboard: revenue, leads received (every lead stored, sold or not, test
   * leads aside), leads sold, payouts less chargebacks (cents).
   */
  async totals(
    db: Db,
    span: TimeSpan,
  ): Promise<{ revenueCents: number; received: number; sold: number; costCents: number }> {
    const rows = await statsRollup.spanRows(db, span);
    const result = await db.execute(sql`
      select coalesce(sum(revenue), 0) as revenue, coalesce(sum(leads), 0) as received,
        coalesce(sum(sold), 0) as sold, coalesce(sum(payouts), 0) - coalesce(sum(chargebacks), 0) as cost
      from (${rows}) f where buyer_id = ''`);
    const r = rowsOf<Record<string, unknown>>(result)[0] ?? {};
    return { revenueCents: num(r.revenue), received: num(r.received), sold: num(r.sold), costCents: num(r.cost) };
  },

  /** The ad spend of internal sources on the span's days (issue 14: part of the cost), in cents. */
  async adSpend(db: Db, span: TimeSpan, zone: string): Promise<number> {
    const result = await db.execute(
      sql`select coalesce(sum(a.amount_cents), 0) as amount from ad_spend a where ${spendDays(span, zone)}`,
    );
    return num(rowsOf<{ amount: unknown }>(result)[0]?.amount);
  },

  async bySource(db: Db, span: TimeSpan, zone: string): Promise<SourceFigures[]> {
    const rows = await statsRollup.spanRows(db, span);
    const result = await db.execute(sql`
      with f as (
        select source_id, sum(pings) as pings, sum(leads) as leads, sum(posts) as posts, sum(sold) as sold,
          sum(payouts) as payouts, sum(chargebacks) as chargebacks, sum(sales) as sales, sum(gross) as gross,
          sum(returns) as returns, sum(revenue) as revenue
        from (${rows}) x where buyer_id = '' group by source_id
      ), a as (
        select a.source_id, sum(a.amount_cents) as amount from ad_spend a where ${spendDays(span, zone)}
        group by a.source_id
      )
      select s.id, s.name, coalesce(f.pings, 0) as pings, coalesce(f.leads, 0) as leads, coalesce(f.posts, 0) as posts,
        coalesce(f.sold, 0) as sold, coalesce(f.sales, 0) as sales, coalesce(f.gross, 0) as gross,
        coalesce(f.returns, 0) as returns, coalesce(f.revenue, 0) as revenue,
        coalesce(f.payouts, 0) - coalesce(f.chargebacks, 0) + coalesce(a.amount, 0) as cost
      from sources s
      left join f on f.source_id = s.id
      left join a on a.source_id = s.id
      where f.pings > 0 or f.leads > 0 or a.amount is not null
      order by coalesce(f.revenue, 0) desc, s.name`);
    return rowsOf<Record<string, unknown>>(result).map((r) => ({
      id: String(r.id),
      name: String(r.name),
      pings: num(r.pings),
      leads: num(r.leads),
      posts: num(r.posts),
      sold: num(r.sold),
      sales: num(r.sales),
      grossCents: num(r.gross),
      returns: num(r.returns),
      revenueCents: num(r.revenue),
      costCents: num(r.cost),
    }));
  },

  async byBuyer(db: Db, span: TimeSpan): Promise<BuyerFigures[]> {
    const rows = await statsRollup.spanRows(db, span);
    // Summed per buyer first, then named: the join and the order see one row per buyer.
    const result = await db.execute(sql`
      with f as (
        select buyer_id, sum(sales) as leads, sum(gross) as gross, sum(returns) as returns,
          sum(revenue) as revenue, sum(buyer_cost) as cost
        from (${rows}) x where source_id = '' and buyer_id <> ''
        group by buyer_id
      )
      select b.id, b.name, f.leads, f.gross, f.returns, f.revenue, f.cost
      from f join buyers b on b.id = f.buyer_id
      where f.leads > 0
      order by f.revenue desc, b.name`);
    return rowsOf<Record<string, unknown>>(result).map((r) => ({
      id: String(r.id),
      name: String(r.name),
      leads: num(r.leads),
      grossCents: num(r.gross),
      returns: num(r.returns),
      revenueCents: num(r.revenue),
      costCents: num(r.cost),
    }));
  },

  /** Revenue and cost per New York day of the span, every day present (0 on a quiet one). */
  async byDay(db: Db, span: TimeSpan, zone: string): Promise<DayFigures[]> {
    const rows = await statsRollup.spanRows(db, span);
    const result = await db.execute(sql`
      with days as (${daySeries(span, zone)}), f as (
        select day, sum(revenue) as revenue, sum(payouts) - sum(chargebacks) as cost
        from (${rows}) x where buyer_id = '' group by day
      ), a as (
        select a.day, sum(a.amount_cents) as amount from ad_spend a where ${spendDays(span, zone)} group by 1
      )
      select to_char(days.day, 'YYYY-MM-DD') as day, coalesce(f.revenue, 0) as revenue,
        coalesce(f.cost, 0) + coalesce(a.amount, 0) as cost
      from days left join f on f.day = days.day left join a on a.day = days.day
      order by days.day`);
    return rowsOf<Record<string, unknown>>(result).map((r) => ({
      day: String(r.day),
      revenueCents: num(r.revenue),
      costCents: num(r.cost),
    }));
  },

  /** One buyer's sales, returns and spend per New York day of the span, every day present. */
  async buyerByDay(db: Db, span: TimeSpan, buyerId: string, zone: string): Promise<BuyerDayFigures[]> {
    const rows = await statsRollup.spanRows(db, span);
    const result = await db.execute(sql`
      with days as (${daySeries(span, zone)}), f as (
        select day, sum(sales) as sales, sum(returns) as returns, sum(revenue) as revenue
        from (${rows}) x where buyer_id = ${buyerId} group by day
      )
      select to_char(days.day, 'YYYY-MM-DD') as day, coalesce(f.sales, 0) as sales,
        coalesce(f.returns, 0) as returns, coalesce(f.revenue, 0) as revenue
      from days left join f on f.day = days.day
      order by days.day`);
    return rowsOf<Record<string, unknown>>(result).map((r) => ({
      day: String(r.day),
      sales: num(r.sales),
      returns: num(r.returns),
      spendCents: num(r.revenue),
    }));
  },
};

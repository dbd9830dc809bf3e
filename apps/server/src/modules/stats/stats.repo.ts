import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import type { TimeSpan } from '../leads/date-range';

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

export interface DayFigures {
  day: string;
  revenueCents: number;
  costCents: number;
}

/** The New York days a span covers (its last instant's day included): ad spend is recorded per day. */
const spendDays = (span: TimeSpan, zone: string) => sql`a.day >= (${span.from}::timestamptz at time zone ${zone})::date
  and a.day <= ((${span.to}::timestamptz - interval '1 microsecond') at time zone ${zone})::date`;

/**
 * The dashboard's reports (issue 14). Test leads never count. A sale's revenue is its price unless its
 * return was approved; a lead's cost is its payout less what returns charged back; a buyer's cost is its
 * kept sales' share of their leads' payouts, split by price like the chargebacks.
 */
export const statsRepo = {
  /** What approved returns charged back on the leads sold in the span (issue 13), in cents. */
  async chargebacksOfLeads(db: Db, span: TimeSpan): Promise<number> {
    const result = await db.execute(sql`
      select coalesce(sum(c.amount_cents), 0) as amount
      from source_chargebacks c join leads l on l.id = c.lead_id
      where l.created_at >= ${span.from} and l.created_at < ${span.to} and not l.test`);
    return num(rowsOf<{ amount: unknown }>(result)[0]?.amount);
  },

  /** The ad spend of internal sources on the span's days (issue 14: part of the cost), in cents. */
  async adSpend(db: Db, span: TimeSpan, zone: string): Promise<number> {
    const result = await db.execute(
      sql`select coalesce(sum(a.amount_cents), 0) as amount from ad_spend a where ${spendDays(span, zone)}`,
    );
    return num(rowsOf<{ amount: unknown }>(result)[0]?.amount);
  },

  async bySource(db: Db, span: TimeSpan, zone: string): Promise<SourceFigures[]> {
    const result = await db.execute(sql`
      with p as (
        select source_id, count(*) as pings from pings
        where created_at >= ${span.from} and created_at < ${span.to} and not test
        group by source_id
      ), l as (
        select source_id, count(*) as leads, count(*) filter (where ping_id <> 'no_ping') as posts,
          count(*) filter (where price_cents > 0) as sold,
          coalesce(sum(cost_cents) filter (where price_cents > 0), 0) as payouts
        from leads
        where created_at >= ${span.from} and created_at < ${span.to} and not test
        group by source_id
      ), cb as (
        select c.source_id, sum(c.amount_cents) as amount
        from source_chargebacks c join leads l on l.id = c.lead_id
        where l.created_at >= ${span.from} and l.created_at < ${span.to}
        group by c.source_id
      ), a as (
        select a.source_id, sum(a.amount_cents) as amount from ad_spend a where ${spendDays(span, zone)}
        group by a.source_id
      ), m as (
        select l.source_id, count(*) as sales, sum(m.price_cents) as gross,
          count(*) filter (where m.return_status = 'approved') as returns,
          coalesce(sum(m.price_cents) filter (where m.return_status is distinct from 'approved'), 0) as revenue
        from lead_matches m join leads l on l.id = m.lead_id
        where m.created_at >= ${span.from} and m.created_at < ${span.to} and not m.rejected and not l.test
        group by l.source_id
      )
      select s.id, s.name, coalesce(p.pings, 0) as pings, coalesce(l.leads, 0) as leads, coalesce(l.posts, 0) as posts, coalesce(l.sold, 0) as sold,
        coalesce(m.sales, 0) as sales, coalesce(m.gross, 0) as gross, coalesce(m.returns, 0) as returns,
        coalesce(m.revenue, 0) as revenue, coalesce(l.payouts, 0) - coalesce(cb.amount, 0) + coalesce(a.amount, 0) as cost
      from sources s
      left join p on p.source_id = s.id
      left join l on l.source_id = s.id
      left join m on m.source_id = s.id
      left join cb on cb.source_id = s.id
      left join a on a.source_id = s.id
      where p.pings is not null or l.leads is not null or a.amount is not null
      order by coalesce(m.revenue, 0) desc, s.name`);
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
    const result = await db.execute(sql`
      with sale as (
        select m.buyer_id, m.price_cents, m.return_status, l.cost_cents,
          sum(m.price_cents) over (partition by m.lead_id) as lead_revenue
        from lead_matches m join leads l on l.id = m.lead_id
        where m.created_at >= ${span.from} and m.created_at < ${span.to} and not m.rejected and not l.test
      )
      select b.id, b.name, count(*) as leads, sum(sale.price_cents) as gross,
        count(*) filter (where sale.return_status = 'approved') as returns,
        coalesce(sum(sale.price_cents) filter (where sale.return_status is distinct from 'approved'), 0) as revenue,
        coalesce(sum(round(sale.cost_cents::numeric * sale.price_cents / nullif(sale.lead_revenue, 0)))
          filter (where sale.return_status is distinct from 'approved'), 0) as cost
      from sale join buyers b on b.id = sale.buyer_id
      group by b.id, b.name
      order by revenue desc, b.name`);
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
    const result = await db.execute(sql`
      with days as (
        select generate_series(
          (${span.from}::timestamptz at time zone ${zone})::date,
          ((${span.to}::timestamptz - interval '1 microsecond') at time zone ${zone})::date,
          interval '1 day')::date as day
      ), r as (
        select (m.created_at at time zone ${zone})::date as day,
          sum(m.price_cents) filter (where m.return_status is distinct from 'approved') as revenue
        from lead_matches m
        where m.created_at >= ${span.from} and m.created_at < ${span.to} and not m.rejected
        group by 1
      ), c as (
        select (l.created_at at time zone ${zone})::date as day, sum(l.cost_cents) as cost
        from leads l
        where l.created_at >= ${span.from} and l.created_at < ${span.to} and not l.test and l.price_cents > 0
        group by 1
      ), cb as (
        select (l.created_at at time zone ${zone})::date as day, sum(x.amount_cents) as amount
        from source_chargebacks x join leads l on l.id = x.lead_id
        where l.created_at >= ${span.from} and l.created_at < ${span.to}
        group by 1
      ), a as (
        select a.day, sum(a.amount_cents) as amount from ad_spend a where ${spendDays(span, zone)} group by 1
      )
      select to_char(days.day, 'YYYY-MM-DD') as day, coalesce(r.revenue, 0) as revenue,
        coalesce(c.cost, 0) - coalesce(cb.amount, 0) + coalesce(a.amount, 0) as cost
      from days left join r on r.day = days.day left join c on c.day = days.day left join cb on cb.day = days.day
        left join a on a.day = days.day
      order by days.day`);
    return rowsOf<Record<string, unknown>>(result).map((r) => ({
      day: String(r.day),
      revenueCents: num(r.revenue),
      costCents: num(r.cost),
    }));
  },
};

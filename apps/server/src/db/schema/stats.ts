import { bigint, date, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

const count = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/**
 * The reports' daily rollup (issue 14, DESIGN.md §8b): per New York day, what the leads, pings, matches
 * and chargebacks of that day add up to, per source (buyer_id '': all of its figures) and per buyer
 * (source_id '': its sales, gross, returns, revenue and share of the payouts). Written by the rollup job for closed days and rewritten by a return on a rolled day; the
 * reports read it for rolled days and the base tables for the rest (modules/stats/stats-rollup.ts).
 */
export const statsDays = pgTable(
  'stats_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    sourceId: text('source_id').notNull(),
    buyerId: text('buyer_id').notNull(),
    pings: count('pings'),
    leads: count('leads'),
    posts: count('posts'),
    sold: count('sold'),
    payouts: count('payouts'),
    chargebacks: count('chargebacks'),
    sales: count('sales'),
    gross: count('gross'),
    returns: count('returns'),
    revenue: count('revenue'),
    buyerCost: count('buyer_cost'),
  },
  (t) => [primaryKey({ columns: [t.day, t.sourceId, t.buyerId] })],
);

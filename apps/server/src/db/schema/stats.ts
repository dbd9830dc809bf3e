import { bigint, date, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

const count = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

/**
 * The reports' daily rollup (issue 14, DESIGN.md §8b): per New York day × source × buyer, what the
 * leads, pings, matches and chargebacks of that day add up to. Rows with buyer_id '' hold what belongs
 * to the lead (pings, leads, posts, sold, payouts, chargebacks); rows with a buyer what belongs to its
 * sales. Written by the rollup job for closed days and rewritten by a return on a rolled day; the
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

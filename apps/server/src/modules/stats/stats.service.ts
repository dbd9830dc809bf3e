import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { campaigns, leadMatches, leads, unmatchedPings } from '../../db/schema';
import { dayInZone, periodStart } from '../../distribution/time';
import type { Clock } from '../../lib/clock';
import { centsToDollars } from '../../lib/money';

/** The exchange's home zone: months of the dashboard (and of billing) are New York months. */
const HOME_ZONE = 'America/New_York';

/** The dashboard's figures for this month (DESIGN.md §8b). */
export function createStatsService(db: Db, clock: Clock) {
  return {
    async get() {
      const monthStart = periodStart('monthly', HOME_ZONE, clock.now());
      // The month ends where the next begins: with a mock date in the past, later sales are not counted.
      const monthEnd = periodStart('monthly', HOME_ZONE, new Date(monthStart.getTime() + 32 * 86_400_000));
      const [quota] = await db
        .select({
          totalQuota: sql<number>`coalesce(sum(${campaigns.maxMonthly}), 0)::int`,
          totalQuotaValueCents: sql<number>`coalesce(sum(${campaigns.maxMonthly}::bigint * ${campaigns.priceCents}), 0)::bigint`,
        })
        .from(campaigns)
        .where(and(eq(campaigns.status, 'live'), sql`${campaigns.maxMonthly} > 0`));
      const [sales] = await db
        .select({
          revenueCents: sql<number>`coalesce(sum(case when ${leadMatches.returnStatus} = 'approved' then 0 else ${leadMatches.priceCents} end), 0)::bigint`,
        })
        .from(leadMatches)
        .where(
          and(
            gte(leadMatches.createdAt, monthStart),
            lt(leadMatches.createdAt, monthEnd),
            eq(leadMatches.rejected, false),
          ),
        );
      const [sold] = await db
        .select({
          totalLeads: sql<number>`count(*)::int`,
          // The payouts, less what approved returns charged back to the sources.
          costCents: sql<number>`coalesce(sum(${leads.costCents} - coalesce((
            select sum(c.amount_cents) from source_chargebacks c where c.lead_id = "leads"."id"), 0)), 0)::bigint`,
        })
        .from(leads)
        .where(
          and(
            gte(leads.createdAt, monthStart),
            lt(leads.createdAt, monthEnd),
            eq(leads.test, false),
            sql`${leads.priceCents} > 0`,
          ),
        );
      const gaps = await db
        .select({
          zip: unmatchedPings.zip,
          service: unmatchedPings.service,
          count: sql<number>`sum(${unmatchedPings.n})::int`,
        })
        .from(unmatchedPings)
        .where(
          and(
            gte(unmatchedPings.day, dayInZone(HOME_ZONE, monthStart)),
            lt(unmatchedPings.day, dayInZone(HOME_ZONE, monthEnd)),
          ),
        )
        .groupBy(unmatchedPings.zip, unmatchedPings.service)
        .orderBy(sql`sum(${unmatchedPings.n}) desc`, unmatchedPings.zip)
        .limit(20);
      return {
        totalQuota: Number(quota?.totalQuota ?? 0),
        totalQuotaValue: centsToDollars(Number(quota?.totalQuotaValueCents ?? 0)),
        totalLeads: Number(sold?.totalLeads ?? 0),
        leadRevenue: centsToDollars(Number(sales?.revenueCents ?? 0)),
        leadCost: centsToDollars(Number(sold?.costCents ?? 0)),
        topUnmatchedPings: gaps.map((g) => ({ _id: { zip: g.zip, service: g.service }, count: g.count })),
      };
    },
  };
}

export type StatsService = ReturnType<typeof createStatsService>;

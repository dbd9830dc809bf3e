import { z } from 'zod';
import { leadRangeQuery } from './lead';

/**
 * GET /api/stats/ (admin spec §3 Stats, DESIGN.md §8b), this month in New York: the revenue target
 * (`totalQuotaValue`: each live campaign's monthly cap times its price), revenue (sales less approved
 * returns), cost (payouts less chargebacks), the lead queue (`totalLeads`
 * received, sold or not, of `totalQuota`) and the
 * Buyer Gaps (ZIP and service pings nobody bought, with how many).
 */
export const statsSchema = z.object({
  totalQuota: z.number().int(),
  totalQuotaValue: z.number(),
  totalLeads: z.number().int(),
  leadRevenue: z.number(),
  leadCost: z.number(),
  topUnmatchedPings: z.array(
    z.object({ _id: z.object({ zip: z.string(), service: z.string() }), count: z.number().int() }),
  ),
});
export type Stats = z.infer<typeof statsSchema>;

/** Profit as the dashboard shows it: revenue minus cost, to the cent. */
export const profitOf = (stats: Pick<Stats, 'leadRevenue' | 'leadCost'>): number =>
  Math.round((stats.leadRevenue - stats.leadCost) * 100) / 100;

/** The lead queue bar's fill, 0 to 100 (a month without a quota is empty, an overfilled one full). */
export const queuePercent = (stats: Pick<Stats, 'totalLeads' | 'totalQuota'>): number =>
  stats.totalQuota > 0 ? Math.min(100, (stats.totalLeads / stats.totalQuota) * 100) : 0;

/** One New York day of the month: what the exchange earned, paid and kept (the dashboard's chart). */
export const dailyFiguresSchema = z.object({
  /** YYYY-MM-DD in New York. */
  day: z.string(),
  revenue: z.number(),
  cost: z.number(),
  profit: z.number(),
});
export type DailyFigures = z.infer<typeof dailyFiguresSchema>;

/** GET /api/stats/sources and /buyers (and their .csv): a date range as the leads lists take it, this month by default. */
export const reportQuery = leadRangeQuery('mtd');
export type ReportQuery = z.infer<typeof reportQuery>;

/** What both reports say of a row's sales. Ratios are 0 to 1, null where there is nothing to divide by. */
const reportFigures = z.object({
  _id: z.string(),
  name: z.string(),
  /** Gross sales per sold lead. */
  average_price: z.number().nullable(),
  returns: z.number(),
  /** Approved returns per sale. */
  return_rate: z.number().nullable(),
  /** Sales less approved returns. */
  revenue: z.number(),
  /** Payouts less chargebacks (a buyer: its kept sales' share of the payouts, by price). */
  cost: z.number(),
  profit: z.number(),
});
export type ReportFigures = z.infer<typeof reportFigures>;

/** What a source brought over a range. */
export const sourceReportRowSchema = reportFigures.extend({
  pings: z.number(),
  /** Leads posted (after a ping or direct). */
  leads: z.number(),
  /** Posts (leads sent with a ping's id) per ping. */
  ping_to_post: z.number().nullable(),
  sold: z.number(),
});
export type SourceReportRow = z.infer<typeof sourceReportRowSchema>;

/** What a buyer bought over a range. */
export const buyerReportRowSchema = reportFigures.extend({ leads: z.number() });
export type BuyerReportRow = z.infer<typeof buyerReportRowSchema>;

/** GET /api/stats/{sources|buyers}: one report's rows (a source row says more than a buyer row). */
export const reportRowsSchema = z.union([z.array(sourceReportRowSchema), z.array(buyerReportRowSchema)]);

/** One New York day of a buyer's purchases (the buyer home's 30-day chart). */
export const buyerStatsDaySchema = z.object({
  /** YYYY-MM-DD in New York. */
  day: z.string(),
  leads: z.number().int(),
  spend: z.number(),
});

/**
 * GET /api/buyer/{id}/stats (the buyer home's Stats): this New York month's leads bought, spend (their
 * prices less approved returns, as the bills charge) and approved returns, and the last 30 days by day.
 */
export const buyerStatsSchema = z.object({
  month: z.object({ leads: z.number().int(), spend: z.number(), returns: z.number().int() }),
  days: z.array(buyerStatsDaySchema),
});
export type BuyerStats = z.infer<typeof buyerStatsSchema>;

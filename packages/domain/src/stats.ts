import { z } from 'zod';

/**
 * GET /api/stats/ (admin spec §3 Stats, DESIGN.md §8b), this month in New York: the revenue target
 * (`totalQuotaValue`: each live campaign's monthly cap times its price), revenue (sales less approved
 * returns), cost (payouts less chargebacks), the lead queue (`totalLeads` sold of `totalQuota`) and the
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

import { and, eq, gte, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { leadMatches } from '../../db/schema';

/** Charges and approved returns of a buyer's sales in a period, in cents. */
export interface PeriodTotals {
  chargesCents: number;
  returnsCents: number;
}

/**
 * The buyer's billed sales made in [start, end): its matches not rejected (its delivery refused them)
 * and not undelivered (billed only once a resend delivers them, DESIGN.md §6).
 */
export function billedMatches(buyerId: string, start: Date, end: Date) {
  return and(
    eq(leadMatches.buyerId, buyerId),
    eq(leadMatches.rejected, false),
    ne(leadMatches.deliveryStatus, 'undelivered'),
    gte(leadMatches.createdAt, start),
    lt(leadMatches.createdAt, end),
  );
}

export const billsRepo = {
  /**
   * Sums the buyer's sold (not rejected) matches made in [start, end): bill totals are computed
   * from matches, never kept on a hot row (DESIGN.md §5, write path). An undelivered match is not
   * billed until a resend delivers it (DESIGN.md §6).
   */
  async periodTotals(db: Db, buyerId: string, start: Date, end: Date): Promise<PeriodTotals> {
    const [row] = await db
      .select({
        chargesCents: sql<number>`coalesce(sum(${leadMatches.priceCents}), 0)`.mapWith(Number),
        returnsCents:
          sql<number>`coalesce(sum(${leadMatches.priceCents}) filter (where ${leadMatches.returnStatus} = 'approved'), 0)`.mapWith(
            Number,
          ),
      })
      .from(leadMatches)
      .where(billedMatches(buyerId, start, end));
    return row ?? { chargesCents: 0, returnsCents: 0 };
  },
};

import { and, eq, gte, lt, ne } from 'drizzle-orm';
import { leadMatches } from './schema';

/**
 * Which sales are billed, as SQL conditions on lead_matches: the bills' (bills.repo.ts) and the
 * returns' auto-approve share (returns.repo.ts) count the same sales.
 */

/** A sale its buyer pays for: not rejected by its delivery, and not undelivered (billed once a resend delivers it, DESIGN.md §6). */
export const billable = and(eq(leadMatches.rejected, false), ne(leadMatches.deliveryStatus, 'undelivered'));

/**
 * The buyer's billed sales made in [start, end): the auto-approve share of returns counts them.
 */
export function billedMatches(buyerId: string, start: Date, end: Date) {
  return and(
    eq(leadMatches.buyerId, buyerId),
    billable,
    gte(leadMatches.createdAt, start),
    lt(leadMatches.createdAt, end),
  );
}

import { and, asc, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { type AnyPgColumn, QueryBuilder } from 'drizzle-orm/pg-core';
import { webhooks } from './schema';

/** The last delivery failure of a buyer as a row shows it; all null when there is none. */
export interface DeliveryFailureColumns {
  failureDeliveryId: string | null;
  failureDelivery: string | null;
  failureMessage: string | null;
  failureAt: Date | null;
}

/**
 * The most recent failure among the buyer's live custom deliveries (DESIGN.md §6: shown in red on
 * its campaigns), as a subquery to LEFT JOIN LATERAL on `buyerId` (`on true`): a list stays one
 * round trip, each buyer's deliveries read through webhooks_buyer_idx. Draft and paused
 * deliveries do not run, so their failures are not news for the campaigns.
 */
export function lastDeliveryFailure(buyerId: AnyPgColumn) {
  return new QueryBuilder()
    .select({
      id: webhooks.id,
      name: webhooks.name,
      lastFailure: webhooks.lastFailure,
      lastFailureAt: webhooks.lastFailureAt,
    })
    .from(webhooks)
    .where(
      and(
        eq(webhooks.buyerId, buyerId),
        eq(webhooks.status, 'live'),
        isNotNull(webhooks.lastFailure),
        isNotNull(webhooks.lastFailureAt),
      ),
    )
    .orderBy(desc(webhooks.lastFailureAt), asc(webhooks.id))
    .limit(1)
    .as('delivery_failure');
}

/**
 * The ON of the LEFT JOIN LATERAL of {@link lastDeliveryFailure} for a campaign: only a live campaign
 * shows its buyer's failure (issue 27: a paused or draft campaign sends nothing to the delivery). Every
 * live campaign of the buyer uses each of its live deliveries: the sale runs them all for any of them.
 */
export const liveCampaignOnly = (status: AnyPgColumn) => sql`${status} = 'live'`;

/** The select fields of {@link lastDeliveryFailure}'s subquery, named as {@link DeliveryFailureColumns}. */
export function deliveryFailureFields(failure: ReturnType<typeof lastDeliveryFailure>) {
  return {
    failureDeliveryId: failure.id,
    failureDelivery: failure.name,
    failureMessage: failure.lastFailure,
    failureAt: failure.lastFailureAt,
  };
}

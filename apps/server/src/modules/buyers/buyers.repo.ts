import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  type DeliveryFailureColumns,
  deliveryFailureFields,
  lastDeliveryFailure,
  liveCampaignOnly,
} from '../../db/delivery-failure';
import { listByName, type NameListFilter, recordsById } from '../../db/records';
import { buyers, campaignStatusEvents, campaigns, leadMatches, leads, zipsets } from '../../db/schema';
import { newId } from '../../lib/ids';

export type BuyerRow = typeof buyers.$inferSelect;
export type BuyerInsert = typeof buyers.$inferInsert;

/** A campaign of the buyer as its Campaigns table needs it. */
export type BuyerCampaignRow = Pick<
  typeof campaigns.$inferSelect,
  | 'id'
  | 'name'
  | 'fixedId'
  | 'services'
  | 'location'
  | 'states'
  | 'zips'
  | 'zipsetId'
  | 'priceCents'
  | 'shared'
  | 'sharedPriceCents'
  | 'status'
> & { zipsetName: string | null } & DeliveryFailureColumns;

/** A lead sold to the buyer, with the price of the buyer's own match. */
export interface BuyerLeadRow {
  id: string;
  soldAt: Date;
  name: string | null;
  service: string;
  zip: string;
  priceCents: number;
}

export const buyersRepo = {
  ...recordsById(buyers),

  list(db: Db, filter: NameListFilter): Promise<{ rows: BuyerRow[]; total: number }> {
    return listByName(db, buyers, filter);
  },

  /** The buyer's campaigns, by name. */
  async campaignsOf(db: Db, buyerId: string): Promise<BuyerCampaignRow[]> {
    const failure = lastDeliveryFailure(campaigns.buyerId);
    return db
      .select({
        id: campaigns.id,
        name: campaigns.name,
        fixedId: campaigns.fixedId,
        services: campaigns.services,
        location: campaigns.location,
        states: campaigns.states,
        zips: campaigns.zips,
        zipsetId: campaigns.zipsetId,
        zipsetName: zipsets.name,
        priceCents: campaigns.priceCents,
        shared: campaigns.shared,
        sharedPriceCents: campaigns.sharedPriceCents,
        status: campaigns.status,
        ...deliveryFailureFields(failure),
      })
      .from(campaigns)
      .leftJoin(zipsets, eq(zipsets.id, campaigns.zipsetId))
      .leftJoinLateral(failure, liveCampaignOnly(campaigns.status))
      .where(eq(campaigns.buyerId, buyerId))
      .orderBy(asc(campaigns.name), asc(campaigns.id));
  },

  /** The latest leads sold to the buyer (matches not rejected), newest first. */
  async latestLeads(db: Db, buyerId: string, limit: number): Promise<BuyerLeadRow[]> {
    return db
      .select({
        id: leads.id,
        soldAt: leadMatches.createdAt,
        name: leads.name,
        service: leads.service,
        zip: leads.zip,
        priceCents: leadMatches.priceCents,
      })
      .from(leadMatches)
      .innerJoin(leads, eq(leads.id, leadMatches.leadId))
      .where(and(eq(leadMatches.buyerId, buyerId), eq(leadMatches.rejected, false)))
      .orderBy(desc(leadMatches.createdAt), desc(leadMatches.id))
      .limit(limit);
  },

  /**
   * Pauses every live campaign of the buyer and records each change in the status history, in the
   * caller's transaction. One conditional UPDATE: a campaign made live concurrently is either
   * paused here or not seen, never half-changed. Answers the ids paused.
   */
  async pauseLiveCampaigns(
    tx: Tx,
    buyerId: string,
    change: { reason: string; actor: string; at: Date },
  ): Promise<string[]> {
    const paused = await tx
      .update(campaigns)
      .set({ status: 'pause', updatedAt: change.at })
      .where(and(eq(campaigns.buyerId, buyerId), eq(campaigns.status, 'live')))
      .returning({ id: campaigns.id });
    if (paused.length > 0) {
      await tx.insert(campaignStatusEvents).values(
        paused.map(({ id }) => ({
          id: newId('cse'),
          campaignId: id,
          status: 'pause',
          reason: change.reason,
          actor: change.actor,
          at: change.at,
        })),
      );
    }
    return paused.map(({ id }) => id);
  },
};

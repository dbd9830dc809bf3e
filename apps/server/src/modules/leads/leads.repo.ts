import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { buyers, campaigns, leadMatches, leads, sources } from '../../db/schema';

export type LeadRow = typeof leads.$inferSelect;
export type MatchRow = typeof leadMatches.$inferSelect & {
  buyerName: string;
  campaignName: string;
  sharedPriceCents: number | null;
};

export const leadsRepo = {
  /** The lead's stored explanation (packed), or null for an unknown lead. */
  async explanationOf(db: Db, id: string): Promise<unknown[] | null> {
    const [row] = await db.select({ explanation: leads.explanation }).from(leads).where(eq(leads.id, id));
    return (row?.explanation as unknown[] | null | undefined) ?? null;
  },

  async findById(db: Db, id: string): Promise<(LeadRow & { sourceName: string }) | null> {
    const [row] = await db
      .select({ lead: leads, sourceName: sources.name })
      .from(leads)
      .innerJoin(sources, eq(sources.id, leads.sourceId))
      .where(eq(leads.id, id));
    return row ? { ...row.lead, sourceName: row.sourceName } : null;
  },

  async matchesOf(db: Db, leadIds: string[]): Promise<MatchRow[]> {
    if (leadIds.length === 0) return [];
    const rows = await db
      .select({
        match: leadMatches,
        buyerName: buyers.name,
        campaignName: campaigns.name,
        sharedPriceCents: campaigns.sharedPriceCents,
      })
      .from(leadMatches)
      .innerJoin(buyers, eq(buyers.id, leadMatches.buyerId))
      .innerJoin(campaigns, eq(campaigns.id, leadMatches.campaignId))
      .where(inArray(leadMatches.leadId, leadIds))
      .orderBy(asc(leadMatches.createdAt), asc(leadMatches.id));
    return rows.map((r) => ({
      ...r.match,
      buyerName: r.buyerName,
      campaignName: r.campaignName,
      sharedPriceCents: r.sharedPriceCents,
    }));
  },
};

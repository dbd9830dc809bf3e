import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { listByName, type NameListFilter, recordsById } from '../../db/records';
import { apiKeys, leadMatches, leads, sourceChannels, sources } from '../../db/schema';

export type SourceRow = typeof sources.$inferSelect;
export type SourceInsert = typeof sources.$inferInsert;
export type ChannelRow = typeof sourceChannels.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** One of a source's latest leads, with whether any buyer kept it. */
export interface SourceLeadRow {
  id: string;
  createdAt: Date;
  name: string | null;
  service: string;
  zip: string;
  channel: string | null;
  costCents: number;
  priceCents: number;
  test: boolean;
  sold: boolean;
}

const apiKeyRecords = recordsById(apiKeys);

export const sourcesRepo = {
  ...recordsById(sources),

  list(db: Db, filter: NameListFilter): Promise<{ rows: SourceRow[]; total: number }> {
    return listByName(db, sources, filter);
  },

  /** The channels of several sources, in name order. */
  async channelsOf(db: Db | Tx, sourceIds: string[]): Promise<ChannelRow[]> {
    if (sourceIds.length === 0) return [];
    return db
      .select()
      .from(sourceChannels)
      .where(inArray(sourceChannels.sourceId, sourceIds))
      .orderBy(asc(sourceChannels.name));
  },

  /** Replaces a source's channels with `channels` (the form sends them whole). */
  async replaceChannels(db: Db | Tx, sourceId: string, channels: Omit<ChannelRow, 'sourceId'>[]): Promise<void> {
    await db.delete(sourceChannels).where(eq(sourceChannels.sourceId, sourceId));
    if (channels.length > 0) await db.insert(sourceChannels).values(channels.map((c) => ({ ...c, sourceId })));
  },

  async apiKeysOf(db: Db | Tx, sourceId: string): Promise<ApiKeyRow[]> {
    return db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.sourceId, sourceId))
      .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  },

  insertApiKey: apiKeyRecords.insert,
  updateApiKey: apiKeyRecords.update,

  /** The source's latest leads, newest first, with "sold" meaning a match no buyer rejected. */
  async latestLeads(db: Db, sourceId: string, limit: number): Promise<SourceLeadRow[]> {
    return db
      .select({
        id: leads.id,
        createdAt: leads.createdAt,
        name: leads.name,
        service: leads.service,
        zip: leads.zip,
        channel: leads.channel,
        costCents: leads.costCents,
        priceCents: leads.priceCents,
        test: leads.test,
        sold: sql<boolean>`exists (select 1 from ${leadMatches} where ${and(
          eq(leadMatches.leadId, leads.id),
          eq(leadMatches.rejected, false),
        )})`,
      })
      .from(leads)
      .where(eq(leads.sourceId, sourceId))
      .orderBy(desc(leads.createdAt), desc(leads.id))
      .limit(limit);
  },
};

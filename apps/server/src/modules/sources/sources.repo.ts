import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { listByName, type NameListFilter } from '../../db/records';
import { apiKeys, leadMatches, leads, sourceChannels, sources } from '../../db/schema';

export type SourceRow = typeof sources.$inferSelect;
export type SourceInsert = typeof sources.$inferInsert;
export type ChannelRow = typeof sourceChannels.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type ApiKeyInsert = typeof apiKeys.$inferInsert;

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

export const sourcesRepo = {
  async findById(db: Db | Tx, id: string): Promise<SourceRow | null> {
    const [row] = await db.select().from(sources).where(eq(sources.id, id));
    return row ?? null;
  },

  list(db: Db, filter: NameListFilter): Promise<{ rows: SourceRow[]; total: number }> {
    return listByName(db, sources, filter);
  },

  async insert(db: Db | Tx, row: SourceInsert): Promise<SourceRow> {
    const [inserted] = await db.insert(sources).values(row).returning();
    return inserted as SourceRow;
  },

  async update(db: Db | Tx, id: string, changes: Partial<SourceInsert>): Promise<SourceRow | null> {
    const [row] = await db.update(sources).set(changes).where(eq(sources.id, id)).returning();
    return row ?? null;
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
  async replaceChannels(tx: Tx, sourceId: string, channels: Omit<ChannelRow, 'sourceId'>[]): Promise<void> {
    await tx.delete(sourceChannels).where(eq(sourceChannels.sourceId, sourceId));
    if (channels.length > 0) await tx.insert(sourceChannels).values(channels.map((c) => ({ ...c, sourceId })));
  },

  async apiKeysOf(db: Db | Tx, sourceId: string): Promise<ApiKeyRow[]> {
    return db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.sourceId, sourceId))
      .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  },

  async insertApiKey(db: Db | Tx, row: ApiKeyInsert): Promise<ApiKeyRow> {
    const [inserted] = await db.insert(apiKeys).values(row).returning();
    return inserted as ApiKeyRow;
  },

  async updateApiKey(db: Db | Tx, id: string, changes: Partial<ApiKeyInsert>): Promise<ApiKeyRow | null> {
    const [row] = await db.update(apiKeys).set(changes).where(eq(apiKeys.id, id)).returning();
    return row ?? null;
  },

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

import { and, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client';
import { buyers, optOuts, suppressionEntries, suppressionLists } from '../../db/schema';

export type SuppressionListRow = typeof suppressionLists.$inferSelect & { buyerName?: string | null };
export type OptOutRow = typeof optOuts.$inferSelect;

/** A listed contact as the sale reads it: which list, whose. */
export interface SuppressionHit {
  hash: string;
  listId: string;
  listName: string;
  kind: string;
  buyerId: string | null;
}

/** The listed entries with their lists, as hits. */
const selectHits = (db: Db) =>
  db
    .select({
      hash: suppressionEntries.hash,
      listId: suppressionLists.id,
      listName: suppressionLists.name,
      kind: suppressionLists.kind,
      buyerId: suppressionLists.buyerId,
    })
    .from(suppressionEntries)
    .innerJoin(suppressionLists, eq(suppressionLists.id, suppressionEntries.listId));

const listColumns = {
  id: suppressionLists.id,
  buyerId: suppressionLists.buyerId,
  name: suppressionLists.name,
  kind: suppressionLists.kind,
  purpose: suppressionLists.purpose,
  system: suppressionLists.system,
  entryCount: suppressionLists.entryCount,
  createdAt: suppressionLists.createdAt,
  updatedAt: suppressionLists.updatedAt,
  buyerName: buyers.name,
};

export const suppressionRepo = {
  /** Every list (scope undefined), or one buyer's own lists. */
  lists(db: Db, buyerId: string | undefined): Promise<SuppressionListRow[]> {
    return db
      .select(listColumns)
      .from(suppressionLists)
      .leftJoin(buyers, eq(buyers.id, suppressionLists.buyerId))
      .where(buyerId === undefined ? undefined : eq(suppressionLists.buyerId, buyerId))
      .orderBy(suppressionLists.name);
  },

  async list(db: Db | Tx, id: string): Promise<SuppressionListRow | null> {
    const [row] = await db
      .select(listColumns)
      .from(suppressionLists)
      .leftJoin(buyers, eq(buyers.id, suppressionLists.buyerId))
      .where(eq(suppressionLists.id, id));
    return row ?? null;
  },

  /** The scope's own list of this kind kept by the exchange (opt-outs and erasures), if made. */
  async systemList(db: Db | Tx, buyerId: string | null, kind: string): Promise<SuppressionListRow | null> {
    const [row] = await db
      .select()
      .from(suppressionLists)
      .where(
        and(
          buyerId === null ? isNull(suppressionLists.buyerId) : eq(suppressionLists.buyerId, buyerId),
          eq(suppressionLists.kind, kind),
          eq(suppressionLists.system, true),
        ),
      );
    return row ?? null;
  },

  async insertList(db: Db | Tx, row: typeof suppressionLists.$inferInsert): Promise<void> {
    await db.insert(suppressionLists).values(row);
  },

  async updateList(db: Db, id: string, set: Partial<typeof suppressionLists.$inferInsert>): Promise<void> {
    await db.update(suppressionLists).set(set).where(eq(suppressionLists.id, id));
  },

  async deleteList(db: Db, id: string): Promise<void> {
    await db.delete(suppressionLists).where(eq(suppressionLists.id, id));
  },

  /** Adds hashes to a list, skipping those it holds; answers how many were added. Keeps the list's count. */
  async addEntries(
    db: Db | Tx,
    listId: string,
    hashes: readonly string[],
    meta: { source: string; reason: string | null; at: Date },
  ): Promise<number> {
    if (hashes.length === 0) return 0;
    const added = await db.execute(sql`
      with added as (
        insert into suppression_entries (list_id, hash, source, reason, created_at)
        select ${listId}, h, ${meta.source}, ${meta.reason}, ${meta.at}
        from unnest(${`{${hashes.join(',')}}`}::text[]) as h
        on conflict do nothing
        returning 1
      ), counted as (
        update suppression_lists set entry_count = entry_count + (select count(*) from added), updated_at = ${meta.at}
        where id = ${listId}
      )
      select count(*)::int as n from added`);
    return Number(rowsOf<{ n: number }>(added)[0]?.n ?? 0);
  },

  async removeEntry(db: Db, listId: string, hash: string, at: Date): Promise<boolean> {
    const removed = await db
      .delete(suppressionEntries)
      .where(and(eq(suppressionEntries.listId, listId), eq(suppressionEntries.hash, hash)))
      .returning({ hash: suppressionEntries.hash });
    if (removed.length === 0) return false;
    await db
      .update(suppressionLists)
      .set({ entryCount: sql`${suppressionLists.entryCount} - 1`, updatedAt: at })
      .where(eq(suppressionLists.id, listId));
    return true;
  },

  async hasEntry(db: Db, listId: string, hash: string): Promise<boolean> {
    const rows = await db
      .select({ hash: suppressionEntries.hash })
      .from(suppressionEntries)
      .where(and(eq(suppressionEntries.listId, listId), eq(suppressionEntries.hash, hash)));
    return rows.length > 0;
  },

  /** Every list holding one of these hashes (the hash index, one query). */
  async hits(db: Db, hashes: readonly string[]): Promise<SuppressionHit[]> {
    if (hashes.length === 0) return [];
    return selectHits(db).where(sql`${suppressionEntries.hash} in ${hashes}`);
  },

  /** Every entry of every ZIP list (at most ~42,000 ZIPs a list): the ping's check reads them from memory. */
  zipEntries(db: Db): Promise<SuppressionHit[]> {
    return selectHits(db).where(eq(suppressionLists.kind, 'zip'));
  },

  async insertOptOut(db: Db | Tx, row: typeof optOuts.$inferInsert): Promise<void> {
    await db.insert(optOuts).values(row);
  },

  optOuts(db: Db, recordedByBuyerId: string | undefined, limit: number): Promise<OptOutRow[]> {
    return (
      db
        .select()
        .from(optOuts)
        // A buyer reads those it recorded and those it was told of (its inbox when it has no channel).
        .where(
          recordedByBuyerId === undefined
            ? undefined
            : or(
                eq(optOuts.recordedByBuyerId, recordedByBuyerId),
                sql`${recordedByBuyerId} = any(${optOuts.notifiedBuyerIds})`,
              ),
        )
        .orderBy(desc(optOuts.createdAt))
        .limit(limit)
    );
  },

  /** The buyers (and their lead ids) that bought a lead with this phone or email since `since`. */
  async buyersOfContact(
    db: Db,
    contact: { phone?: string; email?: string },
    since: Date,
  ): Promise<{ buyerId: string; leadIds: string[] }[]> {
    const byPhone = contact.phone ? sql`l.phone = ${contact.phone}` : sql`false`;
    const byEmail = contact.email ? sql`l.email = ${contact.email}` : sql`false`;
    const result = await db.execute(sql`
      select m.buyer_id, array_agg(l.id order by l.created_at) as lead_ids
      from leads l join lead_matches m on m.lead_id = l.id
      where (${byPhone} or ${byEmail}) and l.created_at >= ${since}
      group by m.buyer_id`);
    return rowsOf<{ buyer_id: string; lead_ids: string[] }>(result).map((r) => ({
      buyerId: r.buyer_id,
      leadIds: r.lead_ids,
    }));
  },
};

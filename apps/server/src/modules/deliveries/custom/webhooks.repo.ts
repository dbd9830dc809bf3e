import { and, asc, count, desc, eq, getTableColumns, ilike, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client';
import { likeContains } from '../../../db/records';
import { buyers, webhooks } from '../../../db/schema';

export type WebhookInsert = typeof webhooks.$inferInsert;
/** A custom delivery with its buyer's name. */
export type WebhookRow = typeof webhooks.$inferSelect & { buyerName: string };

export interface WebhookListFilter {
  /** Only this buyer's deliveries (a buyer's own list, or the admin's filter). */
  buyerId?: string;
  name?: string;
  buyerName?: string;
  tag?: string;
  sort?: 'name' | 'buyer_name' | 'status' | 'ts';
  order?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const withBuyerName = { ...getTableColumns(webhooks), buyerName: buyers.name };

const SORT_COLUMNS = {
  name: webhooks.name,
  buyer_name: buyers.name,
  status: webhooks.status,
  ts: webhooks.createdAt,
} as const;

export const webhooksRepo = {
  async findById(db: Db | Tx, id: string): Promise<WebhookRow | null> {
    const [row] = await db
      .select(withBuyerName)
      .from(webhooks)
      .innerJoin(buyers, eq(buyers.id, webhooks.buyerId))
      .where(eq(webhooks.id, id));
    return row ?? null;
  },

  async list(db: Db, filter: WebhookListFilter): Promise<{ rows: WebhookRow[]; total: number }> {
    const conditions: SQL[] = [];
    if (filter.buyerId !== undefined) conditions.push(eq(webhooks.buyerId, filter.buyerId));
    if (filter.name) conditions.push(ilike(webhooks.name, likeContains(filter.name)));
    if (filter.buyerName) conditions.push(ilike(buyers.name, likeContains(filter.buyerName)));
    if (filter.tag) conditions.push(sql`${filter.tag} = any(${webhooks.tags})`);
    const where = conditions.length ? and(...conditions) : undefined;
    const direction = filter.order === 'desc' ? desc : asc;
    const column = SORT_COLUMNS[filter.sort ?? 'name'];
    const [rows, totals] = await Promise.all([
      db
        .select(withBuyerName)
        .from(webhooks)
        .innerJoin(buyers, eq(buyers.id, webhooks.buyerId))
        .where(where)
        .orderBy(direction(column), asc(webhooks.name), asc(webhooks.id))
        .limit(filter.limit)
        .offset(filter.offset),
      db.select({ n: count() }).from(webhooks).innerJoin(buyers, eq(buyers.id, webhooks.buyerId)).where(where),
    ]);
    return { rows, total: totals[0]?.n ?? 0 };
  },

  /** A buyer's live custom deliveries, oldest first: the ones a sale to it runs. */
  async liveOfBuyer(db: Db | Tx, buyerId: string): Promise<WebhookRow[]> {
    return db
      .select(withBuyerName)
      .from(webhooks)
      .innerJoin(buyers, eq(buyers.id, webhooks.buyerId))
      .where(and(eq(webhooks.buyerId, buyerId), eq(webhooks.status, 'live')))
      .orderBy(asc(webhooks.createdAt), asc(webhooks.id));
  },

  async buyerName(db: Db | Tx, buyerId: string): Promise<string | null> {
    const [row] = await db.select({ name: buyers.name }).from(buyers).where(eq(buyers.id, buyerId));
    return row?.name ?? null;
  },

  async insert(db: Db | Tx, row: WebhookInsert): Promise<void> {
    await db.insert(webhooks).values(row);
  },

  async update(db: Db | Tx, id: string, changes: Partial<WebhookInsert>): Promise<void> {
    await db.update(webhooks).set(changes).where(eq(webhooks.id, id));
  },

  /** Keeps a delivery's last failure, or clears it after a success; an older outcome never overwrites a newer failure. */
  async noteOutcome(db: Db, id: string, failure: string | null, at: Date): Promise<void> {
    await db
      .update(webhooks)
      .set({ lastFailure: failure, lastFailureAt: failure === null ? null : at })
      .where(
        and(
          eq(webhooks.id, id),
          sql`(${webhooks.lastFailureAt} is null or ${webhooks.lastFailureAt} <= ${at.toISOString()}::timestamptz)`,
        ),
      );
  },
};

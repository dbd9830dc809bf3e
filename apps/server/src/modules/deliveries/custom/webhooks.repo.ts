import { and, asc, count, eq, getTableColumns, ilike, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../../db/client';
import { likeContains, pageWithTotal, sortedBy } from '../../../db/records';
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

/** Custom deliveries with their buyer's name (`WebhookRow`), to filter. */
const selectWithBuyerName = (db: Db | Tx) =>
  db.select(withBuyerName).from(webhooks).innerJoin(buyers, eq(buyers.id, webhooks.buyerId));

const SORT_COLUMNS = {
  name: webhooks.name,
  buyer_name: buyers.name,
  status: webhooks.status,
  ts: webhooks.createdAt,
} as const;

export const webhooksRepo = {
  async findById(db: Db | Tx, id: string): Promise<WebhookRow | null> {
    const [row] = await selectWithBuyerName(db).where(eq(webhooks.id, id));
    return row ?? null;
  },

  list(db: Db, filter: WebhookListFilter): Promise<{ rows: WebhookRow[]; total: number }> {
    const where = and(
      filter.buyerId === undefined ? undefined : eq(webhooks.buyerId, filter.buyerId),
      filter.name ? ilike(webhooks.name, likeContains(filter.name)) : undefined,
      filter.buyerName ? ilike(buyers.name, likeContains(filter.buyerName)) : undefined,
      filter.tag ? sql`${filter.tag} = any(${webhooks.tags})` : undefined,
    );
    return pageWithTotal(
      selectWithBuyerName(db)
        .where(where)
        .orderBy(...sortedBy(SORT_COLUMNS[filter.sort ?? 'name'], filter.order, webhooks.name, webhooks.id))
        .limit(filter.limit)
        .offset(filter.offset),
      db.select({ n: count() }).from(webhooks).innerJoin(buyers, eq(buyers.id, webhooks.buyerId)).where(where),
    );
  },

  /** A buyer's live custom deliveries, oldest first: the ones a sale to it runs. */
  async liveOfBuyer(db: Db | Tx, buyerId: string): Promise<WebhookRow[]> {
    return selectWithBuyerName(db)
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

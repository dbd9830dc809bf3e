import { and, count, desc, eq, gte, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { pageWithTotal } from '../../db/records';
import { messages } from '../../db/schema';

export type MessageRow = typeof messages.$inferSelect;
export type MessageInsert = typeof messages.$inferInsert;

export const messagesRepo = {
  /** Visible messages since `since`, newest first. */
  async page(db: Db, since: Date, offset: number, limit: number): Promise<{ rows: MessageRow[]; total: number }> {
    const where = and(isNull(messages.hiddenAt), gte(messages.createdAt, since));
    return pageWithTotal(
      db
        .select()
        .from(messages)
        .where(where)
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(messages).where(where),
    );
  },

  /** Raises an admin message (DESIGN.md §11: the system's, never lost). */
  async insert(db: Db | Tx, row: MessageInsert): Promise<void> {
    await db.insert(messages).values(row);
  },

  /** Hides (or shows again) the messages of `ids`; answers how many there were. */
  async hideMany(db: Db, ids: readonly string[], at: Date | null): Promise<number> {
    const rows = await db
      .update(messages)
      .set({ hiddenAt: at })
      .where(inArray(messages.id, [...ids]))
      .returning({ id: messages.id });
    return rows.length;
  },

  async hide(db: Db, id: string, at: Date | null): Promise<MessageRow | null> {
    const [row] = await db.update(messages).set({ hiddenAt: at }).where(eq(messages.id, id)).returning();
    return row ?? null;
  },
};

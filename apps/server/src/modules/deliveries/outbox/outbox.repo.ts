import { count, desc } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { pageWithTotal } from '../../../db/records';
import { outbox } from '../../../db/schema';
import { readSetting, writeSetting } from '../../../db/settings';

export type OutboxRow = typeof outbox.$inferSelect;

export const outboxRepo = {
  async insert(db: Db, row: typeof outbox.$inferInsert): Promise<OutboxRow> {
    const [inserted] = await db.insert(outbox).values(row).returning();
    return inserted as OutboxRow;
  },

  async page(db: Db, offset: number, limit: number): Promise<{ rows: OutboxRow[]; total: number }> {
    return pageWithTotal(
      db.select().from(outbox).orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(limit).offset(offset),
      db.select({ n: count() }).from(outbox),
    );
  },

  setting: readSetting,

  saveSetting: writeSetting,
};

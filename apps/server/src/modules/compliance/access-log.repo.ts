import { and, count, desc, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { likeContains, pageWithTotal } from '../../db/records';
import { accessLog, user } from '../../db/schema';

export type AccessLogRow = typeof accessLog.$inferSelect;
export type AccessLogInsert = typeof accessLog.$inferInsert;

/** The access log's filter as the repository takes it: the user's name or email, the action, a span, a lead. */
export interface AccessLogWhere {
  user?: string;
  action?: string;
  from?: Date;
  to?: Date;
  lead?: string;
}

/** An entry with its user's name and email (null for the system's). */
export type AccessLogListRow = AccessLogRow & { userName: string | null; userEmail: string | null };

function whereOf(f: AccessLogWhere): SQL | undefined {
  return and(
    f.user
      ? or(
          ilike(user.name, likeContains(f.user)),
          ilike(user.email, likeContains(f.user)),
          eq(accessLog.userId, f.user),
        )
      : undefined,
    f.action ? eq(accessLog.action, f.action) : undefined,
    f.from ? gte(accessLog.at, f.from) : undefined,
    f.to ? lt(accessLog.at, f.to) : undefined,
    f.lead ? sql`${accessLog.leadIds} @> array[${f.lead}]::text[]` : undefined,
  );
}

const listColumns = {
  id: accessLog.id,
  at: accessLog.at,
  userId: accessLog.userId,
  role: accessLog.role,
  action: accessLog.action,
  leadIds: accessLog.leadIds,
  detail: accessLog.detail,
  address: accessLog.address,
  userName: user.name,
  userEmail: user.email,
};

/** The access log: inserts only (the table's trigger refuses any change or delete). */
export const accessLogRepo = {
  async insert(db: Db | Tx, row: AccessLogInsert): Promise<void> {
    await db.insert(accessLog).values(row);
  },

  /** A page of entries, newest first, with how many match in all. */
  page(db: Db, f: AccessLogWhere, window: { offset: number; limit: number }) {
    const where = whereOf(f);
    return pageWithTotal<AccessLogListRow>(
      db
        .select(listColumns)
        .from(accessLog)
        .leftJoin(user, eq(user.id, accessLog.userId))
        .where(where)
        .orderBy(desc(accessLog.at), desc(accessLog.id))
        .limit(window.limit)
        .offset(window.offset),
      db.select({ n: count() }).from(accessLog).leftJoin(user, eq(user.id, accessLog.userId)).where(where),
    );
  },

  /** A batch of entries after the cursor (newest first), for the streamed export. */
  batch(db: Db, f: AccessLogWhere, limit: number, after?: { at: Date; id: string }): Promise<AccessLogListRow[]> {
    return db
      .select(listColumns)
      .from(accessLog)
      .leftJoin(user, eq(user.id, accessLog.userId))
      .where(
        and(
          whereOf(f),
          after
            ? sql`(${accessLog.at}, ${accessLog.id}) < (${after.at.toISOString()}::timestamptz, ${after.id})`
            : undefined,
        ),
      )
      .orderBy(desc(accessLog.at), desc(accessLog.id))
      .limit(limit);
  },
};

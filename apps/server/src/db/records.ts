import { asc, count, desc, eq, ilike, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client';
import { user } from './schema';

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
export const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A table of named records: an id, a name and a creation time (buyers, sources). */
export type NamedTable = PgTable & { id: PgColumn; name: PgColumn; createdAt: PgColumn };

/** A page of a list of named records: a name to search for, the sort, and the rows to skip and take. */
export interface NameListFilter {
  name?: string;
  sort?: 'name' | 'ts';
  order?: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/**
 * A list's order: `column` in the direction asked (ascending unless `desc`), then each of `ties`
 * ascending, the last one unique, so that pages never overlap or skip a row.
 */
export function sortedBy(column: PgColumn | SQL, order: 'asc' | 'desc' | undefined, ...ties: PgColumn[]): SQL[] {
  return [(order === 'desc' ? desc : asc)(column), ...ties.map((tie) => asc(tie))];
}

/**
 * One page of a list with how many rows match in all: the page's query (its filter and window) and
 * the count of the same filter, run together.
 */
export async function pageWithTotal<Row>(
  rows: PromiseLike<Row[]>,
  totals: PromiseLike<{ n: number }[]>,
): Promise<{ rows: Row[]; total: number }> {
  const [page, [counted]] = await Promise.all([rows, totals]);
  return { rows: page, total: counted?.n ?? 0 };
}

/**
 * One page of a table's records whose name contains `filter.name` (any case), by name or creation
 * time (`ts`), ties broken by id; and how many records match in all.
 */
export async function listByName<T extends NamedTable>(
  db: Db,
  table: T,
  filter: NameListFilter,
): Promise<{ rows: T['$inferSelect'][]; total: number }> {
  const where = filter.name ? ilike(table.name, likeContains(filter.name)) : undefined;
  const { rows, total } = await pageWithTotal(
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(...sortedBy(filter.sort === 'ts' ? table.createdAt : table.name, filter.order, table.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db
      .select({ n: count() })
      .from(table as PgTable)
      .where(where),
  );
  return { rows: rows as T['$inferSelect'][], total };
}

/** A log's table: each row made at `at`, ties broken by its `id` (erasure requests, deletion list runs). */
export type LogTable = PgTable & { id: PgColumn; at: PgColumn };

/** A log's row with the name of the user who made it: null for none, or a user since deleted. */
export interface WithUserName<Row> {
  record: Row;
  userName: string | null;
}

/** A log's rows, each with the name of the user whose id is in its column `by`. */
export function selectWithUserName<T extends LogTable>(db: Db | Tx, table: T, by: PgColumn) {
  return db
    .select({ record: table as PgTable, userName: user.name })
    .from(table as PgTable)
    .leftJoin(user, eq(user.id, by));
}

/**
 * One page of a log, newest first, each row with the name of the user who made it (`by`: the row's
 * column of the user's id); and how many rows the log holds in all.
 */
export async function newestWithUserName<T extends LogTable>(
  db: Db,
  table: T,
  by: PgColumn,
  window: { offset: number; limit: number },
): Promise<{ rows: WithUserName<T['$inferSelect']>[]; total: number }> {
  const { rows, total } = await pageWithTotal(
    selectWithUserName(db, table, by).orderBy(desc(table.at), desc(table.id)).limit(window.limit).offset(window.offset),
    db.select({ n: count() }).from(table as PgTable),
  );
  return { rows: rows as WithUserName<T['$inferSelect']>[], total };
}

/** A table of records keyed by their own text `id`. */
export type IdTable = PgTable & { id: PgColumn };

/**
 * The plain reads and writes of a table keyed by `id`, each answering the row as stored: find one,
 * insert one, change some of its columns (null where no row has that id).
 */
export function recordsById<T extends IdTable>(table: T) {
  type Row = T['$inferSelect'];
  type Insert = T['$inferInsert'];
  return {
    async findById(db: Db | Tx, id: string): Promise<Row | null> {
      const [row] = (await db
        .select()
        .from(table as PgTable)
        .where(eq(table.id, id))) as Row[];
      return row ?? null;
    },

    async insert(db: Db | Tx, row: Insert): Promise<Row> {
      const [inserted] = await db.insert(table).values(row).returning();
      return inserted as Row;
    },

    async update(db: Db | Tx, id: string, changes: Partial<Insert>): Promise<Row | null> {
      const [row] = (await db.update(table).set(changes).where(eq(table.id, id)).returning()) as Row[];
      return row ?? null;
    },
  };
}

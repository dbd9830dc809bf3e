import { desc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client';
import { newestWithUserName } from '../../db/records';
import { dropRuns } from '../../db/schema';

export type DropRunRow = typeof dropRuns.$inferSelect;

/** A text[] parameter. */
const texts = (values: readonly string[]) => sql`${`{${values.join(',')}}`}::text[]`;

/**
 * California's deletion lists (issue 35 item 3): the runs, the lists' hashes, and the one set-based join
 * of a run's hashes with the leads' (both indexed on the hash).
 */
export const dropRepo = {
  async insertRun(db: Db, row: typeof dropRuns.$inferInsert): Promise<void> {
    await db.insert(dropRuns).values(row);
  },

  async updateRun(db: Db, id: string, change: Partial<typeof dropRuns.$inferInsert>): Promise<void> {
    await db.update(dropRuns).set(change).where(eq(dropRuns.id, id));
  },

  async run(db: Db, id: string): Promise<DropRunRow | null> {
    const [row] = await db.select().from(dropRuns).where(eq(dropRuns.id, id));
    return row ?? null;
  },

  /** Whether a directory's file (name, size, time) was run already. */
  async ranFile(db: Db, fileKey: string): Promise<boolean> {
    const [row] = await db.select({ id: dropRuns.id }).from(dropRuns).where(eq(dropRuns.fileKey, fileKey)).limit(1);
    return Boolean(row);
  },

  /** The last run that finished, or null. */
  async lastDone(db: Db): Promise<DropRunRow | null> {
    const [row] = await db
      .select()
      .from(dropRuns)
      .where(eq(dropRuns.status, 'done'))
      .orderBy(desc(dropRuns.at), desc(dropRuns.id))
      .limit(1);
    return row ?? null;
  },

  /** A page of runs, newest first, with the uploading admin's name. */
  page(db: Db, window: { offset: number; limit: number }) {
    return newestWithUserName(db, dropRuns, dropRuns.userId, window);
  },

  /** Stores a batch of a run's hashes (each hash once, marked with the last run that listed it). */
  async addEntries(db: Db, runId: string, entries: readonly { hash: string; kind: string }[]): Promise<void> {
    if (entries.length === 0) return;
    await db.execute(sql`
      insert into drop_entries (hash, kind, first_run_id, last_run_id)
      select h, k, ${runId}, ${runId} from unnest(${texts(entries.map((e) => e.hash))}, ${texts(entries.map((e) => e.kind))}) as x(h, k)
      on conflict (hash) do update set last_run_id = excluded.last_run_id`);
  },

  /** The leads a run's hashes match: one join on the indexed hash columns, never a row at a time. */
  async matchedLeads(db: Db, runId: string): Promise<string[]> {
    const result = await db.execute(sql`
      select distinct h.lead_id from drop_entries e join lead_drop_hashes h on h.hash = e.hash
      where e.last_run_id = ${runId}`);
    return rowsOf<{ lead_id: string }>(result).map((r) => r.lead_id);
  },

  /**
   * Per run: the leads refused `suppressed` since it whose hashes are on the deletion lists (a listed
   * person posted again). The unsold leads' own index gives those arrived since.
   */
  async refusedSince(db: Db, runs: readonly { id: string; at: Date }[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const run of runs) {
      const [row] = rowsOf<{ n: number }>(
        await db.execute(sql`
          select count(distinct l.id)::int as n from leads l
          join lead_drop_hashes h on h.lead_id = l.id
          join drop_entries e on e.hash = h.hash
          where not l.sold and l.created_at >= ${run.at.toISOString()}::timestamptz
            and l.answer->>'reason' = 'suppressed'`),
      );
      out.set(run.id, row?.n ?? 0);
    }
    return out;
  },
};

import { sql } from 'drizzle-orm';
import type { TestApp } from './harness';

/**
 * Waits until at least `n` connections of the test's database wait on a lock (PostgreSQL only): the
 * requests a test holds back behind a lock of its own have reached it, so the race is forced, not
 * hoped for. Fails after 10 s, naming what it waited for.
 */
export async function untilWaitingOnLocks(t: TestApp, n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rows = await t.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and state = 'active'`,
    );
    if (((rows as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0) >= n) return;
    if (Date.now() > deadline) throw new Error(`never saw ${n} connection(s) waiting on a lock`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

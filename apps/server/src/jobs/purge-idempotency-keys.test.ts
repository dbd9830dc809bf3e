import { asc, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness';
import { eventually } from '../../test/receivers';
import { idempotencyKeys } from '../db/schema';
import { openBoss } from './boss';
import { PURGE_IDEMPOTENCY_CRON, PURGE_IDEMPOTENCY_QUEUE } from './purge-idempotency-keys';

/** DESIGN.md §4: an Idempotency-Key is replayed for 24 hours; a pg-boss job deletes the keys past them. */

const HOUR = 3_600_000;

const t = useTestApp({ JOB_POLL_SECONDS: 0.5 });
beforeAll(async () => {
  await t.deps.jobs.start();
});

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

describe('the purge of Idempotency-Keys past 24 hours', () => {
  it('is scheduled hourly on pg-boss when the jobs start', async () => {
    const schedules = rowsOf<{ name: string; cron: string }>(
      await t.database.db.execute(sql`select name, cron from pgboss.schedule where name = ${PURGE_IDEMPOTENCY_QUEUE}`),
    );
    expect(schedules).toEqual([{ name: PURGE_IDEMPOTENCY_QUEUE, cron: PURGE_IDEMPOTENCY_CRON }]);
    expect(PURGE_IDEMPOTENCY_CRON).toBe('17 * * * *');
  });

  it('deletes, when its job runs, the keys 24 hours old or older and keeps those just inside 24 hours', async () => {
    t.clock.set('2026-05-05T12:00:00Z');
    const now = t.clock.now().getTime();
    const key = (name: string, ageMs: number) => ({
      apiKeyId: 'key_purge',
      key: name,
      statusCode: 200,
      body: { ok: true },
      createdAt: new Date(now - ageMs),
    });
    await t.database.db
      .insert(idempotencyKeys)
      .values([
        key('two-days', 48 * HOUR),
        key('a-second-past', 24 * HOUR + 1_000),
        key('exactly-24h', 24 * HOUR),
        key('a-second-inside', 24 * HOUR - 1_000),
        key('new', 0),
      ]);

    // The job as the schedule sends it: through the queue, run by the app's own worker.
    const sender = openBoss(t.database.db, { maintenanceSeconds: 60 });
    const jobId = await sender.send(PURGE_IDEMPOTENCY_QUEUE, {});
    if (!jobId) throw new Error('the purge job was not queued');
    const job = await eventually(
      async () => {
        const found = await sender.getJobById(PURGE_IDEMPOTENCY_QUEUE, jobId);
        return found && ['completed', 'failed'].includes(found.state) ? found : null;
      },
      20_000,
      'the purge job to finish',
    );
    expect(job?.state).toBe('completed');

    const left = await t.database.db
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .orderBy(asc(idempotencyKeys.createdAt));
    expect(left.map((r) => r.key)).toEqual(['a-second-inside', 'new']);
  });
});

import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import type { Db } from '../db/client';

/** Intervals of pg-boss's housekeeping: expiry of jobs left active by a crashed worker is found this often. */
export interface BossTiming {
  maintenanceSeconds: number;
}

/**
 * pg-boss 10 on the database the app already uses (DESIGN.md §2): the node-postgres pool as it is,
 * or PGlite through `executeSql` (its `query()` takes one statement with parameters, `exec()` the
 * multi-statement scripts pg-boss migrates with).
 */
export function createBoss(db: Db, timing: BossTiming): PgBoss {
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  const isPool = typeof (client as pg.Pool).connect === 'function' && 'totalCount' in (client as object);
  const executeSql = isPool
    ? (text: string, values: unknown[] = []) => (client as pg.Pool).query(text, values)
    : async (text: string, values: unknown[] = []) => {
        const pglite = client as PGlite;
        if (values.length > 0) return { rows: (await pglite.query(text, values)).rows };
        const results = await pglite.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      };
  return new PgBoss({
    db: { executeSql: executeSql as PgBoss.Db['executeSql'] },
    // Housekeeping as often as the expiry needs it, so a crashed worker's job runs again soon.
    maintenanceIntervalSeconds: Math.max(1, Math.round(timing.maintenanceSeconds)),
  });
}

/** A job that runs on a cron schedule: its queue, when it runs, and how pg-boss retries it. */
export interface ScheduledJob {
  queue: string;
  cron: string;
  retryLimit: number;
  retryDelaySeconds: number;
  expireInSeconds: number;
  /** Also sent once when a process starts its jobs (a catch-up that must not wait for the first tick). */
  runAtStart?: boolean;
  run: () => Promise<unknown>;
}

/**
 * Creates a scheduled job's queue, its schedule and its worker on a started pg-boss. Every process
 * running jobs calls this: the schedule is one row (upserted), and pg-boss sends each cron tick once.
 */
export async function startScheduledJob(
  boss: PgBoss,
  job: ScheduledJob,
  pollingIntervalSeconds: number,
): Promise<void> {
  await boss.createQueue(job.queue, {
    name: job.queue,
    retryLimit: job.retryLimit,
    retryDelay: job.retryDelaySeconds,
    expireInSeconds: job.expireInSeconds,
  });
  await boss.schedule(job.queue, job.cron);
  await boss.work(job.queue, { pollingIntervalSeconds }, async () => {
    await job.run();
  });
  if (job.runAtStart) await boss.send(job.queue, {});
}

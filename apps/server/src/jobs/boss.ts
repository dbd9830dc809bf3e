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
  const running = new InFlight();
  const runSql = isPool
    ? (text: string, values: unknown[] = []) => (client as pg.Pool).query(text, values)
    : async (text: string, values: unknown[] = []) => {
        const pglite = client as PGlite;
        if (values.length > 0) return { rows: (await pglite.query(text, values)).rows };
        const results = await pglite.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      };
  const executeSql = (text: string, values?: unknown[]) => running.track(runSql(text, values));
  const boss = new PgBoss({
    db: { executeSql: executeSql as PgBoss.Db['executeSql'] },
    // Housekeeping as often as the expiry needs it, so a crashed worker's job runs again soon.
    maintenanceIntervalSeconds: Math.max(1, Math.round(timing.maintenanceSeconds)),
  });
  inFlightOf.set(boss, running);
  return boss;
}

/**
 * What still runs on a pg-boss's behalf: its SQL and the handlers of its workers. pg-boss 10's
 * `stop` waits only for jobs its workers hold: a fetch still on its way when it stops hands its
 * jobs to the handler afterwards, and pg-boss then completes or fails them without awaiting it.
 * Were the database closed by then, that SQL would reject with nobody to catch it.
 */
class InFlight {
  private count = 0;
  private waiters: Array<() => void> = [];

  async track<T>(work: Promise<T>): Promise<T> {
    this.count += 1;
    try {
      return await work;
    } finally {
      this.count -= 1;
      if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /**
   * Resolves once nothing runs, checked again after the pending callbacks of the event loop (a
   * fetch's answer starts its handler, a handler's end starts its completion, in the same turn).
   */
  async idle(): Promise<void> {
    for (;;) {
      if (this.count > 0) await new Promise<void>((wake) => this.waiters.push(wake));
      await new Promise((next) => setImmediate(next));
      if (this.count === 0) return;
    }
  }
}

const inFlightOf = new WeakMap<PgBoss, InFlight>();

/** `boss.work`, with the handler counted, so `stopBoss` waits for a job fetched as pg-boss stopped. */
export function work<T>(
  boss: PgBoss,
  queue: string,
  options: PgBoss.WorkOptions,
  handler: (jobs: PgBoss.Job<T>[]) => Promise<unknown>,
): Promise<string> {
  const running = inFlightOf.get(boss);
  return boss.work<T>(queue, options, (jobs) => (running ? running.track(handler(jobs)) : handler(jobs)));
}

/**
 * Stops a pg-boss made by `createBoss` (its database stays open: it is the app's) and returns once
 * none of its SQL or handlers runs any more, or after `timeoutMs`, so the database can then close.
 */
export async function stopBoss(boss: PgBoss, timeoutMs: number): Promise<void> {
  const started = Date.now();
  await boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: false });
  const running = inFlightOf.get(boss);
  if (!running) return;
  let timer: NodeJS.Timeout | undefined;
  const left = Math.max(1000, timeoutMs - (Date.now() - started));
  await Promise.race([running.idle(), new Promise((done) => (timer = setTimeout(done, left)))]);
  clearTimeout(timer);
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
  await work(boss, job.queue, { pollingIntervalSeconds }, async () => {
    await job.run();
  });
  if (job.runAtStart) await boss.send(job.queue, {});
}

import { createRequire } from 'node:module';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import PgBoss from 'pg-boss';
import { type Db, rowsOf, type Tx } from '../db/client';
import { isDatabaseUnavailable } from '../db/unavailable';
import type { Logger } from '../lib/logger';

/** Intervals of pg-boss's housekeeping: expiry of jobs left active by a crashed worker is found this often. */
export interface BossTiming {
  maintenanceSeconds: number;
}

/** pg-boss's own SQL texts (its plans module has no types; it is CommonJS, loaded as such). */
const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as Record<
  'completeJobs' | 'failJobsById',
  (schema: string) => string
>;
/**
 * The statements a pg-boss worker records a job's outcome with, after its handler: pg-boss runs them
 * without awaiting them, so a rejection there has nobody to catch it (with the database refusing
 * connections, it was an unhandled rejection that ended the process).
 */
const OUTCOME_SQL = new Set([plans.completeJobs('pgboss'), plans.failJobsById('pgboss')]);
/** Waits between tries of recording an outcome while the database is unavailable. */
const OUTCOME_RETRY_MS = { first: 250, max: 2000 };

/**
 * pg-boss 10 on the database the app already uses (DESIGN.md §2): the node-postgres pool as it is,
 * or PGlite through `executeSql` (its `query()` takes one statement with parameters, `exec()` the
 * multi-statement scripts pg-boss migrates with).
 */
export function openBoss(db: Db, timing: BossTiming, logger?: Pick<Logger, 'warn'>): PgBoss {
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
  /**
   * A job's outcome is recorded once the database answers again (a job whose outcome is lost would
   * sit active until its expiry, a minute by default, before it ran again); never rejects.
   */
  async function recordOutcome(text: string, values?: unknown[]) {
    for (let wait = OUTCOME_RETRY_MS.first; ; wait = Math.min(wait * 2, OUTCOME_RETRY_MS.max)) {
      try {
        return await runSql(text, values);
      } catch (error) {
        if (!isDatabaseUnavailable(error) || running.stopping) {
          logger?.warn({ err: error }, 'jobs: a job outcome was not recorded; the job runs again after its expiry');
          // The shape of the statements' own answer (pg-boss reads rows[0].count, un-awaited).
          return { rows: [{ count: '0' }] };
        }
        await running.pause(wait);
      }
    }
  }
  const executeSql = (text: string, values?: unknown[]) =>
    running.track(OUTCOME_SQL.has(text) ? recordOutcome(text, values) : runSql(text, values));
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
  private pauses = new Set<() => void>();
  /** Set by `stopBoss`: retries give up, so the database can close. */
  stopping = false;

  /** Waits `ms`, or less once stopping. */
  pause(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((wake) => {
      const done = () => {
        clearTimeout(timer);
        this.pauses.delete(done);
        wake();
      };
      const timer = setTimeout(done, ms);
      this.pauses.add(done);
    });
  }

  stop(): void {
    this.stopping = true;
    for (const wake of [...this.pauses]) wake();
  }

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

/**
 * A pg-boss `db` running its SQL in a transaction of the app's (`boss.insert(jobs, { db })`), so
 * jobs are sent in the same commit as what decided them. pg-boss's SQL is text with `$n`
 * placeholders; Drizzle numbers its own, so each becomes a parameter of a Drizzle query (an
 * undefined value, which pg-boss passes for a default it leaves to SQL, as null: Drizzle would drop it).
 */
export function bossDbOf(tx: Tx): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const parts = text.split(/\$(\d+)/);
      const query = sql.join(
        parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`)),
      );
      return { rows: rowsOf(await tx.execute(query)) };
    },
  } as PgBoss.Db;
}

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
 * Stops a pg-boss made by `openBoss` (its database stays open: it is the app's) and returns once
 * none of its SQL or handlers runs any more, or after `timeoutMs`, so the database can then close.
 */
export async function stopBoss(boss: PgBoss, timeoutMs: number): Promise<void> {
  const started = Date.now();
  const running = inFlightOf.get(boss);
  // An outcome still waiting for the database is given up now: its job runs again after its expiry.
  running?.stop();
  await boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: false });
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

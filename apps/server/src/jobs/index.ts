import { randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { Tx } from '../db/client';
import { logBackgroundError } from '../db/unavailable';
import { AppError } from '../lib/errors';
import { createLogger, type Logger } from '../lib/logger';
import { type ChannelDeps, createChannels } from '../modules/deliveries/notify/channels';
import {
  createNotifyHandler,
  jobId,
  NOTIFY_QUEUE,
  type NotifyJob,
  notifyJobSchema,
  targetsOf,
} from '../modules/deliveries/notify/notify';
import { notifyRepo } from '../modules/deliveries/notify/notify.repo';
import { statsRollupJob } from '../modules/stats/stats-rollup';
import { bossDbOf, createBoss, type ScheduledJob, startScheduledJob, stopBoss, work } from './boss';
import { idempotencyPurgeJob } from './purge-idempotency-keys';

/** Matches claimed by one dispatcher round. */
const DISPATCH_BATCH = 100;
/** Jobs a notify worker fetches at once; their deliveries run side by side. */
const NOTIFY_BATCH = 10;

/** The channels' needs (database, clock, config, mailer, whitelist, network), and the workers' own. */
export interface JobsDeps extends ChannelDeps {
  /** Where a failed dispatch round or a pg-boss error is reported; errors only by default. */
  logger?: Pick<Logger, 'error' | 'warn'>;
  /** More scheduled jobs of the app's services (the billing run, integrations' refresh, ad spend import). */
  scheduled?: ScheduledJob[];
}

/**
 * The job workers (DESIGN.md §1, §6): pg-boss on the app's database, and the dispatcher that turns
 * sold matches (the sale's transactional outbox: every new match is `pending`) into one notify job
 * per channel and target. Created with the app, started only where jobs run (LEADEX_ROLE all or
 * worker, or a test that wants them).
 */
export function createJobs({
  logger = createLogger({ LOG_LEVEL: 'error' }),
  scheduled = [],
  ...channelDeps
}: JobsDeps) {
  const { db, clock, config } = channelDeps;
  const channels = createChannels(channelDeps);
  const notify = createNotifyHandler({ db, clock, config, channels });
  let boss: PgBoss | null = null;
  /** The notify workers' ids, to wake them when there is work (pg-boss otherwise waits a poll interval). */
  let notifyWorkers: string[] = [];
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let again = false;

  /**
   * One job per target. A custom delivery the sale already tried (inline, DESIGN.md §6) continues
   * its chain at the first retry, after the first backoff delay.
   */
  async function jobsOf(
    tx: Tx,
    matchId: string,
    targets: ReturnType<typeof targetsOf>,
    chain: string,
  ): Promise<PgBoss.JobInsert[]> {
    const jobs: PgBoss.JobInsert[] = [];
    for (const t of targets) {
      const tried = t.channel === 'custom' ? await notifyRepo.targetState(tx, matchId, t.channel, t.target) : null;
      const step = tried && tried.attempts > 0 && chain === 'sale' ? 1 : 0;
      const data: NotifyJob = { matchId, ...t, targets: targets.length, step, chain };
      jobs.push({
        id: jobId(data),
        name: NOTIFY_QUEUE,
        data,
        ...(step > 0 ? { startAfter: `${config.DELIVERY_RETRY_DELAYS_MS[0] ?? 0} milliseconds` } : {}),
      });
    }
    return jobs;
  }

  /**
   * One dispatcher round: claims pending (and stale queued) matches and sends their jobs, a batch per
   * transaction. A round cut short (the database gone mid-way) leaves its batch pending, for the next
   * round, rather than queued without jobs until DELIVERY_STALE_SECONDS have passed.
   */
  async function dispatchOnce(): Promise<number> {
    const b = boss;
    if (!b) return 0;
    let total = 0;
    for (;;) {
      const claimed = await db.transaction(async (tx) => {
        const matches = await notifyRepo.claim(tx, DISPATCH_BATCH, config.DELIVERY_STALE_SECONDS);
        const jobs: PgBoss.JobInsert[] = [];
        for (const m of matches) {
          const targets = targetsOf(m.campaignNotify, m.buyerNotify, m.customIds);
          // No channel configured: the buyer reads the lead in its portal; nothing can fail.
          if (targets.length === 0) await notifyRepo.setStatus(tx, m.id, 'delivered');
          // Fixed job ids: a stale match queued again inserts only the jobs that are not there yet.
          else jobs.push(...(await jobsOf(tx, m.id, targets, 'sale')));
        }
        if (jobs.length > 0) await b.insert(jobs, { db: bossDbOf(tx) });
        return matches.length;
      });
      // Committed: the workers start on these jobs now rather than at their next poll.
      if (claimed > 0) wakeNotifyWorkers(b);
      total += claimed;
      if (claimed < DISPATCH_BATCH) return total;
    }
  }

  function wakeNotifyWorkers(b: PgBoss) {
    for (const id of notifyWorkers) b.notifyWorker(id);
  }

  /** Runs a round now, or once more after the running one (kicks never overlap). */
  function dispatch(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = dispatchOnce()
      .catch((error) => {
        logBackgroundError(logger, error, 'jobs: a dispatch round failed (the next round retries it)');
        return 0;
      })
      .finally(() => {
        running = null;
        if (again && boss) {
          again = false;
          void dispatch();
        }
      });
    return running;
  }

  return {
    /** Starts pg-boss, the notify worker and the dispatcher's timer. */
    async start() {
      if (boss) return;
      // Expired jobs are found by pg-boss's maintenance: run it twice per expiry, at most each minute.
      const maintenanceSeconds = Math.min(60, Math.max(1, Math.floor(config.JOB_EXPIRE_SECONDS / 2)));
      const b = createBoss(db, { maintenanceSeconds }, logger);
      // pg-boss's loops (fetch, maintenance, cron) carry on after an error; unheard, it would end the process.
      b.on('error', (error) => logBackgroundError(logger, error, 'jobs: pg-boss reported an error'));
      await b.start();
      await b.createQueue(NOTIFY_QUEUE, {
        name: NOTIFY_QUEUE,
        // pg-boss's own retries cover a crashed or failed handler; the channels' backoff is ours.
        retryLimit: 5,
        retryDelay: 1,
        expireInSeconds: config.JOB_EXPIRE_SECONDS,
      });
      // pg-boss 10 waits a whole poll interval after every fetch, full or not: one worker would deliver
      // at most NOTIFY_BATCH jobs per JOB_POLL_SECONDS (5 a second by default), far behind the sales
      // after an outage. A worker whose batch came full fetches again at once, and DELIVERY_WORKERS
      // of them run side by side, so one slow buyer's batch does not hold up everyone's deliveries.
      notifyWorkers = [];
      for (let i = 0; i < config.DELIVERY_WORKERS; i++) {
        let id = '';
        id = await work<unknown>(
          b,
          NOTIFY_QUEUE,
          { batchSize: NOTIFY_BATCH, pollingIntervalSeconds: config.JOB_POLL_SECONDS },
          async (jobs) => {
            if (jobs.length === NOTIFY_BATCH) b.notifyWorker(id);
            const results = await Promise.allSettled(
              jobs.map((job) => notify.handle(b, notifyJobSchema.parse(job.data))),
            );
            const failed = results.find((r) => r.status === 'rejected');
            if (failed) throw (failed as PromiseRejectedResult).reason;
          },
        );
        notifyWorkers.push(id);
      }
      for (const job of [idempotencyPurgeJob({ db, clock }), statsRollupJob({ db, clock }), ...scheduled])
        await startScheduledJob(b, job, config.JOB_POLL_SECONDS);
      boss = b;
      timer = setInterval(() => void dispatch(), config.DISPATCH_INTERVAL_MS);
      timer.unref();
      void dispatch();
    },

    /** Stops taking jobs and waits a little for the running ones. */
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      const b = boss;
      boss = null;
      notifyWorkers = [];
      if (running) await running;
      if (b) await stopBoss(b, 5000);
    },

    /** After a sale: delivery starts at once (a cheap call; a no-op where jobs do not run). */
    kick() {
      if (boss) void dispatch();
    },

    /** One dispatcher round now (tests). */
    dispatch,

    /**
     * An admin resends a match's failed channels (DESIGN.md §6): targets never accepted start new
     * chains; one accepted makes the match delivered and billable.
     */
    async resend(leadId: string, matchId: string) {
      const match = await notifyRepo.match(db, leadId, matchId);
      if (!match) throw new AppError('not_found', 'Lead match not found');
      if (match.rejected) throw new AppError('bad_request', 'A rejected match is not delivered');
      const b = boss;
      if (!b) throw new AppError('bad_request', 'Deliveries do not run in this process');
      const targets = targetsOf(match.campaignNotify, match.buyerNotify, match.customIds);
      const failed = [];
      for (const t of targets) {
        if (!(await notifyRepo.targetState(db, matchId, t.channel, t.target)).accepted) failed.push(t);
      }
      if (failed.length === 0) throw new AppError('bad_request', 'Every channel of this match has delivered');
      await notifyRepo.reopenChains(db, matchId);
      await notifyRepo.setStatus(db, matchId, 'queued');
      const chain = randomUUID();
      await b.insert(
        failed.map((t) => {
          const data: NotifyJob = { matchId, ...t, targets: failed.length, step: 0, chain };
          return { id: jobId(data), name: NOTIFY_QUEUE, data };
        }),
      );
      return { queued: failed.length };
    },

    /** Twilio's status callback for a text (DESIGN.md §6: SMS "delivered" is this callback). */
    async smsStatus(sid: string, status: string) {
      const attempt = await notifyRepo.attemptByProviderId(db, sid);
      if (!attempt) return false;
      if (status === 'delivered') {
        await notifyRepo.updateAttempt(db, attempt.id, { accepted: true, response: 'twilio: delivered' });
        await notifyRepo.markDelivered(db, attempt.matchId);
      } else if (status === 'failed' || status === 'undelivered') {
        await notifyRepo.updateAttempt(db, attempt.id, { accepted: false, last: true, response: `twilio: ${status}` });
        const match = await notifyRepo.lead(db, attempt.matchId);
        if (match) {
          const row = await notifyRepo.match(db, match.id, attempt.matchId);
          if (row)
            await notify.undelivered(
              attempt.matchId,
              targetsOf(row.campaignNotify, row.buyerNotify, row.customIds).length,
            );
        }
      } else {
        await notifyRepo.updateAttempt(db, attempt.id, { response: `twilio: ${status}` });
      }
      return true;
    },
  };
}

export type Jobs = ReturnType<typeof createJobs>;

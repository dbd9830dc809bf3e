import type { Db } from '../db/client';
import { rawDb } from '../db/raw';
import { IDEMPOTENCY_TTL_MS, purgeIdempotencyKeys } from '../distribution/sale/sale.repo';
import type { Clock } from '../lib/clock';
import type { ScheduledJob } from './boss';

/** The queue of the purge of Idempotency-Keys past their 24 hours (DESIGN.md §4). */
export const PURGE_IDEMPOTENCY_QUEUE = 'purge-idempotency-keys';
/** Hourly: a key is replayed for 24 hours, so it is gone at most 25 hours after it was first used. */
export const PURGE_IDEMPOTENCY_CRON = '17 * * * *';

export interface PurgeDeps {
  db: Db;
  clock: Clock;
}

/** Deletes every Idempotency-Key past its 24 hours by the injected clock; answers how many. */
export function purgeExpiredIdempotencyKeys({ db, clock }: PurgeDeps): Promise<number> {
  return purgeIdempotencyKeys(rawDb(db), new Date(clock.now().getTime() - IDEMPOTENCY_TTL_MS));
}

/** The purge as a scheduled job (jobs/index.ts starts it). */
export function idempotencyPurgeJob(deps: PurgeDeps): ScheduledJob {
  return {
    queue: PURGE_IDEMPOTENCY_QUEUE,
    cron: PURGE_IDEMPOTENCY_CRON,
    retryLimit: 3,
    retryDelaySeconds: 60,
    expireInSeconds: 600,
    run: () => purgeExpiredIdempotencyKeys(deps),
  };
}

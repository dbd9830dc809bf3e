import type PgBoss from 'pg-boss';
import type { Db } from '../db/client';
import { rawDb } from '../db/raw';
import { IDEMPOTENCY_TTL_MS, purgeIdempotencyKeys } from '../distribution/sale.repo';
import type { Clock } from '../lib/clock';

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

/**
 * Creates the purge's queue, its hourly schedule and its worker on a started pg-boss. Every process
 * running jobs calls this: the schedule is one row (upserted), and pg-boss sends each cron tick once.
 */
export async function startIdempotencyPurge(
  boss: PgBoss,
  deps: PurgeDeps & { pollingIntervalSeconds: number },
): Promise<void> {
  await boss.createQueue(PURGE_IDEMPOTENCY_QUEUE, {
    name: PURGE_IDEMPOTENCY_QUEUE,
    retryLimit: 3,
    retryDelay: 60,
    expireInSeconds: 600,
  });
  await boss.schedule(PURGE_IDEMPOTENCY_QUEUE, PURGE_IDEMPOTENCY_CRON);
  await boss.work(PURGE_IDEMPOTENCY_QUEUE, { pollingIntervalSeconds: deps.pollingIntervalSeconds }, async () => {
    await purgeExpiredIdempotencyKeys(deps);
  });
}

import type PgBoss from 'pg-boss';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { createBillsService } from '../modules/bills/bills.service';

/** The queue of the billing run (DESIGN.md §7). */
export const BILLING_RUN_QUEUE = 'billing-run';
/**
 * Every hour: periods end at midnight New York time, so a bill rolls within the hour after its end and
 * closes within the hour after its grace runs out. A run with nothing due reads one index and ends.
 */
export const BILLING_RUN_CRON = '7 * * * *';

/**
 * Creates the billing run's queue, its hourly schedule and its worker on a started pg-boss. pg-boss
 * sends each tick once, and the run locks each buyer while it works on it, so processes never
 * bill a buyer twice.
 */
export async function startBillingRun(
  boss: PgBoss,
  deps: { db: Db; clock: Clock; pollingIntervalSeconds: number },
): Promise<void> {
  const bills = createBillsService(deps);
  await boss.createQueue(BILLING_RUN_QUEUE, {
    name: BILLING_RUN_QUEUE,
    retryLimit: 3,
    retryDelay: 300,
    expireInSeconds: 1800,
  });
  await boss.schedule(BILLING_RUN_QUEUE, BILLING_RUN_CRON);
  await boss.work(BILLING_RUN_QUEUE, { pollingIntervalSeconds: deps.pollingIntervalSeconds }, async () => {
    await bills.run();
  });
}

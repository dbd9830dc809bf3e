import type { BillsService } from '../modules/bills/bills.service';
import type { ScheduledJob } from './boss';

/** The queue of the billing run (DESIGN.md §7). */
export const BILLING_RUN_QUEUE = 'billing-run';
/**
 * Every hour: periods end at midnight New York time, so a bill rolls within the hour after its end and
 * closes within the hour after its grace runs out. A run with nothing due reads one index and ends.
 */
export const BILLING_RUN_CRON = '7 * * * *';

/**
 * The billing run of the bills service deps.ts built, as a scheduled job (jobs/index.ts starts it). pg-boss sends each tick once, and the
 * run locks each buyer while it works on it, so processes never bill a buyer twice.
 */
export function billingRunJob(bills: Pick<BillsService, 'run'>): ScheduledJob {
  return {
    queue: BILLING_RUN_QUEUE,
    cron: BILLING_RUN_CRON,
    retryLimit: 3,
    retryDelaySeconds: 300,
    expireInSeconds: 1800,
    run: () => bills.run({ doPayments: true }),
  };
}

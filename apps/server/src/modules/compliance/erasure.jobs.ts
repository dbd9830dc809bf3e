import type { ScheduledJob } from '../../jobs/boss';
import type { ErasureService } from './erasure.service';

/** Daily, at night: the retention erasure (off unless the setting gives days). */
export const RETENTION_QUEUE = 'retention-erasure';
export const RETENTION_CRON = '41 3 * * *';
/** Every minute: the erasure notices that failed are tried again (the first try follows the erasure). */
export const ERASURE_NOTICES_QUEUE = 'erasure-notices';

/** The erasure's scheduled jobs (jobs/index.ts starts them). */
export function erasureJobs(erasure: ErasureService): ScheduledJob[] {
  return [
    {
      queue: RETENTION_QUEUE,
      cron: RETENTION_CRON,
      retryLimit: 3,
      retryDelaySeconds: 300,
      expireInSeconds: 3600,
      run: () => erasure.runRetention(),
    },
    {
      queue: ERASURE_NOTICES_QUEUE,
      cron: '* * * * *',
      retryLimit: 0,
      retryDelaySeconds: 60,
      expireInSeconds: 600,
      runAtStart: true,
      run: () => erasure.sendPendingNotices(),
    },
  ];
}

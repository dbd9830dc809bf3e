import type { ScheduledJob } from '../../jobs/boss';
import type { DropService } from './drop.service';

/** Daily: the deletion lists dropped in the configured directory (none set: nothing). */
export const DROP_QUEUE = 'deletion-lists';
export const DROP_CRON = '17 4 * * *';

export function dropJob(drop: DropService): ScheduledJob {
  return {
    queue: DROP_QUEUE,
    cron: DROP_CRON,
    retryLimit: 2,
    retryDelaySeconds: 600,
    expireInSeconds: 3 * 3600,
    run: () => drop.runDirectory(),
  };
}

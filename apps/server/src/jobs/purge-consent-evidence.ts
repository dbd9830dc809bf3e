import type { ComplianceService } from '../modules/compliance/compliance.service';
import type { ScheduledJob } from './boss';

/** The queue of the daily purge of consent evidence past its retention (issue 34 item 3). */
export const PURGE_EVIDENCE_QUEUE = 'purge-consent-evidence';
/** Daily, at 03:41 UTC: a quiet hour. */
export const PURGE_EVIDENCE_CRON = '41 3 * * *';

/** The purge as a scheduled job (jobs/index.ts starts it). */
export function evidencePurgeJob(compliance: Pick<ComplianceService, 'purgeExpired'>): ScheduledJob {
  return {
    queue: PURGE_EVIDENCE_QUEUE,
    cron: PURGE_EVIDENCE_CRON,
    retryLimit: 3,
    retryDelaySeconds: 300,
    expireInSeconds: 3600,
    run: () => compliance.purgeExpired(),
  };
}

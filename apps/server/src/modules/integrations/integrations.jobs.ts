import type { ScheduledJob } from '../../jobs/boss';
import type { AdSpendService } from './ad-spend.service';
import type { IntegrationsService } from './integrations.service';

/** Every 5 minutes: tokens are refreshed 15 minutes ahead of expiry, so a missed round or two costs nothing. */
export const INTEGRATIONS_REFRESH_QUEUE = 'integrations-refresh';
export const INTEGRATIONS_REFRESH_CRON = '*/5 * * * *';

/** Hourly: yesterday's and today's spend, so the day's figure is final once the provider's is. */
export const AD_SPEND_IMPORT_QUEUE = 'ad-spend-import';
export const AD_SPEND_IMPORT_CRON = '23 * * * *';

export function integrationsRefreshJob(integrations: IntegrationsService): ScheduledJob {
  return {
    queue: INTEGRATIONS_REFRESH_QUEUE,
    cron: INTEGRATIONS_REFRESH_CRON,
    retryLimit: 0,
    retryDelaySeconds: 60,
    expireInSeconds: 240,
    run: () => integrations.refreshDue(),
  };
}

export function adSpendImportJob(adSpend: AdSpendService): ScheduledJob {
  return {
    queue: AD_SPEND_IMPORT_QUEUE,
    cron: AD_SPEND_IMPORT_CRON,
    retryLimit: 0,
    retryDelaySeconds: 300,
    expireInSeconds: 1800,
    run: () => adSpend.importAll(),
  };
}

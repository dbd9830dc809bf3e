import { DEFAULT_EXCHANGE_ZONE } from '@leadex/domain';

/**
 * The exchange's time zone (docs/decisions.md "One clock"): bill periods, "Today" and the date ranges,
 * the dashboard's month, caps of campaigns without hours, report days and the CSV's offsets are all
 * counted in it. One value per process, read by rules that cannot wait on the database (the sale's
 * caps, the date ranges); the settings service loads it from the settings table at start, on change,
 * and every few seconds, so every process follows the admin's setting.
 */
let current = DEFAULT_EXCHANGE_ZONE;

/** The exchange's zone now (America/New_York until the admin sets another). */
export const exchangeZone = (): string => current;

/** Sets this process's zone: only the settings service calls this, with a zone it has checked. */
export function useExchangeZone(zone: string): void {
  current = zone;
}

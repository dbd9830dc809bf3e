import {
  canonicalTimeZone,
  DEFAULT_EXCHANGE_ZONE,
  type ExchangeZone,
  exchangeZoneSchema,
  zoneAbbreviation,
} from '@leadex/domain';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { exchangeZone, useExchangeZone } from '../../lib/exchange-zone';
import { statsRollup } from '../stats/stats-rollup';
import { settingsRepo } from './settings.repo';

/** The settings row of the exchange's time zone: `{ zone: "America/New_York" }`. */
export const ZONE_KEY = 'exchange_zone';

/** The exchange-wide settings an admin changes: the exchange's time zone (docs/decisions.md "One clock"). */
export function createSettingsService({ db, clock }: { db: Db; clock: Clock }) {
  const answer = (zone: string): ExchangeZone => ({ zone, abbreviation: zoneAbbreviation(zone, clock.now()) });

  /** The stored zone, or the default when none is stored (or a stored one no longer exists). */
  async function storedZone(): Promise<string> {
    const stored = await settingsRepo.get<{ zone?: string }>(db, ZONE_KEY);
    return (stored?.zone && canonicalTimeZone(stored.zone)) || DEFAULT_EXCHANGE_ZONE;
  }

  async function refreshZone(): Promise<void> {
    useExchangeZone(await storedZone());
  }

  return {
    refreshZone,

    /** GET /api/setting/zone. */
    zone(): ExchangeZone {
      return answer(exchangeZone());
    },

    /** PUT /api/setting/zone: a bad name answers 400 naming the field. */
    async setZone(body: unknown): Promise<ExchangeZone> {
      const parsed = exchangeZoneSchema.safeParse(body);
      if (!parsed.success) throw AppError.fromIssues(parsed.error.issues);
      const zone = canonicalTimeZone(parsed.data.zone) ?? DEFAULT_EXCHANGE_ZONE;
      const changed = zone !== (await storedZone());
      await settingsRepo.save(db, ZONE_KEY, 'exchange', { zone }, clock.now());
      useExchangeZone(zone);
      // The rollup's days are days of the old zone: count them again in the new one.
      if (changed) await statsRollup.clear(db);
      return answer(zone);
    },

    /** Reads the stored zone every `intervalMs`, so a change made through another process reaches this one. */
    watchZone(intervalMs: number, onError: (error: unknown) => void): () => void {
      const timer = setInterval(() => {
        refreshZone().catch(onError);
      }, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;

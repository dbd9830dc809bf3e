import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';
import type { MockableClock } from '../../lib/clock';
import { statsRollup } from '../stats/stats-rollup';
import { simRepo } from './sim.repo';

/** The settings row holding the mock date, as its offset from the real time in milliseconds. */
export const MOCK_DATE_KEY = 'mock_date_offset_ms';

/**
 * The simulator's mock date (admin spec §7 POST /sim/mockDate; DESIGN.md §11): the injected clock's
 * offset, kept in the settings table so every process shares it. A process reads it at start and
 * then every few seconds (`watch`), so a date set through one server moves the workers' billing runs too.
 */
export function createMockDate({ db, clock }: { db: Db; clock: MockableClock }) {
  async function load(): Promise<number> {
    const offset = Number((await simRepo.setting(db, MOCK_DATE_KEY)) ?? 0);
    return Number.isFinite(offset) ? offset : 0;
  }

  return {
    /** Sets the date (the clock runs on from it) or, with null, goes back to the real time. */
    async set(date: Date | null): Promise<void> {
      const offset = date ? date.getTime() - Date.now() : 0;
      if (date) {
        await simRepo.saveSetting(db, MOCK_DATE_KEY, 'sim', offset, new Date());
      } else {
        await db.delete(settings).where(eq(settings.key, MOCK_DATE_KEY));
      }
      clock.mock(offset);
      // The rollup's closed days are closed by the clock: a moved date may open them again.
      await statsRollup.clear(db);
    },

    /** Applies the stored offset to this process's clock. */
    async refresh(): Promise<void> {
      clock.mock(await load());
    },

    /** Refreshes every `intervalMs`; answers the function that stops it. */
    watch(intervalMs: number, onError: (error: unknown) => void): () => void {
      const timer = setInterval(() => {
        this.refresh().catch(onError);
      }, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

export type MockDate = ReturnType<typeof createMockDate>;

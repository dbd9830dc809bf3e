import { randomInt } from 'node:crypto';
import type { SimLeadResult, SimLeads, SimWhitelist } from '@leadex/domain';
import { seedDemo, seedReferenceData } from '../../demo/seed';
import type { AppDeps } from '../../deps';
import { bumpEngineVersion, type EngineInput } from '../../distribution';
import { AppError } from '../../lib/errors';
import { leadSchema } from '../source-api/source-api.schema';
import { type BuyablePair, simRepo } from './sim.repo';
import { simulatedContact } from './simulated-contact';
import { WHITELIST_KEY } from './whitelist';

const EVERY_ENGINE_INPUT: EngineInput[] = [
  'campaigns',
  'buyers',
  'sources',
  'zipsets',
  'settings',
  'services',
  'webhooks',
];
const META = { ip: '127.0.0.1', userAgent: 'Leadex simulator' };

const pick = <T>(list: readonly T[]): T => list[randomInt(list.length)] as T;

/** Shuffles in place (Fisher-Yates), so the aimed leads fall anywhere in the run. */
function shuffle<T>(list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
  return list;
}

/**
 * The simulator's tools that change the exchange (admin spec §2 Simulator; DESIGN.md §11): multiple
 * leads through the real engine, the whitelist, and the database reset. Only outside production.
 */
export function createSimService(deps: AppDeps) {
  const { db, clock, engine, services, mockDate } = deps;

  return {
    /**
     * Sends `count` leads through the engine as random active sources, `hit` of them (rounded) aimed at
     * ZIP and service pairs some live campaign buys, the rest at random ZIPs and services. Yields each
     * lead's outcome as it is known, so the screen shows progress.
     */
    async *leads({ count, hit }: SimLeads): AsyncGenerator<SimLeadResult> {
      const sourceIds = await simRepo.activeSourceIds(db);
      if (sourceIds.length === 0)
        throw new AppError('conflict', 'No source may sell: add a source or lift a hold first');
      const serviceNames = await simRepo.serviceNames(db);
      const pairs = await simRepo.buyablePairs(db);
      const aimed = pairs.length > 0 ? Math.round(count * hit) : 0;
      const randomZips = await simRepo.randomZips(db, count - aimed);
      const targets: Array<BuyablePair & { aimed: boolean }> = shuffle([
        ...Array.from({ length: aimed }, () => ({ ...pick(pairs), aimed: true })),
        ...randomZips.map((zip) => ({ zip, service: pick(serviceNames), aimed: false })),
      ]);
      for (const [index, target] of targets.entries()) {
        const base = { index: index + 1, count: targets.length, ...target };
        try {
          const input = leadSchema.parse({ service: target.service, zip: target.zip, ...simulatedContact() });
          const answer = await services.sourceApi.leadAs(engine.callerFor(pick(sourceIds)), input, META);
          const body = answer.body as {
            ok: boolean;
            status?: string;
            lead_id?: string;
            price?: number;
            reason?: string;
          };
          yield {
            ...base,
            ok: body.ok,
            status: body.status ?? body.reason,
            lead_id: body.lead_id,
            price: body.price,
          };
        } catch (error) {
          yield { ...base, ok: false, message: error instanceof Error ? error.message : String(error) };
        }
      }
    },

    async whitelist(): Promise<SimWhitelist & { _id: string }> {
      const saved = await simRepo.setting<SimWhitelist>(db, WHITELIST_KEY);
      return { _id: WHITELIST_KEY, email: saved?.email ?? [], phone: saved?.phone ?? [] };
    },

    async saveWhitelist(list: SimWhitelist): Promise<SimWhitelist & { _id: string }> {
      await simRepo.saveSetting(db, WHITELIST_KEY, 'sim', list, clock.now());
      return { _id: WHITELIST_KEY, ...list };
    },

    /**
     * Empties the exchange and seeds it again (the demo data when SEED_DEMO is on): the admins stay,
     * signed in; the mock date goes back to the real time; every process reloads the engine.
     */
    async resetDatabase(): Promise<void> {
      await engine.flush();
      await db.transaction(async (tx) => {
        await simRepo.emptyExchange(tx);
        for (const input of EVERY_ENGINE_INPUT) await bumpEngineVersion(tx, input);
      });
      await mockDate?.set(null);
      await seedReferenceData(deps);
      await services.users.ensureAdmin();
      if (deps.config.SEED_DEMO) await seedDemo(deps);
      await engine.reload();
    },
  };
}

export type SimService = ReturnType<typeof createSimService>;

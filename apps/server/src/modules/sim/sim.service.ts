import { randomInt } from 'node:crypto';
import type { SimLead, SimLeadResult, SimLeads, SimPingPost, SimWhitelist } from '@leadex/domain';
import type { Db } from '../../db/client';
import type { Engine } from '../../distribution/engine';
import type { EngineInput } from '../../distribution/engine-version';
import { AppError } from '../../lib/errors';
import { formatMoney } from '../../lib/money';
import type { OutboxService } from '../deliveries/outbox/outbox.service';
import type { LeadsService } from '../leads/leads.service';
import { leadSchema, pingSchema, postSchema } from '../source-api/source-api.schema';
import type { SourceApiService } from '../source-api/source-api.service';
import type { MockDate } from './mock-date';
import { type BuyablePair, simRepo } from './sim.repo';
import { simulatedContact } from './simulated-contact';
import { simulatedFields } from './simulated-fields';

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

/** What a post or a direct lead was answered, in a sentence above its explanation (issue 27). */
type AnsweredBody = { ok?: boolean; status?: string; reason?: string; price?: number };
function answeredOutcome(kind: 'post' | 'lead', body: AnsweredBody) {
  const what = kind === 'post' ? 'The post' : 'The lead';
  if (body.ok && body.status === 'sold')
    return `${what} was answered sold${body.price !== undefined ? ` at $${body.price.toFixed(2)}` : ''}.`;
  return `${what} was answered ${body.reason ?? body.status ?? 'no_match'}: no campaign bought it.`;
}

const pick = <T>(list: readonly T[]): T => list[randomInt(list.length)] as T;

/** Shuffles in place (Fisher-Yates), so the aimed leads fall anywhere in the run. */
function shuffle<T>(list: T[]): T[] {
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
  return list;
}

/** What the simulator works with, given by deps.ts. */
export interface SimServiceDeps {
  db: Db;
  engine: Engine;
  leads: Pick<LeadsService, 'explanationOf' | 'named'>;
  /** Keeps the whitelist the simulator shows and edits. */
  outbox: Pick<OutboxService, 'whitelist' | 'saveWhitelist'>;
  sourceApi: Pick<SourceApiService, 'pingAs' | 'postAs' | 'leadAs'>;
  /** The shared mock date, set back to the real time by the reset; null where the clock cannot move. */
  mockDate: MockDate | null;
  /** Seeds the emptied exchange again, as a start does: reference data, the admin, the demo when on. */
  reseed: () => Promise<void>;
}

/**
 * The simulator's tools that change the exchange (admin spec §2 Simulator; DESIGN.md §11): multiple
 * leads through the real engine, the whitelist, and the database reset. Only outside production.
 */
export function createSimService({ db, engine, leads, outbox, sourceApi, mockDate, reseed }: SimServiceDeps) {
  const explanationOf = async (leadId: unknown) => (typeof leadId === 'string' ? leads.explanationOf(leadId) : []);

  return {
    /**
     * POST /sim/pingpost: a ping and, when it is priced, its post, as the chosen source through the real
     * engine; the answers, a sentence saying what was answered, and every campaign considered.
     */
    async pingPost({ Project, Source, Zip, minprice }: SimPingPost) {
      const caller = engine.callerFor(Source);
      // The service's own fields, filled as a source would (issue 33): its ping fields at the ping, the rest at the post.
      const fields = engine.snapshot().fieldsOf(Project);
      const ping = await sourceApi.pingAs(
        caller,
        pingSchema.parse({ service: Project, zip: Zip, minprice }),
        simulatedFields(fields, 'ping'),
      );
      if (!ping.body.ok) {
        const payout = engine.payoutCents(caller.source, null);
        const belowMin = minprice !== undefined && payout < Math.round(minprice * 100);
        return {
          ok: true,
          ping: ping.body,
          outcome: belowMin
            ? `The ping was answered ${ping.body.reason}: the source's payout ($${formatMoney(payout)}) is below its minimum price ($${minprice?.toFixed(2)}), so no campaign won.`
            : `The ping was answered ${ping.body.reason}: no campaign would buy it.`,
          explanation: await leads.named(ping.explanation),
        };
      }
      const post = await sourceApi.postAs(
        caller,
        postSchema.parse({ ping_id: ping.body.ping_id, ...simulatedContact() }),
        META,
        simulatedFields(fields, 'post'),
      );
      return {
        ok: true,
        ping: ping.body,
        post: post.body,
        outcome: answeredOutcome('post', post.body as AnsweredBody),
        explanation: await explanationOf(post.body.lead_id),
      };
    },

    /** POST /sim/lead: a direct lead as the chosen source, under /api/lead's rule (it must be allowed to post direct). */
    async directLead({ Project, Source, Zip }: SimLead) {
      const lead = await sourceApi.leadAs(
        engine.callerFor(Source, { direct: true }),
        leadSchema.parse({ service: Project, zip: Zip, ...simulatedContact() }),
        META,
        simulatedFields(engine.snapshot().fieldsOf(Project), 'lead'),
      );
      return {
        ok: true,
        lead: lead.body,
        outcome: answeredOutcome('lead', lead.body as AnsweredBody),
        explanation: await explanationOf(lead.body.lead_id),
      };
    },

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
          const answer = await sourceApi.leadAs(
            engine.callerFor(pick(sourceIds)),
            input,
            META,
            simulatedFields(engine.snapshot().fieldsOf(target.service), 'lead'),
          );
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

    /** The whitelist the outbox keeps mail and texts to (DESIGN.md §11): the simulator shows and edits it. */
    whitelist: () => outbox.whitelist(),

    saveWhitelist: (list: SimWhitelist) => outbox.saveWhitelist(list),

    /**
     * Empties the exchange and seeds it again (the demo data when SEED_DEMO is on): the admins stay,
     * signed in; the mock date goes back to the real time; every process reloads the engine.
     */
    async resetDatabase(): Promise<void> {
      await engine.flush();
      // Every input the engine reads is emptied: each process reloads (this one at once).
      await engine.change(EVERY_ENGINE_INPUT, (tx) => simRepo.emptyExchange(tx));
      await mockDate?.set(null);
      await reseed();
      await engine.reload();
    },
  };
}

export type SimService = ReturnType<typeof createSimService>;

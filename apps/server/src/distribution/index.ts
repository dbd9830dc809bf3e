import type { ServiceField, SourceApiAnswerFormat } from '@leadex/domain';
import type { serviceFields } from '../db/schema';
import { groupBy } from '../lib/group';
import type { PingPostDelivery } from './ports';
import type { IndexedCampaign } from './types';

/*
 * The engine's snapshot: an immutable picture of what it decides with, held in memory. It is read from
 * the database by load-snapshot.ts; engine-version.ts tells when it is stale.
 */

/** A source's API key as the public API checks it on every call, from memory. */
export interface IndexedApiKey {
  id: string;
  sourceId: string;
  name: string;
  canPostLead: boolean;
  heldAt: number | null;
  expiresAt: number | null;
  /** The service of a lead sent with this key without one (issue 32 item 3). */
  defaultService: string | null;
}

/** A source as the engine needs it: hold, approval, direct posting, payout. */
export interface IndexedSource {
  id: string;
  name: string;
  heldAt: number | null;
  /** Self-signed-up sources sell real leads only once approved (DESIGN.md §8). */
  approved: boolean;
  /** A self-signed-up source: it sells real leads only at a payout (issue 27); an admin's may be internal. */
  selfSignedUp: boolean;
  canPostLead: boolean;
  maxCostCents: number | null;
  /** Channel name -> its max cost (null: the source's). */
  channels: ReadonlyMap<string, number | null>;
  /** The service of a lead sent without one, when its key has none (issue 32 item 3). */
  defaultService: string | null;
  /** A platform's campaign id -> the service of a lead sent without one (issue 32 item 3). */
  campaignServices: ReadonlyMap<string, string>;
  /** How the public API answers the source when a request names no format (issue 32 item 7); null: JSON. */
  answerFormat: SourceApiAnswerFormat | null;
}

/** Exchange-wide settings the engine reads (DESIGN.md §5), with their defaults. */
export interface EngineSettings {
  /** Shared revenue is the sum of the best bids from up to this many buyers. */
  sharedBuyers: number;
  /** A buyer never buys the same phone or email twice within this many days. */
  duplicateWindowDays: number;
}

export const DEFAULT_ENGINE_SETTINGS: EngineSettings = { sharedBuyers: 3, duplicateWindowDays: 30 };

interface ServiceIndex {
  byState: Map<string, IndexedCampaign[]>;
  byZip: Map<string, IndexedCampaign[]>;
}

/**
 * An immutable picture of everything the engine decides with: campaigns indexed by service and
 * location, sources and API keys. Replaced whole when the database changes (see EngineIndex).
 */
export class EngineSnapshot {
  // Bounded by what the database holds (live campaigns x their services x their states or ZIPs), built
  // once per snapshot and dropped with it: nothing is added per ping or sale.
  private readonly byService = new Map<string, ServiceIndex>();
  private readonly ofService = new Map<string, IndexedCampaign[]>();

  constructor(
    readonly campaigns: readonly IndexedCampaign[],
    readonly sources: ReadonlyMap<string, IndexedSource>,
    readonly keysByHash: ReadonlyMap<string, IndexedApiKey>,
    readonly services: ReadonlySet<string>,
    readonly settings: EngineSettings = DEFAULT_ENGINE_SETTINGS,
    /** Buyers with a live custom delivery: a sale to one runs it inline (DESIGN.md §6). */
    readonly liveDeliveryBuyers: ReadonlySet<string> = new Set(),
    /** The live Ping/Post deliveries by buyer: these buyers bid by answering a ping (DESIGN.md §6). */
    readonly pingPostDeliveries: ReadonlyMap<string, readonly PingPostDelivery[]> = new Map(),
    /**
     * Each service's own fields (issue 33), in their order, removed ones included (flagged): what the
     * source API reads and eligibility filters on, without a query per request.
     */
    readonly serviceFields: ReadonlyMap<string, readonly ServiceField[]> = new Map(),
  ) {
    for (const c of campaigns) {
      for (const service of c.services) {
        const all = this.ofService.get(service);
        if (all) all.push(c);
        else this.ofService.set(service, [c]);
        let entry = this.byService.get(service);
        if (!entry) {
          entry = { byState: new Map(), byZip: new Map() };
          this.byService.set(service, entry);
        }
        const keys = c.location === 'state' ? c.states : c.zips;
        const map = c.location === 'state' ? entry.byState : entry.byZip;
        for (const key of keys) {
          const list = map.get(key);
          if (list) list.push(c);
          else map.set(key, [c]);
        }
      }
    }
  }

  /** Campaigns whose service and location fit the lead: the only ones a ping needs to look at. */
  candidates(service: string, zip: string, state: string | null): IndexedCampaign[] {
    const entry = this.byService.get(service);
    if (!entry) return [];
    const byZip = entry.byZip.get(zip) ?? [];
    const byState = state ? (entry.byState.get(state) ?? []) : [];
    return byState.length === 0 ? byZip : byZip.length === 0 ? byState : [...byZip, ...byState];
  }

  /** Every campaign buying the service, whatever its status or location: what a lead's explanation lists. */
  campaignsForService(service: string): readonly IndexedCampaign[] {
    return this.ofService.get(service) ?? [];
  }

  /** A service's fields (removed ones included), in their order; none for a service without any. */
  fieldsOf(service: string): readonly ServiceField[] {
    return this.serviceFields.get(service) ?? NO_FIELDS;
  }

  campaignByFixedId(fixedId: string): IndexedCampaign | undefined {
    const wanted = fixedId.toLowerCase();
    return this.campaigns.find((c) => c.fixedId.toLowerCase() === wanted);
  }
}

const NO_FIELDS: readonly ServiceField[] = [];

/** The service_fields rows as each service's definitions, in their order. */
export function serviceFieldsOf(rows: (typeof serviceFields.$inferSelect)[]): Map<string, ServiceField[]> {
  return groupBy(
    rows,
    (r) => r.service,
    (r): ServiceField => ({
      key: r.key,
      label: r.label,
      type: r.type,
      options: r.options,
      required: r.required,
      stage: r.stage,
      personal: r.personal,
      aliases: r.aliases,
      help: r.help,
      removed: r.removed,
    }),
  );
}

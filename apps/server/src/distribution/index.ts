import {
  consentNameKey,
  isPingPost,
  type ServiceField,
  type SourceApiAnswerFormat,
  type WebhookPing,
} from '@leadex/domain';
import { eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import {
  apiKeys,
  buyers,
  campaignSourceFilters,
  campaigns,
  engineVersions,
  serviceFields,
  services,
  settings,
  sourceChannels,
  sources,
  webhooks,
  zips,
  zipsets,
} from '../db/schema';
import { groupBy } from '../lib/group';
import { compileCampaignFilters } from './field-filters';
import { type PingPostDelivery, pingPostDelivery } from './ports';
import type { IndexedCampaign, SourceFilter } from './types';

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

const ms = (d: Date | null) => (d ? d.getTime() : null);

/** Reads the engine's picture from the database (a few hundred campaigns: milliseconds). */
export async function loadSnapshot(db: Db): Promise<EngineSnapshot> {
  const [
    campaignRows,
    filterRows,
    zipsetRows,
    sourceRows,
    channelRows,
    keyRows,
    serviceRows,
    settingRows,
    liveRows,
    buyerBudgetRows,
    fieldRows,
    legalNameRows,
  ] = await Promise.all([
    db.select().from(campaigns),
    db.select().from(campaignSourceFilters),
    db.select({ id: zipsets.id, zips: zipsets.zips }).from(zipsets),
    db.select().from(sources),
    db.select().from(sourceChannels),
    db.select().from(apiKeys),
    db.select({ name: services.name, medicare: services.medicare }).from(services),
    db
      .select()
      .from(settings)
      .where(inArray(settings.key, ['shared_buyers', 'duplicate_window_days'])),
    db
      .select({
        id: webhooks.id,
        buyerId: webhooks.buyerId,
        name: webhooks.name,
        pingId: webhooks.pingId,
        ping: webhooks.ping,
        key: webhooks.key,
        keyName: webhooks.keyName,
        secret: webhooks.secret,
        secretName: webhooks.secretName,
        reasonField: webhooks.reasonField,
      })
      .from(webhooks)
      .where(eq(webhooks.status, 'live'))
      .orderBy(webhooks.createdAt, webhooks.id),
    db.select({ id: buyers.id, cents: buyers.budgetDailyCents }).from(buyers).where(isNotNull(buyers.budgetDailyCents)),
    db.select().from(serviceFields).orderBy(serviceFields.service, serviceFields.position, serviceFields.key),
    db
      .select({ id: buyers.id, legalNames: buyers.legalNames })
      .from(buyers)
      .where(sql`cardinality(${buyers.legalNames}) > 0`),
  ]);
  const legalNameKeys = new Map(
    legalNameRows.map((b) => [b.id, b.legalNames.map(consentNameKey).filter((k) => k !== '')]),
  );
  const medicare = new Set(serviceRows.filter((s) => s.medicare).map((s) => s.name));
  const buyerBudgets = new Map(buyerBudgetRows.map((b) => [b.id, b.cents]));
  const setting = (key: string, fallback: number) => {
    const value = Number(settingRows.find((r) => r.key === key)?.value);
    return Number.isFinite(value) && value >= 0 ? value : fallback;
  };
  const filtersOf = groupBy(
    filterRows,
    (f) => f.campaignId,
    (f): SourceFilter => ({
      sourceId: f.sourceId,
      channel: f.channel,
      priceCents: f.priceCents,
      sharedPriceCents: f.sharedPriceCents,
      pct: f.pct,
    }),
  );
  const zipsetZips = new Map(zipsetRows.map((z) => [z.id, z.zips]));
  const fieldsByService = serviceFieldsOf(fieldRows);
  // The field filters are compiled here, once per snapshot, never per request (issue 33).
  const fieldMaps = new Map(
    [...fieldsByService].map(([service, fields]) => [service, new Map(fields.map((f) => [f.key, f]))]),
  );
  const indexed: IndexedCampaign[] = campaignRows.map((c) => ({
    id: c.id,
    buyerId: c.buyerId,
    name: c.name,
    fixedId: c.fixedId,
    status: c.status as IndexedCampaign['status'],
    priceCents: c.priceCents,
    shared: c.shared,
    sharedPriceCents: c.shared ? c.sharedPriceCents : null,
    services: new Set(c.services),
    location: c.location as IndexedCampaign['location'],
    states: new Set(c.location === 'state' ? c.states : []),
    zips: new Set(
      c.location === 'zip' ? c.zips : c.location === 'zipset' && c.zipsetId ? (zipsetZips.get(c.zipsetId) ?? []) : [],
    ),
    caps: { hourly: c.maxHourly, daily: c.maxDaily, weekly: c.maxWeekly, monthly: c.maxMonthly },
    budgets: { daily: c.budgetDailyCents, weekly: c.budgetWeeklyCents, monthly: c.budgetMonthlyCents },
    buyerDailyBudgetCents: buyerBudgets.get(c.buyerId) ?? null,
    time: c.time,
    sourceFilters: filtersOf.get(c.id) ?? [],
    fieldFilters: compileCampaignFilters(c.fieldFilters, c.services, (service) => fieldMaps.get(service)),
    lastSoldAt: c.lastSoldAt?.getTime() ?? 0,
    requireNamedConsent: c.requireNamedConsent,
    medicareServices: new Set(c.services.filter((s) => medicare.has(s))),
    legalNameKeys: legalNameKeys.get(c.buyerId) ?? [],
    refuseOutsideCallingWindow: c.refuseOutsideCallingWindow,
  }));
  const channelsOf = new Map<string, Map<string, number | null>>();
  for (const ch of channelRows) {
    const map = channelsOf.get(ch.sourceId) ?? new Map<string, number | null>();
    map.set(ch.name, ch.maxCostCents);
    channelsOf.set(ch.sourceId, map);
  }
  const sourceMap = new Map<string, IndexedSource>(
    sourceRows.map((s) => [
      s.id,
      {
        id: s.id,
        name: s.name,
        heldAt: ms(s.heldAt),
        approved: s.approvedAt !== null,
        selfSignedUp: s.selfSignedUp,
        canPostLead: s.canPostLead,
        maxCostCents: s.maxCostCents,
        channels: channelsOf.get(s.id) ?? new Map(),
        defaultService: s.defaultService,
        campaignServices: new Map(s.campaignServices.map((c) => [c.campaign_id, c.service])),
        answerFormat: s.answerFormat,
      },
    ]),
  );
  const keyMap = new Map<string, IndexedApiKey>(
    keyRows.map((k) => [
      k.keyHash,
      {
        id: k.id,
        sourceId: k.sourceId,
        name: k.name,
        canPostLead: k.canPostLead,
        heldAt: ms(k.heldAt),
        expiresAt: ms(k.expiresAt),
        defaultService: k.defaultService,
      },
    ]),
  );
  return new EngineSnapshot(
    indexed,
    sourceMap,
    keyMap,
    new Set(serviceRows.map((r) => r.name)),
    {
      sharedBuyers: setting('shared_buyers', DEFAULT_ENGINE_SETTINGS.sharedBuyers),
      duplicateWindowDays: setting('duplicate_window_days', DEFAULT_ENGINE_SETTINGS.duplicateWindowDays),
    },
    new Set(liveRows.map((r) => r.buyerId)),
    pingPostOf(liveRows),
    fieldsByService,
  );
}

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

/** The live Ping/Post deliveries (with their ping) by buyer. */
function pingPostOf(
  rows: {
    id: string;
    buyerId: string;
    name: string;
    pingId: string;
    ping: WebhookPing | null;
    key: string | null;
    keyName: string | null;
    secret: string | null;
    secretName: string | null;
    reasonField: string | null;
  }[],
): Map<string, PingPostDelivery[]> {
  const live = rows.flatMap((r) => (isPingPost(r.pingId) && r.ping ? [{ ...r, ping: r.ping }] : []));
  return groupBy(
    live,
    (r) => r.buyerId,
    (r) =>
      pingPostDelivery(
        {
          _id: r.id,
          name: r.name,
          buyer: r.buyerId,
          key: r.key ?? undefined,
          keyname: r.keyName ?? undefined,
          secret: r.secret ?? undefined,
          secretname: r.secretName ?? undefined,
          reason_field: r.reasonField ?? undefined,
        },
        r.ping,
      ),
  );
}

/** ZIP -> state, held in memory for the ping path (about 41,000 entries; ZIPs do not change). */
export async function loadZipStates(db: Db): Promise<Map<string, string>> {
  const rows = await db.select({ zip: zips.zip, state: zips.state }).from(zips);
  return new Map(rows.map((r) => [r.zip, r.state]));
}

/** What changed, so every process reloads its index: call inside the changing transaction. */
export type EngineInput = 'campaigns' | 'buyers' | 'sources' | 'zipsets' | 'settings' | 'services' | 'webhooks';

export async function bumpEngineVersion(tx: Db | Tx, name: EngineInput): Promise<void> {
  await tx
    .insert(engineVersions)
    .values({ name, version: 1 })
    .onConflictDoUpdate({ target: engineVersions.name, set: { version: sql`${engineVersions.version} + 1` } });
}

/** A fingerprint of all versions: when it moves, the snapshot is stale. */
export async function readEngineVersion(db: Db): Promise<string> {
  const rows = await db.select().from(engineVersions).orderBy(engineVersions.name);
  return rows.map((r) => `${r.name}:${r.version}`).join(',');
}

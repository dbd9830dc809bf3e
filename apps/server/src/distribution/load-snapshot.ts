import { consentNameKey, isPingPost, type WebhookPing } from '@leadex/domain';
import { eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import {
  apiKeys,
  buyers,
  campaignSourceFilters,
  campaigns,
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
import { compileCampaignFilters, SharedRules } from './field-filters';
import {
  DEFAULT_ENGINE_SETTINGS,
  EngineSnapshot,
  type IndexedApiKey,
  type IndexedSource,
  serviceFieldsOf,
} from './index';
import { type PingPostDelivery, pingPostDelivery } from './ports';
import type { IndexedCampaign, SourceFilter } from './types';

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
  const sharedRules = new SharedRules();
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
    fieldFilters: compileCampaignFilters(c.fieldFilters, c.services, (service) => fieldMaps.get(service), sharedRules),
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

import { inArray } from 'drizzle-orm';
import type { Db } from '../apps/server/src/db/client';
import {
  apiKeys,
  buyers,
  type CampaignTime,
  campaignSourceFilters,
  campaigns,
  serviceFields,
  services as serviceTable,
  sources,
  zips,
  zipsets,
} from '../apps/server/src/db/schema';
import { loadZipsIfEmpty } from '../apps/server/src/db/zips';
import { seedReferenceData } from '../apps/server/src/demo/seed';
import { createApiKeyVault } from '../apps/server/src/lib/api-keys';
import { newId } from '../apps/server/src/lib/ids';
import { BENCH_FIELDS, BENCH_RULES, WITH_FIELDS } from './fields';

/** A deterministic PRNG (mulberry32), so every run seeds the same exchange. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The states the bench exchange trades in, and how many of their ZIPs it uses (10 x 200 = 2,000). */
export const STATES = ['TX', 'FL', 'CA', 'NY', 'PA', 'OH', 'GA', 'NC', 'AZ', 'IL'];
const ZIPS_PER_STATE = 200;
/** Services bought, most common first (roofing and solar dominate home-services volume). */
export const SERVICES = ['roofing', 'solar', 'hvac', 'windows', 'plumbing', 'siding'];
const SERVICE_WEIGHTS = [0.3, 0.25, 0.15, 0.12, 0.1, 0.08];
/** Sources' payouts: every campaign price (>= $25) covers both. */
const SOURCE_PAYOUT_CENTS = [1000, 1500];
const ZONES = ['America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'];

export const BUYER_COUNT = 50;
export const CAMPAIGN_COUNT = 200;
const ZIPSET_COUNT = 12;

export interface ServiceZip {
  service: string;
  zip: string;
}

export interface BenchExchange {
  /** The two sources' API keys, in order. */
  keys: string[];
  sourceIds: string[];
  /** (service, ZIP) pairs that at least one live campaign buys. */
  matching: ServiceZip[];
  /** (service, ZIP) pairs of the exchange's ZIPs that no campaign buys (Buyer Gaps). */
  unmatched: ServiceZip[];
  zipCount: number;
  summary: {
    buyers: number;
    campaigns: number;
    byLocation: Record<string, number>;
    shared: number;
    capped: number;
    withHours: number;
    withSourceFilters: number;
    zipsets: number;
    /** BENCH_FIELDS: the fields of each service and the field filters of each campaign (issue 33). */
    fieldsPerService: number;
    rulesPerCampaign: number;
  };
}

/** The row of a bench buyer: `Bench Buyer 3`, `bench-buyer-3`, `buyer3@bench.example` (or Bidder). */
export function benchBuyerRow(id: string, kind: 'buyer' | 'bidder', n: number, now: Date) {
  const title = kind === 'buyer' ? 'Buyer' : 'Bidder';
  return {
    id,
    name: `Bench ${title} ${n}`,
    username: `bench-${kind}-${n}`,
    email: `${kind}${n}@bench.example`,
    phone: '2145550100',
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Seeds a realistic exchange straight into the tables (as the test factories do): 50 buyers,
 * 200 live campaigns over 2,000 ZIPs of 10 states (state, ZIP-list and zipset locations, several
 * services, some shared, caps too high to fill during a run or none), 2 approved sources with
 * an API key each and a payout every campaign's price covers.
 */
export async function seedExchange(
  db: Db,
  secret: string,
  seed = 20_260_115,
  withFields = WITH_FIELDS,
): Promise<BenchExchange> {
  const rnd = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const between = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const sample = <T>(list: readonly T[], n: number): T[] => {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, n);
  };
  const weightedService = () => {
    let r = rnd();
    for (let i = 0; i < SERVICES.length; i++) {
      r -= SERVICE_WEIGHTS[i] ?? 0;
      if (r <= 0) return SERVICES[i] as string;
    }
    return SERVICES[0] as string;
  };
  const now = new Date();

  // The exchange's ZIPs: 200 spread over each state's range.
  const rows = await db.select({ zip: zips.zip, state: zips.state }).from(zips).where(inArray(zips.state, STATES));
  const zipsOf = new Map<string, string[]>();
  for (const r of rows) zipsOf.set(r.state, [...(zipsOf.get(r.state) ?? []), r.zip]);
  const exchangeZips = new Map<string, string[]>();
  const stateOfZip = new Map<string, string>();
  for (const state of STATES) {
    const all = (zipsOf.get(state) ?? []).sort();
    if (all.length < ZIPS_PER_STATE) throw new Error(`the zips table has only ${all.length} ZIPs in ${state}`);
    const step = all.length / ZIPS_PER_STATE;
    const chosen = Array.from({ length: ZIPS_PER_STATE }, (_, i) => all[Math.floor(i * step)] as string);
    exchangeZips.set(state, chosen);
    for (const z of chosen) stateOfZip.set(z, state);
  }
  const allZips = [...stateOfZip.keys()];

  // Regions: metro-like runs of 60-180 consecutive ZIPs of one state.
  const regions: { id: string; zips: string[] }[] = [];
  for (let i = 0; i < ZIPSET_COUNT; i++) {
    const list = exchangeZips.get(STATES[i % STATES.length] as string) ?? [];
    const size = between(60, 180);
    const start = between(0, list.length - size);
    regions.push({ id: newId('zst'), zips: list.slice(start, start + size) });
  }
  await db
    .insert(zipsets)
    .values(regions.map((r, i) => ({ id: r.id, name: `Bench region ${i + 1}`, zips: r.zips, createdAt: now })));

  const buyerIds = Array.from({ length: BUYER_COUNT }, () => newId('buy'));
  await db.insert(buyers).values(buyerIds.map((id, i) => benchBuyerRow(id, 'buyer', i + 1, now)));

  const vault = createApiKeyVault(secret);
  const sourceIds: string[] = [];
  const keys: string[] = [];
  for (const [i, payout] of SOURCE_PAYOUT_CENTS.entries()) {
    const id = newId('src');
    await db.insert(sources).values({
      id,
      name: `Bench Source ${i + 1}`,
      email: `source${i + 1}@bench.example`,
      phone: '2145550199',
      maxCostCents: payout,
      canPostLead: true,
      approvedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    const issued = vault.issue();
    await db.insert(apiKeys).values({
      id: newId('key'),
      sourceId: id,
      name: 'Bench key',
      prefix: issued.prefix,
      keyHash: issued.keyHash,
      keyEncrypted: issued.keyEncrypted,
      canPostLead: true,
      createdAt: now,
    });
    sourceIds.push(id);
    keys.push(issued.key);
  }

  // 200 campaigns, 4 per buyer; coverage is tracked to know which pings should match.
  const covered = new Set<string>();
  const summary: BenchExchange['summary'] = {
    buyers: BUYER_COUNT,
    campaigns: CAMPAIGN_COUNT,
    byLocation: { state: 0, zip: 0, zipset: 0 },
    shared: 0,
    capped: 0,
    withHours: 0,
    withSourceFilters: 0,
    zipsets: ZIPSET_COUNT,
    fieldsPerService: withFields ? BENCH_FIELDS.length : 0,
    rulesPerCampaign: withFields ? BENCH_RULES.length : 0,
  };
  if (withFields) {
    const known = new Set((await db.select({ name: serviceTable.name }).from(serviceTable)).map((r) => r.name));
    const missing = SERVICES.filter((s) => !known.has(s));
    if (missing.length > 0) await db.insert(serviceTable).values(missing.map((name) => ({ name, label: name })));
    await db
      .insert(serviceFields)
      .values(
        SERVICES.flatMap((service) =>
          BENCH_FIELDS.map((f, position) => ({ ...f, service, position, createdAt: now, updatedAt: now })),
        ),
      );
  }
  const campaignRows: (typeof campaigns.$inferInsert)[] = [];
  const filterRows: (typeof campaignSourceFilters.$inferInsert)[] = [];
  for (let i = 0; i < CAMPAIGN_COUNT; i++) {
    const services = [...new Set(Array.from({ length: rnd() < 0.35 ? 2 : 1 }, weightedService))];
    const kind = i % 8 < 3 ? 'state' : i % 8 < 6 ? 'zip' : 'zipset';
    let states: string[] = [];
    let zipList: string[] = [];
    let zipsetId: string | null = null;
    let coveredZips: string[] = [];
    if (kind === 'state') {
      states = sample(STATES, rnd() < 0.3 ? 2 : 1);
      coveredZips = states.flatMap((s) => exchangeZips.get(s) ?? []);
    } else if (kind === 'zip') {
      const state = pick(STATES);
      zipList = sample(exchangeZips.get(state) ?? [], between(30, 150));
      coveredZips = zipList;
    } else {
      const region = pick(regions);
      zipsetId = region.id;
      coveredZips = region.zips;
    }
    summary.byLocation[kind] = (summary.byLocation[kind] ?? 0) + 1;
    for (const s of services) for (const z of coveredZips) covered.add(`${s}|${z}`);

    const price = between(25, 90);
    const shared = rnd() < 0.4;
    if (shared) summary.shared += 1;
    // Caps well out of reach during a run, or none: the bench measures sales, not refusals.
    const capRoll = rnd();
    const max =
      capRoll < 0.35
        ? {}
        : capRoll < 0.65
          ? { daily: 1_000_000 }
          : capRoll < 0.8
            ? { hourly: 100_000, daily: 1_000_000 }
            : capRoll < 0.9
              ? { weekly: 5_000_000 }
              : { monthly: 10_000_000 };
    if (Object.keys(max).length > 0) summary.capped += 1;
    // Some campaigns keep hours in their own zone; start = end is all day, so they are always open.
    const time: CampaignTime | null =
      rnd() < 0.25 ? { zone: pick(ZONES), weekday: { start: 0, end: 0 }, weekend: { start: 0, end: 0 } } : null;
    if (time) summary.withHours += 1;
    const id = newId('cmp');
    campaignRows.push({
      id,
      buyerId: buyerIds[Math.floor(i / (CAMPAIGN_COUNT / BUYER_COUNT))] as string,
      name: `Bench ${services.join('+')} ${kind} ${i + 1}`,
      fixedId: `BENCH-${i + 1}`,
      priceCents: price * 100,
      shared,
      sharedPriceCents: shared ? between(10, Math.min(35, price - 5)) * 100 : null,
      services,
      location: kind,
      states,
      zips: zipList,
      zipsetId,
      maxHourly: max.hourly ?? null,
      maxDaily: max.daily ?? null,
      maxWeekly: max.weekly ?? null,
      maxMonthly: max.monthly ?? null,
      time,
      fieldFilters: withFields ? BENCH_RULES : [],
      status: 'live',
      createdAt: now,
      updatedAt: now,
    });
    // A few campaigns list both sources, paying one of them a different price.
    if (rnd() < 0.1) {
      summary.withSourceFilters += 1;
      filterRows.push(
        {
          id: newId('csf'),
          campaignId: id,
          sourceId: sourceIds[0] as string,
          priceCents: (price + 5) * 100,
          pct: 1,
        },
        { id: newId('csf'), campaignId: id, sourceId: sourceIds[1] as string, pct: 1 },
      );
    }
  }
  await db.insert(campaigns).values(campaignRows);
  if (filterRows.length > 0) await db.insert(campaignSourceFilters).values(filterRows);

  const matching: ServiceZip[] = [];
  const unmatched: ServiceZip[] = [];
  for (const service of SERVICES) {
    for (const zip of allZips) {
      (covered.has(`${service}|${zip}`) ? matching : unmatched).push({ service, zip });
    }
  }
  // Services nobody buys here still arrive from sources.
  for (const zip of allZips.slice(0, 200)) unmatched.push({ service: 'pest_control', zip });
  return { keys, sourceIds, matching, unmatched, zipCount: allZips.length, summary };
}

/** A migrated database made ready for a bench: the ZIPs, the reference data, then seedExchange's exchange. */
export async function seedBenchDatabase(db: Db, secret: string): Promise<BenchExchange> {
  await loadZipsIfEmpty(db);
  await seedReferenceData({ db });
  return seedExchange(db, secret);
}

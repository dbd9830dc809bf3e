import type { BuyerCreate, StoredFieldFilter } from '@leadex/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { apiKeys, type CampaignTime, campaigns, leadMatches, leads, sources } from '../src/db/schema';
import type { SaleRequest } from '../src/distribution/sale/types';
import { createApiKeyVault } from '../src/lib/api-keys';
import { newId } from '../src/lib/ids';
import { centsOrNull } from '../src/lib/money';
import { campaignsRepo } from '../src/modules/campaigns/campaigns.repo';
import { sourcesRepo } from '../src/modules/sources/sources.repo';
import { usersRepo } from '../src/modules/users/users.repo';
import { testDatabaseKind } from './database';
import type { TestApp } from './harness';

let counter = 0;
const unique = () => `${++counter}${Math.random().toString(36).slice(2, 7)}`;

/** A valid buyer form, unique per call; override any field. */
export function buyerInput(overrides: Partial<BuyerCreate> = {}): BuyerCreate {
  const n = unique();
  return {
    username: `buyer-${n}`,
    name: `Acme Roofing ${n}`,
    email: `buyer.${n}@example.com`,
    phone: '(555) 010-2000',
    tags: [],
    notify: { email: [], sms: [], broadcast_webhooks: [] },
    bill: { pay: 'invoice', prepay: 0, period: 'monthly', grace: 3, threshold: 0 },
    autoApproveReturns: 0,
    showSource: false,
    ...overrides,
  };
}

/** Creates a buyer through the service, gives its primary user a password and signs it in. */
export async function createBuyerWithLogin(
  t: TestApp,
  overrides: Partial<BuyerCreate> = {},
  password = 'buyer-password-1',
) {
  const buyer = await t.deps.services.buyers.create(buyerInput(overrides));
  const user = await usersRepo.findByUsername(t.database.db, buyer.username);
  if (!user) throw new Error('primary user missing');
  await t.setPassword(user.id, password);
  return { buyer, user, password, cookie: await t.signIn(buyer.email, password) };
}

/** A source with one signed-in user (the sources module arrives later: rows are written directly). */
export async function createSourceWithLogin(
  t: TestApp,
  options: { canPostLead?: boolean } = {},
  password = 'source-password-1',
) {
  const n = unique();
  const now = t.clock.now();
  const [source] = await t.database.db
    .insert(sources)
    .values({
      id: newId('src'),
      name: `Lead Source ${n}`,
      email: `source.${n}@example.com`,
      phone: '5550100000',
      canPostLead: options.canPostLead ?? false,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!source) throw new Error('source not written');
  const { user, cookie } = await signInForSource(t, source.id, password);
  return { source, user, password, cookie };
}

/** A user of an existing source (on its welcome page, as a new one is), signed in. */
export async function signInForSource(t: TestApp, sourceId: string, password = 'source-password-1') {
  const n = unique();
  const user = await t.database.db.transaction((tx) =>
    t.deps.services.users.create(tx, {
      name: 'Source User',
      email: `user.${n}@example.com`,
      username: `source-${n}`,
      role: 'source',
      roleId: sourceId,
    }),
  );
  await usersRepo.update(t.database.db, user.id, { welcome: true });
  await t.setPassword(user.id, password);
  return { user, cookie: await t.signIn(user.email, password) };
}

/** A source with an API key (and optional channels), written directly; the engine is reloaded. */
export async function createSourceWithKey(
  t: TestApp,
  options: {
    maxCost?: number | null;
    canPostLead?: boolean;
    approved?: boolean;
    channels?: { name: string; maxCost: number | null }[];
    held?: boolean;
  } = {},
) {
  const n = unique();
  const now = t.clock.now();
  const id = newId('src');
  await t.database.db.insert(sources).values({
    id,
    name: `Supplier ${n}`,
    email: `supplier.${n}@example.com`,
    phone: '5550100000',
    maxCostCents: centsOrNull(options.maxCost === undefined ? 10 : options.maxCost),
    canPostLead: options.canPostLead ?? true,
    approvedAt: options.approved === false ? null : now,
    heldAt: options.held ? now : null,
    createdAt: now,
    updatedAt: now,
  });
  await sourcesRepo.replaceChannels(
    t.database.db,
    id,
    (options.channels ?? []).map((c) => ({ id: newId('chn'), name: c.name, maxCostCents: centsOrNull(c.maxCost) })),
  );
  const issued = createApiKeyVault(t.deps.config.LEADEX_SECRET).issue();
  const keyId = newId('key');
  await t.database.db.insert(apiKeys).values({
    id: keyId,
    sourceId: id,
    name: 'Test key',
    prefix: issued.prefix,
    keyHash: issued.keyHash,
    keyEncrypted: issued.keyEncrypted,
    canPostLead: options.canPostLead ?? true,
    createdAt: now,
  });
  await t.deps.engine.reload();
  return { sourceId: id, keyId, apiKey: issued.key };
}

/** A source with an API key (createSourceWithKey) and a signed-in user of it (`cookie`). */
export async function createSourceWithKeyAndLogin(t: TestApp, options: Parameters<typeof createSourceWithKey>[1] = {}) {
  const key = await createSourceWithKey(t, options);
  return { ...key, cookie: (await signInForSource(t, key.sourceId)).cookie };
}

export interface CampaignOptions {
  price?: number;
  shared?: number;
  services?: string[];
  location?: 'state' | 'zip' | 'zipset';
  states?: string[];
  zips?: string[];
  zipsetId?: string;
  status?: 'live' | 'draft' | 'pause';
  max?: { hourly?: number; daily?: number; weekly?: number; monthly?: number };
  time?: CampaignTime | null;
  fixedId?: string;
  /** Where its sales are posted (its notify webhook); no notification when left out. */
  webhook?: string;
  /** Field filters as stored (issue 33): money in cents. */
  fieldFilters?: StoredFieldFilter[];
  filters?: {
    sourceId: string;
    channel?: string | null;
    price?: number | null;
    shared?: number | null;
    pct?: number;
  }[];
}

/** A campaign written directly (the campaigns module arrives later); the engine is reloaded. */
export async function createCampaign(t: TestApp, buyerId: string, o: CampaignOptions = {}) {
  const now = t.clock.now();
  const id = newId('cmp');
  await t.database.db.insert(campaigns).values({
    id,
    buyerId,
    name: `Campaign ${unique()}`,
    fixedId: o.fixedId ?? `BR-${unique()}`,
    priceCents: Math.round((o.price ?? 40) * 100),
    shared: o.shared !== undefined,
    sharedPriceCents: o.shared !== undefined ? Math.round(o.shared * 100) : null,
    services: o.services ?? ['roofing'],
    location: o.location ?? 'state',
    states: o.states ?? ['TX'],
    zips: o.zips ?? [],
    zipsetId: o.zipsetId ?? null,
    maxHourly: o.max?.hourly ?? null,
    maxDaily: o.max?.daily ?? null,
    maxWeekly: o.max?.weekly ?? null,
    maxMonthly: o.max?.monthly ?? null,
    time: o.time ?? null,
    fieldFilters: o.fieldFilters ?? [],
    ...(o.webhook ? { notify: { email: [], sms: [], webhook: o.webhook, broadcast_webhooks: [] } } : {}),
    status: o.status ?? 'live',
    createdAt: now,
    updatedAt: now,
  });
  await campaignsRepo.replaceFilters(
    t.database.db,
    id,
    (o.filters ?? []).map((f) => ({
      id: newId('csf'),
      campaignId: id,
      sourceId: f.sourceId,
      channel: f.channel ?? null,
      priceCents: centsOrNull(f.price),
      sharedPriceCents: centsOrNull(f.shared),
      pct: f.pct ?? 1,
    })),
  );
  await t.deps.engine.reload();
  return id;
}

/** What the buyer's bills charge it in all, cents, as GET /api/bill/buyer/{id} answers (an admin's view). */
export async function billedCents(t: TestApp, adminCookie: string, buyerId: string): Promise<number> {
  const res = await t.request({ method: 'GET', url: `/api/bill/buyer/${buyerId}`, as: adminCookie });
  if (res.statusCode !== 200) throw new Error(`bills of ${buyerId}: ${res.statusCode} ${res.body}`);
  return (res.json() as Array<{ total: { charges: number } }>).reduce(
    (sum, b) => sum + Math.round(b.total.charges * 100),
    0,
  );
}

/** Saves the buyer's billing terms as the admin does (PUT /api/buyer/{id}), expecting them taken. */
export async function saveBillTerms(
  t: TestApp,
  adminCookie: string,
  buyerId: string,
  bill: Partial<BuyerCreate['bill']>,
) {
  const res = await t.request({ method: 'PUT', url: `/api/buyer/${buyerId}`, as: adminCookie, payload: { bill } });
  expect(res.statusCode, res.body).toBe(200);
}

/** Saves a service's fields as the admin does (PUT /api/services/{service}/fields), expecting them taken. */
export async function saveServiceFields(t: TestApp, adminCookie: string, service: string, fields: readonly object[]) {
  const res = await t.request({
    method: 'PUT',
    url: `/api/services/${service}/fields`,
    as: adminCookie,
    payload: { fields },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** A buyer with no login, for campaigns; override any field of its form. */
export async function createBuyer(t: TestApp, overrides: Partial<BuyerCreate> = {}) {
  return t.deps.services.buyers.create(buyerInput(overrides));
}

/**
 * A ZIP in each state the tests sell in (the zips table places it there): a lead posted with
 * `ZIP_OF_STATE[state]` reaches the campaigns buying that state, so each test can keep to its own.
 */
export const ZIP_OF_STATE: Record<string, string> = {
  TX: '75201',
  CA: '90210',
  NY: '10001',
  AZ: '85004',
  FL: '33101',
  IL: '60601',
  GA: '30301',
  WA: '98101',
  CO: '80202',
  OH: '43215',
  NV: '89101',
};

/**
 * A sale of a roofing lead in `state` (a ZIP of `ZIP_OF_STATE`) from the source `sourceId`, paying it
 * $10, as the engine's sale path receives it (the sale tests' request).
 */
export function roofingSaleRequest(
  t: TestApp,
  sourceId: string,
  state: string,
  name: string,
  phone = uniquePhone(),
): SaleRequest {
  return {
    caller: t.deps.engine.callerFor(sourceId),
    pingId: null,
    service: 'roofing',
    zip: ZIP_OF_STATE[state] as string,
    channel: null,
    campaign: null,
    test: false,
    payoutCents: 1000,
    contact: { name, phone },
    meta: { ip: '127.0.0.1' },
  };
}

let phoneCounter = 0;
/** A valid, unique US phone number. */
export function uniquePhone(): string {
  phoneCounter += 1;
  const line = String(2000000 + ((phoneCounter * 7919 + Math.floor(Math.random() * 1000)) % 7999999)).padStart(7, '0');
  // 555-0100 to 555-0199 are fiction, refused as a consumer's phone (issue 32): never drawn.
  return `512${line.replace(/^55501/, '55521')}`;
}

/** A valid lead as a source posts it (POST /api/lead), with a unique phone and email; override any field. */
export function leadInput(overrides: Record<string, unknown> = {}) {
  return {
    service: 'roofing',
    zip: '75201',
    name: 'Pat Lee',
    phone: uniquePhone(),
    email: `pat.${unique()}@example.com`,
    ...overrides,
  };
}

/**
 * Posts a lead (`leadInput(overrides)`) as the source of `apiKey`, expects it sold, and answers its
 * id and its first match (the only one of an exclusive sale).
 */
export async function postSoldLead(t: TestApp, apiKey: string, overrides: Record<string, unknown> = {}) {
  const res = await t.sourceApi('/api/lead', apiKey, leadInput(overrides));
  expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
  const leadId = res.json().lead_id as string;
  const [match] = await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, leadId));
  if (!match) throw new Error(`no match for the sold lead ${leadId}`);
  return { leadId, matchId: match.id, match };
}

/** A sold lead and its match, as the return routes name them. */
export interface Sale {
  leadId: string;
  matchId: string;
}

/** POST /api/lead/{lead}/match/{match}/return as `as`: a buyer asks to return a sale, an admin approves or denies it. */
export function postReturn(t: TestApp, as: string, sale: Sale, payload: object) {
  return t.request({ method: 'POST', url: `/api/lead/${sale.leadId}/match/${sale.matchId}/return`, as, payload });
}

/**
 * The name of a test whose requests run "at once" in one process. On PGlite they run one statement
 * at a time, so there the test proves nothing about atomicity, and its name says so; the same test on
 * PostgreSQL (the server-postgres project) races real connections.
 */
export function atOnce(name: string): string {
  return testDatabaseKind === 'pglite' ? `${name} (sequential on PGlite: atomicity is proven on PostgreSQL)` : name;
}

/** A sold lead of the buyer at `at` for `dollars`, written directly. */
export async function insertSale(
  t: TestApp,
  buyerId: string,
  campaignId: string,
  sourceId: string,
  at: string,
  dollars: number,
  extra: { rejected?: boolean; returnStatus?: 'requested' | 'approved' | 'denied'; undelivered?: boolean } = {},
): Promise<{ leadId: string; matchId: string }> {
  const leadId = newId('lead');
  await t.deps.db.insert(leads).values({
    id: leadId,
    sourceId,
    service: 'roofing',
    zip: '75201',
    priceCents: Math.round(dollars * 100),
    createdAt: new Date(at),
  });
  const matchId = newId('mat');
  await t.deps.db.insert(leadMatches).values({
    id: matchId,
    leadId,
    campaignId,
    buyerId,
    kind: 'exclusive',
    priceCents: Math.round(dollars * 100),
    rejected: extra.rejected ?? false,
    returnStatus: extra.returnStatus ?? null,
    deliveryStatus: extra.undelivered ? 'undelivered' : 'delivered',
    createdAt: new Date(at),
  });
  return { leadId, matchId };
}

/**
 * Another buyer (with a login) shares a sold lead at `priceCents`: a delivered shared match on a draft
 * campaign of its own, written directly (the returns tests split a lead's payout over its sales).
 */
export async function shareSoldLead(t: TestApp, leadId: string, priceCents: number): Promise<Sale> {
  const other = await createBuyerWithLogin(t);
  const matchId = newId('mat');
  await t.deps.db.insert(leadMatches).values({
    id: matchId,
    leadId,
    campaignId: await createCampaign(t, other.buyer._id, { status: 'draft' }),
    buyerId: other.buyer._id,
    kind: 'shared',
    priceCents,
    deliveryStatus: 'delivered',
    createdAt: t.clock.now(),
  });
  return { leadId, matchId };
}

/**
 * The leads screens' market (the leads lists, a lead's fields): Texas Roofs buying `services` in Texas
 * at $42 and Sooner Solar in Oklahoma at $30, each with a signed-in user; two sources paid $11 and $5,
 * each with a key and a signed-in user.
 */
export async function createLeadsMarket(t: TestApp, services: string[]) {
  const texas = await createBuyerWithLogin(t, { name: 'Texas Roofs' });
  const oklahoma = await createBuyerWithLogin(t, { name: 'Sooner Solar' });
  await createCampaign(t, texas.buyer._id, { price: 42, services, states: ['TX'] });
  await createCampaign(t, oklahoma.buyer._id, { price: 30, services, states: ['OK'] });
  const source = await createSourceWithKeyAndLogin(t, { maxCost: 11 });
  const otherSource = await createSourceWithKeyAndLogin(t, { maxCost: 5 });
  return { texas, oklahoma, source, otherSource };
}
export type LeadsMarket = Awaited<ReturnType<typeof createLeadsMarket>>;

/** Posts a consented roofing lead in Dallas (a new phone) as the source of `apiKey`; answers its id. */
export async function postLeadId(t: TestApp, apiKey: string, fields: Record<string, unknown>): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/api/lead',
    headers: { authorization: `Bearer ${apiKey}` },
    payload: { service: 'roofing', zip: '75201', phone: uniquePhone(), tcpa_consent: 'true', ...fields },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().lead_id as string;
}

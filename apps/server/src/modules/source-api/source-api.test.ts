import { parse } from 'csv-parse/sync';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test/database';
import { atOnce, createBuyer, createCampaign, createSourceWithKey, uniquePhone } from '../../../test/factories';
import { ADMIN, createTestApp, useTestApp } from '../../../test/harness';
import { apiKeys, capCounters, idempotencyKeys, leadMatches, leads, pings, sources } from '../../db/schema';
import { unpackExplanation } from '../../distribution/explanation';
import invalidLeads from './source-api.invalid-leads.json';

const t = useTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

const call = (
  url: string,
  apiKey: string | undefined,
  payload: object | string,
  headers: Record<string, string> = {},
) =>
  t.request({
    method: 'POST',
    url,
    payload,
    headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...headers },
  });

const contact = () => ({
  name: 'Pat Lee',
  phone: uniquePhone(),
  email: `pat.${Math.random().toString(36).slice(2)}@example.com`,
  tcpa_consent: true,
});

describe('ping and post', () => {
  it('quotes the payout at the ping and sells the lead at the post', async () => {
    const buyer = await createBuyer(t);
    const campaignId = await createCampaign(t, buyer._id, { price: 45, states: ['TX'], services: ['roofing'] });
    const { apiKey, sourceId } = await createSourceWithKey(t, { maxCost: 12.5 });

    const ping = await call('/api/ping', apiKey, { service: 'roofing', zip: '75201' });
    expect(ping.statusCode).toBe(200);
    expect(ping.json()).toMatchObject({
      ok: true,
      price: 12.5,
      ping_id: expect.any(String),
      expires: expect.any(Number),
    });

    const post = await call('/api/post', apiKey, { ping_id: ping.json().ping_id, ...contact(), homeowner: 'yes' });
    expect(post.statusCode).toBe(200);
    expect(post.json()).toMatchObject({
      ok: true,
      status: 'sold',
      price: 12.5,
      lead_id: expect.stringMatching(/^lead_/),
    });

    const [lead] = await t.database.db.select().from(leads).where(eq(leads.id, post.json().lead_id));
    expect(lead).toMatchObject({
      sourceId,
      service: 'roofing',
      zip: '75201',
      state: 'TX',
      priceCents: 4500,
      costCents: 1250,
      tcpaConsent: true,
      homeowner: true,
      test: false,
    });
    const matches = await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, post.json().lead_id));
    expect(matches).toEqual([
      expect.objectContaining({ campaignId, buyerId: buyer._id, kind: 'exclusive', priceCents: 4500 }),
    ]);
    expect(await unpackExplanation(t.database.db, lead?.explanation ?? null)).toEqual(
      expect.arrayContaining([expect.objectContaining({ campaign: campaignId, eligible: true, won: true })]),
    );
  });

  it('keeps the sub_id and pub_id the ping carried on the lead its post makes, in the lists and the CSV (#27.9)', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 40, states: ['NV'], services: ['roofing'] });
    const { apiKey } = await createSourceWithKey(t, { maxCost: 10 });
    const ping = await call('/api/ping', apiKey, {
      service: 'roofing',
      zip: '89101',
      channel: 'web',
      sub_id: 'sub-ping-7',
      pub_id: 'pub-ping-9',
    });
    expect(ping.json()).toMatchObject({ ok: true });
    // The post sends neither: the ping's stay the lead's, as its channel does.
    const post = await call('/api/post', apiKey, { ping_id: ping.json().ping_id, ...contact() });
    expect(post.json()).toMatchObject({ ok: true, status: 'sold' });
    const leadId = post.json().lead_id;
    const [row] = await t.database.db.select().from(leads).where(eq(leads.id, leadId));
    expect(row).toMatchObject({ channel: 'web', subId: 'sub-ping-7', pubId: 'pub-ping-9' });

    const admin = await t.signIn(ADMIN.email, ADMIN.password);
    const list = await t.request({ method: 'GET', url: '/api/lead/date/today?zip=89101', as: admin });
    expect(list.json().data).toEqual([
      expect.objectContaining({ _id: leadId, channel: 'web', sub_id: 'sub-ping-7', pub_id: 'pub-ping-9' }),
    ]);
    const csv = await t.request({ method: 'GET', url: '/api/lead/date/today/export.csv?zip=89101', as: admin });
    const [columns = [], cells = []]: string[][] = parse(csv.body);
    expect(cells[columns.indexOf('Sub Id')]).toBe('sub-ping-7');
    expect(cells[columns.indexOf('Pub Id')]).toBe('pub-ping-9');

    // A ping's value wins over a different one at the post: it is what the buyers were pinged with.
    const again = await call('/api/ping', apiKey, { service: 'roofing', zip: '89101', sub_id: 'sub-a' });
    const repost = await call('/api/post', apiKey, {
      ping_id: again.json().ping_id,
      ...contact(),
      sub_id: 'sub-b',
      pub_id: 'pub-b',
    });
    const [second] = await t.database.db.select().from(leads).where(eq(leads.id, repost.json().lead_id));
    expect(second).toMatchObject({ subId: 'sub-a', pubId: 'pub-b' });
  });

  it('answers no_match and stores the lead, explaining each campaign', async () => {
    const buyer = await createBuyer(t);
    const paused = await createCampaign(t, buyer._id, { services: ['gutters'], states: ['OK'], status: 'pause' });
    const { apiKey } = await createSourceWithKey(t);
    const ping = await call('/api/ping', apiKey, { service: 'gutters', zip: '73102' });
    expect(ping.json()).toEqual({ ok: false, reason: 'no_match' });
    const lead = await call('/api/lead', apiKey, { service: 'gutters', zip: '73102', ...contact() });
    expect(lead.json()).toMatchObject({ ok: false, reason: 'no_match', lead_id: expect.any(String) });
    const [row] = await t.database.db.select().from(leads).where(eq(leads.id, lead.json().lead_id));
    expect(await unpackExplanation(t.database.db, row?.explanation ?? null)).toEqual([
      expect.objectContaining({ campaign: paused, eligible: false, rule: 'status' }),
    ]);
  });

  it('sells shared when three shared bids beat the exclusive one', async () => {
    const exclusive = await createBuyer(t);
    await createCampaign(t, exclusive._id, { price: 50, services: ['siding'], states: ['CO'] });
    for (let i = 0; i < 3; i++)
      await createCampaign(t, (await createBuyer(t))._id, {
        price: 30,
        shared: 20,
        services: ['siding'],
        states: ['CO'],
      });
    const { apiKey } = await createSourceWithKey(t, { maxCost: 10 });
    const sale = await call('/api/lead', apiKey, { service: 'siding', zip: '80202', ...contact() });
    expect(sale.json()).toMatchObject({ ok: true, status: 'sold' });
    const matches = await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, sale.json().lead_id));
    expect(matches.map((m) => [m.kind, m.priceCents])).toEqual([
      ['shared', 2000],
      ['shared', 2000],
      ['shared', 2000],
    ]);
  });

  it('honours minprice and never sells below the payout', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 8, services: ['windows'], states: ['AZ'] });
    const cheap = await createSourceWithKey(t, { maxCost: 5 });
    expect((await call('/api/ping', cheap.apiKey, { service: 'windows', zip: '85004', minprice: 6 })).json()).toEqual({
      ok: false,
      reason: 'no_match',
    });
    expect(
      (await call('/api/ping', cheap.apiKey, { service: 'windows', zip: '85004', minprice: '4.99' })).json(),
    ).toMatchObject({ ok: true, price: 5 });
    const dear = await createSourceWithKey(t, { maxCost: 9 });
    expect((await call('/api/ping', dear.apiKey, { service: 'windows', zip: '85004' })).json()).toEqual({
      ok: false,
      reason: 'no_match',
    });
  });

  it('pays the channel’s cost when the channel has one', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 30, services: ['hvac'], states: ['GA'] });
    const { apiKey } = await createSourceWithKey(t, { maxCost: 10, channels: [{ name: 'facebook', maxCost: 14 }] });
    expect((await call('/api/ping', apiKey, { service: 'hvac', zip: '30303', channel: 'facebook' })).json().price).toBe(
      14,
    );
    expect((await call('/api/ping', apiKey, { service: 'hvac', zip: '30303', channel: 'google' })).json().price).toBe(
      10,
    );
  });

  it('targets only the campaign a Branded Id names', async () => {
    const a = await createBuyer(t);
    const b = await createBuyer(t);
    await createCampaign(t, a._id, { price: 90, services: ['plumbing'], states: ['IL'] });
    const named = await createCampaign(t, b._id, {
      price: 20,
      services: ['plumbing'],
      states: ['IL'],
      fixedId: 'BRANDED-IL',
    });
    const { apiKey } = await createSourceWithKey(t);
    const sale = await call('/api/lead', apiKey, {
      service: 'plumbing',
      zip: '60601',
      campaign: 'branded-il',
      ...contact(),
    });
    const [match] = await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, sale.json().lead_id));
    expect(match?.campaignId).toBe(named);
  });
});

describe('selling once', () => {
  it(atOnce('sells a ping_id posted twice concurrently once, and both calls get the same answer'), async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { services: ['solar'], states: ['NV'] });
    const { apiKey } = await createSourceWithKey(t);
    const ping = (await call('/api/ping', apiKey, { service: 'solar', zip: '89101' })).json();
    const body = { ping_id: ping.ping_id, ...contact() };
    const [first, second] = await Promise.all([call('/api/post', apiKey, body), call('/api/post', apiKey, body)]);
    expect(first.json()).toEqual(second.json());
    expect(first.json().status).toBe('sold');
    const rows = await t.database.db.select().from(leads).where(eq(leads.id, first.json().lead_id));
    expect(rows).toHaveLength(1);
    expect(
      await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, first.json().lead_id)),
    ).toHaveLength(1);
  });

  it('replays the answer of a retried direct lead with the same Idempotency-Key', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { services: ['solar'], states: ['NM'] });
    const { apiKey } = await createSourceWithKey(t);
    const body = { service: 'solar', zip: '87101', ...contact() };
    const first = await call('/api/lead', apiKey, body, { 'idempotency-key': 'retry-1' });
    const again = await call('/api/lead', apiKey, body, { 'idempotency-key': 'retry-1' });
    expect(again.json()).toEqual(first.json());
    expect(await t.database.db.select().from(leads).where(eq(leads.phone, body.phone))).toHaveLength(1);
  });

  it('never sells a buyer the same phone twice, and refuses a source re-posting a lead within 5 minutes', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { services: ['pest_control'], states: ['FL'] });
    const one = await createSourceWithKey(t);
    const two = await createSourceWithKey(t);
    const person = contact();
    expect(
      (await call('/api/lead', one.apiKey, { service: 'pest_control', zip: '33130', ...person })).json().status,
    ).toBe('sold');
    const repost = await call('/api/lead', one.apiKey, { service: 'pest_control', zip: '33130', ...person });
    expect(repost.json()).toMatchObject({ ok: false, reason: 'duplicate' });
    const elsewhere = await call('/api/lead', two.apiKey, { service: 'pest_control', zip: '33130', ...person });
    expect(elsewhere.json()).toMatchObject({ ok: false, reason: 'no_match' });
    const [row] = await t.database.db.select().from(leads).where(eq(leads.id, elsewhere.json().lead_id));
    expect(await unpackExplanation(t.database.db, row?.explanation ?? null)).toEqual([
      expect.objectContaining({ eligible: false, rule: 'duplicate' }),
    ]);
  });

  it('finds a duplicate another process sold that this one has not heard of yet', async () => {
    const first = await createBuyer(t);
    const second = await createBuyer(t);
    const bought = await createCampaign(t, first._id, { price: 70, services: ['windows'], states: ['KS'] });
    const next = await createCampaign(t, second._id, { price: 30, services: ['windows'], states: ['KS'] });
    const { apiKey, sourceId } = await createSourceWithKey(t, { maxCost: 10 });
    const person = contact();
    // The other process's sale: in the database only, not in this process's memory of recent sales.
    const now = t.clock.now();
    await t.database.db.insert(leads).values({
      id: 'lead_elsewhere',
      sourceId,
      service: 'windows',
      zip: '66101',
      phone: person.phone,
      createdAt: new Date(now.getTime() - 3_600_000),
    });
    await t.database.db.insert(leadMatches).values({
      id: 'mat_elsewhere',
      leadId: 'lead_elsewhere',
      campaignId: bought,
      buyerId: first._id,
      kind: 'exclusive',
      priceCents: 7000,
      createdAt: new Date(now.getTime() - 3_600_000),
    });
    const sold = (await call('/api/lead', apiKey, { service: 'windows', zip: '66101', ...person })).json();
    expect(sold).toMatchObject({ ok: true, status: 'sold' });
    const matches = await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, sold.lead_id));
    expect(matches.map((m) => m.campaignId)).toEqual([next]);
    const [row] = await t.database.db.select().from(leads).where(eq(leads.id, sold.lead_id));
    expect(await unpackExplanation(t.database.db, row?.explanation ?? null)).toContainEqual(
      expect.objectContaining({ campaign: bought, rule: 'duplicate' }),
    );
  });

  it('checks duplicates at the ping when it carries a phone hash', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { services: ['kitchen_remodel'], states: ['WA'] });
    const { apiKey } = await createSourceWithKey(t);
    const person = contact();
    expect(
      (await call('/api/lead', apiKey, { service: 'kitchen_remodel', zip: '98101', ...person })).json().status,
    ).toBe('sold');
    const { createHash } = await import('node:crypto');
    const phone_hash = createHash('sha256').update(person.phone).digest('hex');
    expect((await call('/api/ping', apiKey, { service: 'kitchen_remodel', zip: '98101', phone_hash })).json()).toEqual({
      ok: false,
      reason: 'no_match',
    });
    expect((await call('/api/ping', apiKey, { service: 'kitchen_remodel', zip: '98101' })).json().ok).toBe(true);
  });
});

describe('caps', () => {
  // The engine's periodic refresh is stopped: the test reloads the counts from the database where it
  // means to, so what it sees never depends on when a one-second timer happens to fire.
  beforeAll(() => t.deps.engine.stop());
  afterAll(() => t.deps.engine.start());

  const countersOf = (campaignId: string) =>
    t.database.db
      .select({ period: capCounters.period, periodStart: capCounters.periodStart, n: capCounters.n })
      .from(capCounters)
      .where(eq(capCounters.campaignId, campaignId))
      .orderBy(asc(capCounters.periodStart), asc(capCounters.period));

  it('stops selling at a daily cap, counted in the database in the campaign’s zone, and counts again the next day there', async () => {
    // 08:00 on Wednesday 10 June in Los Angeles (11:00 in New York, the default zone).
    t.clock.set('2026-06-10T15:00:00Z');
    const buyer = await createBuyer(t);
    const campaignId = await createCampaign(t, buyer._id, {
      services: ['bath_remodel'],
      states: ['OR'],
      max: { hourly: 50, daily: 2, weekly: 50, monthly: 50 },
      time: { zone: 'America/Los_Angeles', weekday: { start: 0, end: 0 }, weekend: { start: 0, end: 0 } },
    });
    const { apiKey } = await createSourceWithKey(t);
    const sell = async () => {
      const res = (await call('/api/lead', apiKey, { service: 'bath_remodel', zip: '97201', ...contact() })).json();
      if (!res.ok && res.reason !== 'no_match') throw new Error(JSON.stringify(res));
      return res;
    };
    expect((await sell()).status).toBe('sold');
    expect((await sell()).status).toBe('sold');
    expect(await sell()).toMatchObject({ ok: false, reason: 'no_match' });
    // The counters are keyed by the periods' starts in Los Angeles (PDT, UTC-7), not New York's.
    expect(await countersOf(campaignId)).toEqual([
      { period: 'monthly', periodStart: new Date('2026-06-01T07:00:00Z'), n: 2 },
      { period: 'weekly', periodStart: new Date('2026-06-08T07:00:00Z'), n: 2 },
      { period: 'daily', periodStart: new Date('2026-06-10T07:00:00Z'), n: 2 },
      { period: 'hourly', periodStart: new Date('2026-06-10T15:00:00Z'), n: 2 },
    ]);
    // 23:59 in Los Angeles is still the same day (already 02:59 the next day in New York), by the
    // counts this process noted at its sales and by the counts it reads back from the database (the
    // ping answers from those alone).
    t.clock.set('2026-06-11T06:59:00Z');
    const ping = () => call('/api/ping', apiKey, { service: 'bath_remodel', zip: '97201' }).then((r) => r.json());
    expect(await ping()).toEqual({ ok: false, reason: 'no_match' });
    expect(await sell()).toMatchObject({ reason: 'no_match' });
    await t.deps.engine.reload();
    expect(await ping()).toEqual({ ok: false, reason: 'no_match' });
    expect(await sell()).toMatchObject({ reason: 'no_match' });
    // ...and midnight there opens a new one, in a new daily counter.
    t.clock.set('2026-06-11T07:00:30Z');
    await t.deps.engine.reload();
    expect((await sell()).status).toBe('sold');
    expect((await countersOf(campaignId)).filter((c) => c.period === 'daily')).toEqual([
      { period: 'daily', periodStart: new Date('2026-06-10T07:00:00Z'), n: 2 },
      { period: 'daily', periodStart: new Date('2026-06-11T07:00:00Z'), n: 1 },
    ]);
  });
});

describe('a cap filled since the ping', () => {
  // Another process sold the last slot: this process's counts do not know yet, the database does.
  // The engine's periodic refresh is stopped meanwhile, or it could learn of the fill before the sale.
  beforeAll(() => t.deps.engine.stop());
  afterAll(() => t.deps.engine.start());
  const fillBehindTheIndex = (campaignId: string, period: string, n: number) =>
    t.database.db.execute(
      sql`update cap_counters set n = ${n} where campaign_id = ${campaignId} and period = ${period}`,
    );
  /** A $60 campaign with a daily cap, the next bidder's campaign at `nextPrice`, and a source paid $20 a lead. */
  async function cappedAndNext(where: { service: string; state: string }, daily: number, nextPrice: number) {
    t.clock.set('2026-06-10T15:00:00Z');
    const first = await createBuyer(t);
    const second = await createBuyer(t);
    const market = { services: [where.service], states: [where.state] };
    const capped = await createCampaign(t, first._id, { price: 60, ...market, max: { daily } });
    const next = await createCampaign(t, second._id, { price: nextPrice, ...market });
    const { apiKey } = await createSourceWithKey(t, { maxCost: 20 });
    return { capped, next, apiKey };
  }

  it('moves the sale to the next bidder when its price still covers the payout', async () => {
    const { capped, next, apiKey } = await cappedAndNext({ service: 'gutters', state: 'ID' }, 5, 40);
    const lead = () => call('/api/lead', apiKey, { service: 'gutters', zip: '83702', ...contact() });

    expect((await lead()).json().status).toBe('sold');
    await fillBehindTheIndex(capped, 'daily', 5);
    const moved = (await lead()).json();
    expect(moved).toMatchObject({ ok: true, status: 'sold' });
    const matches = await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, moved.lead_id));
    expect(matches.map((m) => m.campaignId)).toEqual([next]);
    const [row] = await t.database.db.select().from(leads).where(eq(leads.id, moved.lead_id));
    expect(await unpackExplanation(t.database.db, row?.explanation ?? null)).toContainEqual(
      expect.objectContaining({ campaign: capped, eligible: false, rule: 'cap', detail: 'cap filled during the sale' }),
    );
    const [counter] = await t.database.db
      .execute<{ n: number }>(sql`select n from cap_counters where campaign_id = ${capped} and period = 'daily'`)
      .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
    expect(counter?.n).toBe(5);
  });

  it('answers no_match when no remaining bid covers the payout, and stores the lead unsold', async () => {
    const { capped, apiKey } = await cappedAndNext({ service: 'siding', state: 'MT' }, 3, 15);
    const ping = await call('/api/ping', apiKey, { service: 'siding', zip: '59601' });
    expect(ping.json()).toMatchObject({ ok: true, price: 20 });
    await call('/api/lead', apiKey, { service: 'siding', zip: '59601', ...contact() });
    await fillBehindTheIndex(capped, 'daily', 3);
    const post = (await call('/api/post', apiKey, { ping_id: ping.json().ping_id, ...contact() })).json();
    expect(post).toMatchObject({ ok: false, reason: 'no_match' });
    const [row] = await t.database.db.select().from(leads).where(eq(leads.id, post.lead_id));
    expect(row).toMatchObject({ priceCents: 0, costCents: 0, answer: post });
    expect(await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, post.lead_id))).toEqual([]);
  });
});

describe('an Idempotency-Key', () => {
  const HOUR = 3_600_000;
  const keysOf = (keyId: string) =>
    t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.apiKeyId, keyId));

  it('replays the first answer until 24 hours have passed, then takes the request as a new one', async () => {
    t.clock.set('2026-07-01T12:00:00Z');
    const start = t.clock.now().getTime();
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { services: ['roofing'], states: ['SC'] });
    const { apiKey, keyId } = await createSourceWithKey(t);
    const body = { service: 'roofing', zip: '29201', ...contact() };
    const send = () => call('/api/lead', apiKey, body, { 'idempotency-key': 'day-key' });

    const first = await send();
    expect(first.json()).toMatchObject({ ok: true, status: 'sold' });
    // Just inside 24 hours: the first answer, and nothing new stored.
    t.clock.set(new Date(start + 24 * HOUR - 1));
    const retried = await send();
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual(first.json());
    expect(await t.database.db.select().from(leads).where(eq(leads.phone, body.phone))).toHaveLength(1);

    // 24 hours on, the key names a new request: a new lead (the buyer bought this phone a day ago).
    t.clock.set(new Date(start + 24 * HOUR));
    const renewed = await send();
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json()).toMatchObject({ ok: false, reason: 'no_match', lead_id: expect.stringMatching(/^lead_/) });
    expect(renewed.json().lead_id).not.toBe(first.json().lead_id);
    expect(await t.database.db.select().from(leads).where(eq(leads.phone, body.phone))).toHaveLength(2);
    // The key now replays the new answer, for 24 hours from the new request.
    t.clock.advance(1_000);
    expect((await send()).json()).toEqual(renewed.json());
    expect(await keysOf(keyId)).toEqual([
      expect.objectContaining({ key: 'day-key', statusCode: 200, createdAt: new Date(start + 24 * HOUR) }),
    ]);
  });

  it(
    atOnce('an expired key retried twice at once is one new request: one new lead, the same answer twice'),
    async () => {
      t.clock.set('2026-07-10T12:00:00Z');
      const buyer = await createBuyer(t);
      await createCampaign(t, buyer._id, { services: ['roofing'], states: ['ND'] });
      const { apiKey } = await createSourceWithKey(t);
      const body = { service: 'roofing', zip: '58102', ...contact() };
      const send = () => call('/api/lead', apiKey, body, { 'idempotency-key': 'race-key' });
      expect((await send()).json()).toMatchObject({ ok: true, status: 'sold' });
      t.clock.advance(48 * HOUR);
      const [one, two] = await Promise.all([send(), send()]);
      expect(one.statusCode).toBe(200);
      expect(two.statusCode).toBe(200);
      expect(two.json()).toEqual(one.json());
      expect(await t.database.db.select().from(leads).where(eq(leads.phone, body.phone))).toHaveLength(2);
    },
  );
});

/**
 * DESIGN.md §5: the cap check is a conditional increment that reads the LOCKED counter row. Here a
 * sale (as if another process's) holds the counter's last slot, uncommitted, while this process's
 * sale starts: its statement's snapshot still shows the slot free. It must wait for the lock and then
 * judge by the row as committed, not by its snapshot. PGlite runs one statement at a time, so it
 * cannot hold a lock across two connections: this runs on PostgreSQL only.
 */
describe.skipIf(testDatabaseKind !== 'postgres')(
  'a cap check waiting on a counter another transaction is filling (PostgreSQL only: PGlite runs one statement at a time)',
  () => {
    /** Waits until some connection of this database waits on a lock: the sale under test is blocked. */
    async function untilASaleWaitsOnALock(): Promise<void> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const rows = await t.database.db.execute<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and state = 'active'`,
        );
        if (((rows as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0) > 0) return;
        if (Date.now() > deadline) throw new Error('the sale never waited on the counter’s lock');
        await new Promise((r) => setTimeout(r, 10));
      }
    }

    it.each([
      ['the one-statement sale', {}],
      ['the careful sale (an Idempotency-Key)', { 'idempotency-key': 'locked-cap' }],
    ])('%s reads the locked row, not its snapshot, and does not oversell', async (_, headers) => {
      t.clock.set('2026-06-10T15:00:00Z');
      const buyer = await createBuyer(t);
      const state = Object.keys(headers).length === 0 ? 'VT' : 'NH';
      const zip = state === 'VT' ? '05401' : '03101';
      const campaignId = await createCampaign(t, buyer._id, { services: ['hvac'], states: [state], max: { daily: 3 } });
      const { apiKey } = await createSourceWithKey(t);
      for (let i = 0; i < 2; i++)
        expect((await call('/api/lead', apiKey, { service: 'hvac', zip, ...contact() })).json().status).toBe('sold');

      let pending: ReturnType<typeof call> | undefined;
      await t.database.db.transaction(async (tx) => {
        // The other sale takes the last slot and holds the row until it commits.
        await tx.execute(sql`update cap_counters set n = n + 1 where campaign_id = ${campaignId} and period = 'daily'`);
        pending = call('/api/lead', apiKey, { service: 'hvac', zip, ...contact() }, headers);
        await untilASaleWaitsOnALock();
      });
      const answer = await (pending as ReturnType<typeof call>);
      expect(answer.json()).toMatchObject({ ok: false, reason: 'no_match' });
      const [counter] = await t.database.db
        .select({ n: capCounters.n })
        .from(capCounters)
        .where(eq(capCounters.campaignId, campaignId));
      expect(counter?.n).toBe(3);
      expect(await t.database.db.select().from(leadMatches).where(eq(leadMatches.campaignId, campaignId))).toHaveLength(
        2,
      );
    });
  },
);

describe('test mode', () => {
  it('quotes and answers test leads without counting caps or creating matches, and marks the source', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { services: ['roofing'], zips: ['99999'], location: 'zip', max: { daily: 1 } });
    const { apiKey, sourceId } = await createSourceWithKey(t, { approved: false });
    const ping = await call('/api/ping', apiKey, { service: 'roofing', zip: '99999', test: 'true' });
    expect(ping.json()).toMatchObject({ ok: true, test: true });
    for (let i = 0; i < 2; i++) {
      const post = await call('/api/post', apiKey, { ping_id: ping.json().ping_id, ...contact() });
      expect(post.json()).toMatchObject({ ok: true, status: 'sold', test: true });
    }
    const lead = await call('/api/lead', apiKey, { service: 'roofing', zip: '99999', test: true, ...contact() });
    expect(lead.json()).toMatchObject({ ok: true, test: true });
    expect(
      await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, lead.json().lead_id)),
    ).toHaveLength(0);
    // An unapproved source may test but not sell.
    expect((await call('/api/ping', apiKey, { service: 'roofing', zip: '99999' })).json()).toMatchObject({
      ok: false,
      reason: 'not_approved',
    });
    await t.deps.engine.flush();
    const [source] = await t.database.db.select().from(sources).where(eq(sources.id, sourceId));
    expect(source?.lastTestPingSentAt).toBeInstanceOf(Date);
    expect(source?.lastTestLeadSentAt).toBeInstanceOf(Date);
    expect(source?.lastPingSentAt).toBeNull();
  });
});

describe('refusals', () => {
  it('answers 401 without a key or with an unknown one, 403 for a held or expired key or source', async () => {
    expect((await call('/api/ping', undefined, { service: 'roofing', zip: '75201' })).statusCode).toBe(401);
    const unknown = await call('/api/ping', 'lx_not-a-key', { service: 'roofing', zip: '75201' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toMatchObject({ ok: false, reason: 'unauthorized' });
    const held = await createSourceWithKey(t, { held: true });
    expect((await call('/api/ping', held.apiKey, { service: 'roofing', zip: '75201' })).json()).toMatchObject({
      reason: 'held',
    });
    const expiring = await createSourceWithKey(t);
    await t.database.db
      .update(apiKeys)
      .set({ expiresAt: new Date(t.clock.now().getTime() - 1000) })
      .where(eq(apiKeys.id, expiring.keyId));
    await t.deps.engine.reload();
    const expired = await call('/api/ping', expiring.apiKey, { service: 'roofing', zip: '75201' });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().reason).toBe('expired');
  });

  it('accepts the key as an apikey field, in JSON, form and XML bodies', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { services: ['roofing'], states: ['KS'] });
    const { apiKey } = await createSourceWithKey(t);
    expect((await call('/api/ping', undefined, { apikey: apiKey, service: 'roofing', zip: '66101' })).json().ok).toBe(
      true,
    );
    const form = await call('/api/ping', undefined, `apikey=${encodeURIComponent(apiKey)}&service=roofing&zip=66101`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.json().ok).toBe(true);
    const xml = await call(
      '/api/ping',
      apiKey,
      '<ping><service>roofing</service><zip>66101</zip><test>false</test></ping>',
      { 'content-type': 'application/xml' },
    );
    expect(xml.json().ok).toBe(true);
  });

  it('refuses direct leads from a source not approved to post directly', async () => {
    const { apiKey } = await createSourceWithKey(t, { canPostLead: false });
    const res = await call('/api/lead', apiKey, { service: 'roofing', zip: '75201', ...contact() });
    expect(res.statusCode).toBe(403);
    expect(res.json().reason).toBe('forbidden');
  });

  // Each row (source-api.invalid-leads.json): the field named, the lead posted, the field's message.
  it.each(invalidLeads as [field: string, body: Record<string, string>, message: string][])(
    'answers 400 naming %s, storing nothing',
    async (field, body, message) => {
      const { apiKey, sourceId } = await createSourceWithKey(t);
      const res = await call('/api/lead', apiKey, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ ok: false, reason: 'invalid', errors: { [field]: message } });
      expect(await t.database.db.select().from(leads).where(eq(leads.sourceId, sourceId))).toHaveLength(0);
    },
  );

  it('records a lead whose consent fields are missing', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { services: ['roofing'], states: ['NE'] });
    const { apiKey } = await createSourceWithKey(t);
    const res = await call('/api/lead', apiKey, {
      service: 'roofing',
      zip: '68102',
      name: 'No Consent',
      phone: uniquePhone(),
    });
    expect(res.json().ok).toBe(true);
    const [row] = await t.database.db.select().from(leads).where(eq(leads.id, res.json().lead_id));
    expect(row?.tcpaConsent).toBeNull();
  });

  it('refuses a tampered, foreign or expired ping_id', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { services: ['roofing'], states: ['MO'] });
    const mine = await createSourceWithKey(t);
    const other = await createSourceWithKey(t);
    const ping = (await call('/api/ping', mine.apiKey, { service: 'roofing', zip: '63101' })).json();
    // The token is sealed: flipping one bit of the ciphertext (the price, say) must not pass.
    const bytes = Buffer.from(ping.ping_id, 'base64url');
    bytes[20] = (bytes[20] ?? 0) ^ 0x01;
    const tampered = await call('/api/post', mine.apiKey, { ping_id: bytes.toString('base64url'), ...contact() });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().errors).toEqual({ ping_id: 'ping_id is not valid' });
    expect((await call('/api/post', other.apiKey, { ping_id: ping.ping_id, ...contact() })).statusCode).toBe(400);
    t.clock.advance(10 * 60_000);
    const expired = await call('/api/post', mine.apiKey, { ping_id: ping.ping_id, ...contact() });
    expect(expired.json()).toMatchObject({ ok: false, reason: 'expired' });
  });

  // Issue 29 item 10: a new made-up key per call must not buy a new bucket.
  it('gives unknown API keys one bucket per client address, which leaves known keys theirs', async () => {
    const limited = await createTestApp({ PUBLIC_API_RATE_LIMIT: 3 });
    try {
      const { apiKey } = await createSourceWithKey(limited);
      const ping = (key: string, remoteAddress: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/ping',
          payload: { service: 'roofing', zip: '75201' },
          headers: { authorization: `Bearer ${key}` },
          remoteAddress,
        });
      // All at once, so they fall in one second's window however busy the machine is.
      const answers = await Promise.all(
        Array.from({ length: 5 }, (_, i) => ping(`lx_made_up_${i}_${Math.random()}`, '203.0.113.7')),
      );
      expect(answers.map((res) => res.statusCode).sort()).toEqual([401, 401, 401, 429, 429]);
      // Another address has its own bucket for unknown keys; a known key from the first address has its own too.
      expect((await ping('lx_made_up_other', '203.0.113.8')).statusCode).toBe(401);
      expect((await ping(apiKey, '203.0.113.7')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  }, 90_000);

  it('limits requests per API key, answering 429 with Retry-After', async () => {
    const limited = await createTestApp({ PUBLIC_API_RATE_LIMIT: 3 });
    try {
      const { apiKey } = await createSourceWithKey(limited);
      const statuses = [];
      for (let i = 0; i < 5; i++) {
        const res = await limited.request({
          method: 'POST',
          url: '/api/ping',
          payload: { service: 'roofing', zip: '75201' },
          headers: { authorization: `Bearer ${apiKey}` },
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) expect(res.headers['retry-after']).toBeDefined();
      }
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });
});

describe('ping records', () => {
  it('writes pings in batches, with unmatched ones counted for Buyer Gaps', async () => {
    const { apiKey, sourceId } = await createSourceWithKey(t);
    await call('/api/ping', apiKey, { service: 'solar', zip: '04101' });
    await t.deps.engine.flush();
    const rows = await t.database.db.select().from(pings).where(eq(pings.sourceId, sourceId));
    expect(rows).toEqual([
      expect.objectContaining({ service: 'solar', zip: '04101', priceCents: null, reason: 'no_match' }),
    ]);
  });
});

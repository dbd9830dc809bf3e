import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, uniquePhone } from '../../../test/factories';
import { bearer, FORM, form } from '../../../test/forms';
import { ADMIN, useTestApp } from '../../../test/harness';
import { leadMatches, leads } from '../../db/schema';
import { unpackExplanation } from '../../distribution/explanation';

/**
 * Issue 32 items 2, 5 and 6: the key where the lead platforms put it (checked before the body), their
 * test flags (a test lead is priced and explained, never sold, billed or paid), and the consumer's IP
 * and user agent never taken from the poster's request.
 */
const t = useTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

const send = (url: string, payload: object | string, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url, payload, headers });
const basic = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});

const contact = () => ({ name: 'Pat Lee', phone: uniquePhone(), email: `pat.${uniquePhone()}@example.com` });

/** A buyer campaign that takes every roofing lead of `state` at $60, and a source paid $20. */
async function market(state: string) {
  const buyer = await createBuyer(t);
  const campaignId = await createCampaign(t, buyer._id, { price: 60, states: [state], services: ['roofing'] });
  const source = await createSourceWithKey(t, { maxCost: 20 });
  return { buyerId: buyer._id, campaignId, ...source };
}

const leadRow = async (id: string) => (await t.database.db.select().from(leads).where(eq(leads.id, id)))[0];
const matchesOf = (id: string) => t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, id));

describe('the API key where the platforms put it (#32.2)', () => {
  let apiKey = '';
  beforeAll(async () => {
    ({ apiKey } = await market('KS'));
  });
  const ping = { service: 'roofing', zip: '66101' };

  it.each<[string, (key: string) => { url?: string; payload: object | string; headers?: Record<string, string> }]>([
    ['Authorization: Bearer', (key) => ({ payload: ping, headers: bearer(key) })],
    ['HTTP Basic, the key as password', (key) => ({ payload: ping, headers: basic('leadprosper', key) })],
    ['HTTP Basic, the key alone', (key) => ({ payload: ping, headers: basic('', key) })],
    ['an apikey JSON field', (key) => ({ payload: { ...ping, apikey: key } })],
    ['an APIKEY JSON field', (key) => ({ payload: { ...ping, APIKEY: key } })],
    ['an lp_key form field', (key) => ({ payload: form({ ...ping, lp_key: key }), headers: FORM })],
    ['an lp_campaign_key form field', (key) => ({ payload: form({ ...ping, lp_campaign_key: key }), headers: FORM })],
    ['a Key form field', (key) => ({ payload: form({ ...ping, Key: key }), headers: FORM })],
    ['a key JSON field', (key) => ({ payload: { ...ping, key } })],
    ['an lp_key query parameter', (key) => ({ url: `?lp_key=${encodeURIComponent(key)}`, payload: ping })],
    ['a Key query parameter', (key) => ({ url: `?Key=${encodeURIComponent(key)}`, payload: ping })],
    ['an apikey query parameter', (key) => ({ url: `?apikey=${encodeURIComponent(key)}`, payload: ping })],
  ])('accepts the key as %s, and refuses a wrong one there with 401 before any field error', async (_, place) => {
    const right = place(apiKey);
    const ok = await send(`/api/ping${right.url ?? ''}`, right.payload, right.headers);
    expect(ok.json()).toMatchObject({ ok: true, price: 20 });

    // A wrong key with a body missing its zip: the key is refused, the fields are never looked at.
    const wrong = place('lx_wrong-key');
    const bad =
      typeof wrong.payload === 'string'
        ? wrong.payload.replace('zip=66101', 'zip=1')
        : { ...(wrong.payload as object), zip: undefined };
    const refused = await send(`/api/ping${wrong.url ?? ''}`, bad, wrong.headers);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ ok: false, reason: 'unauthorized', message: 'Unknown API key' });
  });

  it('answers 401, not field errors, to a call with no key at all, on each route', async () => {
    for (const url of ['/api/ping', '/api/post', '/api/lead']) {
      const res = await send(url, {});
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ ok: false, reason: 'unauthorized' });
      expect(res.json().errors).toBeUndefined();
    }
    // With the key, the same body gets its field errors.
    const invalid = await send('/api/lead', {}, bearer(apiKey));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ reason: 'invalid', errors: { service: 'service is required' } });
  });

  it('never stores a key sent in the body with the lead or its metadata', async () => {
    for (const [payload, headers] of [
      [{ service: 'roofing', zip: '66101', ...contact(), lp_key: apiKey, metadata: { campaign: 'x' } }, {}],
      [form({ service: 'roofing', zip: '66101', ...contact(), Key: apiKey }), FORM],
    ] as const) {
      const res = await send('/api/lead', payload, headers);
      expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
      const row = await leadRow(res.json().lead_id);
      expect(JSON.stringify(row)).not.toContain(apiKey);
    }
  });
});

describe('test flags (#32.6)', () => {
  let m: Awaited<ReturnType<typeof market>>;
  beforeAll(async () => {
    m = await market('NE');
  });
  const lead = { service: 'roofing', zip: '68102' };

  /** The lead was priced and explained, but nothing was sold, billed or paid. */
  async function expectTestLead(leadId: string) {
    const row = await leadRow(leadId);
    expect(row).toMatchObject({ test: true, sold: false, priceCents: 0, costCents: 0 });
    expect(await matchesOf(leadId)).toEqual([]);
    expect(await unpackExplanation(t.database.db, row?.explanation ?? null)).toEqual(
      expect.arrayContaining([expect.objectContaining({ campaign: m.campaignId, eligible: true, won: true })]),
    );
  }

  const spellings: [string, string | boolean][] = [
    ['test', '1'],
    ['test', 'true'],
    ['lp_test', '1'],
    ['lp_test', 'yes'],
    ['lp_test', 'Y'],
    ['lp_action', 'test'],
    ['lp_action', 'TEST'],
    ['Test_Lead', 'Y'],
    ['Test_Lead', '1'],
    ['is_test', 'true'],
    ['is_test', 'yes'],
    ['xxTest', 'true'],
  ];

  it.each(spellings)('takes %s=%s in a form body as a test lead: priced, never sold', async (field, value) => {
    const res = await send('/api/lead', form({ ...lead, ...contact(), [field]: value }), {
      ...bearer(m.apiKey),
      ...FORM,
    });
    expect(res.json()).toMatchObject({ ok: true, status: 'sold', price: 20, test: true });
    await expectTestLead(res.json().lead_id);
  });

  it.each([...spellings, ['is_test', true] as [string, boolean], ['lp_test', 1 as unknown as boolean]])(
    'takes %s=%s in a JSON body as a test lead: priced, never sold',
    async (field, value) => {
      const res = await send('/api/lead', { ...lead, ...contact(), [field]: value }, bearer(m.apiKey));
      expect(res.json()).toMatchObject({ ok: true, test: true });
      await expectTestLead(res.json().lead_id);
    },
  );

  it('takes a Lead Prosper test post (lp_action=test) of a real ping as a test lead: the buyer is not charged nor the source paid', async () => {
    const ping = await send('/api/ping', lead, bearer(m.apiKey));
    expect(ping.json()).toMatchObject({ ok: true, price: 20 });
    const post = await send(
      '/api/post',
      form({ ping_id: ping.json().ping_id, ...contact(), lp_action: 'test', lp_campaign_key: m.apiKey }),
      FORM,
    );
    expect(post.json()).toMatchObject({ ok: true, test: true });
    await expectTestLead(post.json().lead_id);
  });

  it('takes a test flag at the ping: its answer and its post are tests', async () => {
    const ping = await send('/api/ping', form({ ...lead, Test_Lead: 'Y' }), { ...bearer(m.apiKey), ...FORM });
    expect(ping.json()).toMatchObject({ ok: true, test: true });
    const post = await send('/api/post', { ping_id: ping.json().ping_id, ...contact() }, bearer(m.apiKey));
    await expectTestLead(post.json().lead_id);
  });

  it.each<[string, string | boolean]>([
    ['test', 'false'],
    ['lp_test', '0'],
    ['Test_Lead', 'N'],
    ['is_test', false],
    ['lp_action', 'add'],
  ])('sells a real lead with %s=%s', async (field, value) => {
    const res = await send('/api/lead', { ...lead, ...contact(), [field]: value }, bearer(m.apiKey));
    expect(res.json()).toMatchObject({ ok: true, status: 'sold', price: 20 });
    expect(res.json().test).toBeUndefined();
    const row = await leadRow(res.json().lead_id);
    expect(row).toMatchObject({ test: false, sold: true, priceCents: 6000, costCents: 2000 });
    expect(await matchesOf(res.json().lead_id)).toEqual([
      expect.objectContaining({ buyerId: m.buyerId, priceCents: 6000 }),
    ]);
  });

  it('refuses a test flag it cannot read (after the key), rather than sell a lead meant as a test', async () => {
    const res = await send('/api/lead', { ...lead, ...contact(), lp_test: 'maybe' }, bearer(m.apiKey));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ reason: 'invalid', errors: { test: 'test must be true or false' } });
  });
});

describe("the consumer's IP and user agent (#32.5)", () => {
  let apiKey = '';
  beforeAll(async () => {
    ({ apiKey } = await market('OK'));
  });
  const poster = { 'user-agent': 'LeadConduit/1.0 (+https://activeprospect.com)' };

  it("stores none when the source sends none, and keeps the request's own address and client apart", async () => {
    const direct = await send(
      '/api/lead',
      { service: 'roofing', zip: '73102', ...contact() },
      {
        ...bearer(apiKey),
        ...poster,
      },
    );
    const ping = await send('/api/ping', { service: 'roofing', zip: '73102' }, bearer(apiKey));
    const posted = await send(
      '/api/post',
      { ping_id: ping.json().ping_id, ...contact() },
      {
        ...bearer(apiKey),
        ...poster,
      },
    );
    for (const res of [direct, posted]) {
      expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
      const row = await leadRow(res.json().lead_id);
      expect(row).toMatchObject({
        ip: null,
        userAgent: null,
        request: { ip: '127.0.0.1', user_agent: poster['user-agent'] },
      });
    }
    // The screens show none.
    const admin = await t.signIn(ADMIN.email, ADMIN.password);
    const list = await t.request({ method: 'GET', url: '/api/lead/date/today?zip=73102', as: admin });
    expect(list.json().data.length).toBeGreaterThanOrEqual(2);
    for (const shown of list.json().data) {
      expect(shown.ip).toBeUndefined();
      expect(shown.user_agent).toBeUndefined();
    }
  });

  it("stores the consumer's IP and user agent as the source sent them", async () => {
    const res = await send(
      '/api/lead',
      form({
        service: 'roofing',
        zip: '73102',
        ...contact(),
        ip: '198.51.100.7',
        user_agent: 'Mozilla/5.0 (consumer)',
      }),
      { ...bearer(apiKey), ...poster, ...FORM },
    );
    const row = await leadRow(res.json().lead_id);
    expect(row).toMatchObject({
      ip: '198.51.100.7',
      userAgent: 'Mozilla/5.0 (consumer)',
      request: { ip: '127.0.0.1', user_agent: poster['user-agent'] },
    });
  });
});

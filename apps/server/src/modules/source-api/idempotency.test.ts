import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  createBuyer,
  createCampaign,
  createSourceWithKey,
  leadInput,
  saveBillTerms,
  ZIP_OF_STATE,
} from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { buyerSpend, capCounters, idempotencyKeys, leadMatches, leads } from '../../db/schema';

/**
 * Issue 28 item 7, Idempotency as Stripe does it: an Idempotency-Key names one request (its route and
 * body). The same request again gets the first answer; another request under the key is refused
 * (422 `idempotency_key_reused`) and nothing of it is stored or sold; after 24 hours the key names a
 * new request. Each test sells in a state of its own, to one prepay buyer, so money shows in its spend.
 */
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
const HOUR = 3_600_000;

/** A prepay buyer ($1,000 deposited) with a $40 roofing campaign in `state`, daily cap 10. */
async function market(state: string) {
  const buyer = await createBuyer(t);
  await saveBillTerms(t, admin.cookie, buyer._id, { pay: 'prepay', prepay: 1000, period: 'monthly', grace: 3 });
  const campaignId = await createCampaign(t, buyer._id, {
    price: 40,
    services: ['roofing'],
    states: [state],
    max: { daily: 10 },
  });
  const { apiKey, keyId } = await createSourceWithKey(t, { maxCost: 10 });
  return { buyerId: buyer._id as string, campaignId, apiKey, keyId, zip: ZIP_OF_STATE[state] as string };
}

/** What the sale wrote of a market's money and leads: its matches, cap counters, the buyer's spend. */
async function ledger(m: { buyerId: string; campaignId: string }, phones: string[]) {
  const db = t.database.db;
  return {
    leads: (await db.select({ id: leads.id }).from(leads).where(inArray(leads.phone, phones))).length,
    matches: (await db.select().from(leadMatches).where(eq(leadMatches.campaignId, m.campaignId))).length,
    caps: (await db.select({ n: capCounters.n }).from(capCounters).where(eq(capCounters.campaignId, m.campaignId)))
      .map((c) => c.n)
      .sort(),
    spentCents: (await db.select().from(buyerSpend).where(eq(buyerSpend.buyerId, m.buyerId)))[0]?.spentCents,
  };
}

const withKey = (key: string) => ({ 'idempotency-key': key });

const expectReused = (res: { statusCode: number; json(): unknown }, key: string) => {
  expect(res.statusCode).toBe(422);
  expect(res.json()).toEqual({
    ok: false,
    reason: 'idempotency_key_reused',
    message: expect.stringContaining(`Idempotency-Key '${key}' was used in the last 24 hours for a different request`),
  });
};

describe.each([
  ['/api/lead', 'AZ'],
  ['/api/post', 'CO'],
] as const)('an Idempotency-Key on %s', (route, state) => {
  /** The body this route takes for `lead`: itself, or its contact fields with a fresh ping's ping_id. */
  async function bodyOf(m: { apiKey: string }, lead: Record<string, unknown>) {
    if (route === '/api/lead') return lead;
    const ping = await t.sourceApi('/api/ping', m.apiKey, { service: lead.service, zip: lead.zip });
    expect(ping.json()).toMatchObject({ ok: true });
    const { service: _service, zip: _zip, ...contact } = lead;
    return { ping_id: ping.json().ping_id as string, ...contact };
  }
  const call = (m: { apiKey: string }, body: object, key: string) => t.sourceApi(route, m.apiKey, body, withKey(key));
  const send = async (m: { apiKey: string }, lead: Record<string, unknown>, key: string) =>
    call(m, await bodyOf(m, lead), key);

  it('replays the first answer to the same request, and refuses another request under the key: nothing stored or sold', async () => {
    t.clock.set('2026-08-03T15:00:00Z');
    const m = await market(state);
    const first = leadInput({ zip: m.zip, tcpa_consent: true });
    const key = `order-${state}`;

    const firstBody = await bodyOf(m, first);
    const sold = await call(m, firstBody, key);
    expect(sold.statusCode).toBe(200);
    expect(sold.json()).toMatchObject({ ok: true, status: 'sold', price: 10 });
    const afterSale = await ledger(m, [first.phone]);
    expect(afterSale).toEqual({ leads: 1, matches: 1, caps: [1], spentCents: 4000 });

    // The same request again, as a retry resends it: the first answer, and nothing new.
    const again = await call(m, firstBody, key);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(sold.json());
    expect(await ledger(m, [first.phone])).toEqual(afterSale);

    // Another lead under the same key: refused in words, and no lead, match, cap slot or money for it.
    const other = leadInput({ zip: m.zip, tcpa_consent: true });
    expectReused(await send(m, other, key), key);
    expect(await ledger(m, [first.phone, other.phone])).toEqual(afterSale);

    // The refused lead is not lost to the source: with a key of its own it sells.
    const fresh = await send(m, other, `${key}-2`);
    expect(fresh.json()).toMatchObject({ ok: true, status: 'sold' });
    expect(fresh.json().lead_id).not.toBe(sold.json().lead_id);
    expect(await ledger(m, [first.phone, other.phone])).toEqual({
      leads: 2,
      matches: 2,
      caps: [2],
      spentCents: 8000,
    });
  });

  it('takes the key as naming a new request once 24 hours have passed, with no purge run', async () => {
    t.clock.set('2026-08-10T15:00:00Z');
    const start = t.clock.now().getTime();
    const m = await market(state);
    const key = `day-${state}`;
    const firstLead = leadInput({ zip: m.zip });
    expect((await send(m, firstLead, key)).json()).toMatchObject({ ok: true, status: 'sold' });

    const other = leadInput({ zip: m.zip });
    t.clock.set(new Date(start + 24 * HOUR - 1));
    expectReused(await send(m, other, key), key);
    expect((await ledger(m, [other.phone])).leads).toBe(0);
    // (A ping_id lives 5 minutes: the retries below resend this one.)
    const otherBody = await bodyOf(m, other);

    // The expired row is still there (the hourly purge has not run): the claim renews it for this request.
    t.clock.set(new Date(start + 24 * HOUR));
    const renewed = await call(m, otherBody, key);
    expect(renewed.json()).toMatchObject({ ok: true, status: 'sold' });
    expect((await ledger(m, [other.phone])).leads).toBe(1);
    // From now on the key names the new request: it replays, and the first lead is the other one.
    t.clock.advance(1_000);
    expect((await call(m, otherBody, key)).json()).toEqual(renewed.json());
    expectReused(await send(m, firstLead, key), key);
    const rows = await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.apiKeyId, m.keyId));
    expect(rows).toEqual([expect.objectContaining({ key, statusCode: 200, createdAt: new Date(start + 24 * HOUR) })]);
  });
});

describe('the request an Idempotency-Key names', () => {
  it('is the body as read, whatever its field order or encoding', async () => {
    t.clock.set('2026-08-17T15:00:00Z');
    const m = await market('OH');
    const lead = { service: 'roofing', zip: m.zip, name: 'Kim Ray', phone: '(614) 555-2187', tcpa_consent: true };
    const sold = await t.sourceApi(
      '/api/lead',
      m.apiKey,
      { ...lead, metadata: { form: 'quote', page: 2 } },
      withKey('same-lead'),
    );
    expect(sold.json()).toMatchObject({ ok: true, status: 'sold' });
    // The same fields in another order, the metadata's too: one request.
    const reordered = { metadata: { page: 2, form: 'quote' }, ...Object.fromEntries(Object.entries(lead).reverse()) };
    expect((await t.sourceApi('/api/lead', m.apiKey, reordered, withKey('same-lead'))).json()).toEqual(sold.json());
    expect((await ledger(m, ['6145552187'])).leads).toBe(1);

    // JSON first, then the same lead as a form, its phone spelled otherwise: one request.
    const json = { ...lead, phone: '(614) 555-2188' };
    const first = await t.sourceApi('/api/lead', m.apiKey, json, withKey('same-lead-form'));
    expect(first.json()).toMatchObject({ ok: true, lead_id: expect.any(String) });
    const form = await t.request({
      method: 'POST',
      url: '/api/lead',
      headers: {
        authorization: `Bearer ${m.apiKey}`,
        'content-type': 'application/x-www-form-urlencoded',
        ...withKey('same-lead-form'),
      },
      payload: `service=roofing&zip=${m.zip}&name=Kim%20Ray&phone=614-555-2188&tcpa_consent=true`,
    });
    expect(form.statusCode).toBe(200);
    expect(form.json()).toEqual(first.json());
    expect((await ledger(m, ['6145552188'])).leads).toBe(1);
  });

  it('is of its route too: the key of a direct lead used on a post names another request', async () => {
    t.clock.set('2026-08-24T15:00:00Z');
    const m = await market('IL');
    const lead = leadInput({ zip: m.zip });
    expect((await t.sourceApi('/api/lead', m.apiKey, lead, withKey('both-routes'))).json()).toMatchObject({
      status: 'sold',
    });
    const ping = await t.sourceApi('/api/ping', m.apiKey, { service: 'roofing', zip: m.zip });
    const post = { ping_id: ping.json().ping_id, name: lead.name, phone: lead.phone, email: lead.email };
    expectReused(await t.sourceApi('/api/post', m.apiKey, post, withKey('both-routes')), 'both-routes');
    expect(await ledger(m, [lead.phone])).toMatchObject({ leads: 1, matches: 1 });
  });
});

describe('the OpenAPI document', () => {
  it('tells, on both routes that take the key, to make a new one per lead, and lists the 422', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi/public.json' })).json();
    for (const path of ['/api/post', '/api/lead']) {
      const operation = doc.paths[path].post;
      expect(operation.description, path).toContain('Make a new key (a UUID) for every lead');
      expect(Object.keys(operation.responses), path).toContain('422');
    }
    expect(doc['x-reasons']).toContainEqual(expect.objectContaining({ status: 422, reason: 'idempotency_key_reused' }));
  });
});

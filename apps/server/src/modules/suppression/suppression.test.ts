import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  leadInput,
  uniquePhone,
} from '../../../test/factories';
import { ADMIN, createTestApp, type TestApp } from '../../../test/harness';
import { campaigns, leads, optOuts, outbox } from '../../db/schema';
import { emailHash, phoneHash } from '../../distribution/normalize';

let t: TestApp;
let admin: string;
let source: { apiKey: string };
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signIn(ADMIN.email, ADMIN.password);
  source = await createSourceWithKey(t);
});
afterAll(() => t.close());

/** Makes a list as `as` and puts these values on it (JSON, as a buyer's system or the screen does). */
async function listWith(as: string, list: Record<string, unknown>, values: string[]) {
  const made = await t.request({ method: 'POST', url: '/api/suppression/list', as, payload: list });
  expect(made.statusCode, made.body).toBe(201);
  const id = made.json()._id as string;
  const added = await t.request({
    method: 'POST',
    url: `/api/suppression/list/${id}/entries`,
    as,
    payload: { values },
  });
  expect(added.statusCode, added.body).toBe(200);
  return { id, added: added.json() };
}

const explanationOf = async (leadId: string) =>
  (await t.request({ method: 'GET', url: `/api/lead/${leadId}?includeMatchLog=true`, as: admin })).json()
    .explanation as Array<Record<string, unknown>>;

describe('suppression in the sale (issue 34)', () => {
  it('refuses a globally listed phone before pricing, answering the source only "suppressed"', async () => {
    const { buyer } = await createBuyerWithLogin(t);
    await createCampaign(t, buyer._id, { services: ['solar'], states: ['TX'], price: 50 });
    const phone = uniquePhone();
    await listWith(admin, { name: 'Known litigators', kind: 'phone', purpose: 'litigators' }, [
      `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}`,
    ]);
    const res = await t.sourceApi('/api/lead', source.apiKey, leadInput({ service: 'solar', phone: `+1${phone}` }));
    expect(res.json()).toEqual({ ok: false, lead_id: expect.any(String), reason: 'suppressed' });
    expect(res.body).not.toContain('litigators');
    // Before pricing: no campaign was priced; the admin's explanation names the list.
    const explanation = await explanationOf(res.json().lead_id);
    expect(explanation).toEqual([
      expect.objectContaining({
        eligible: false,
        rule: 'suppressed',
        detail: expect.stringContaining('"Known litigators"'),
      }),
    ]);
    const [row] = await t.database.db.select().from(leads).where(eq(leads.id, res.json().lead_id));
    expect(row?.priceCents).toBe(0);
    // The other side of the boundary: the next number sells.
    const other = await t.sourceApi('/api/lead', source.apiKey, leadInput({ service: 'solar' }));
    expect(other.json()).toMatchObject({ ok: true, status: 'sold' });
  });

  it('skips only the buyer whose own list holds the email, and sells to the next', async () => {
    const first = await createBuyerWithLogin(t);
    const second = await createBuyerWithLogin(t);
    const firstCampaign = await createCampaign(t, first.buyer._id, {
      services: ['windows'],
      states: ['TX'],
      price: 80,
    });
    const secondCampaign = await createCampaign(t, second.buyer._id, {
      services: ['windows'],
      states: ['TX'],
      price: 40,
    });
    await listWith(first.cookie, { name: 'Our customers', kind: 'email', purpose: 'customers' }, [
      ' Sam.Lee@Example.com ',
    ]);
    const res = await t.sourceApi(
      '/api/lead',
      source.apiKey,
      leadInput({ service: 'windows', email: 'sam.lee@example.com' }),
    );
    expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
    const explanation = await explanationOf(res.json().lead_id);
    expect(explanation).toContainEqual(
      expect.objectContaining({
        campaign: firstCampaign,
        eligible: false,
        rule: 'suppressed',
        detail: expect.stringContaining('"Our customers"'),
      }),
    );
    expect(explanation).toContainEqual(
      expect.objectContaining({ campaign: secondCampaign, eligible: true, won: true }),
    );
    // Another email: the first buyer, paying more, wins.
    const plain = await t.sourceApi('/api/lead', source.apiKey, leadInput({ service: 'windows' }));
    expect(await explanationOf(plain.json().lead_id)).toContainEqual(
      expect.objectContaining({ campaign: firstCampaign, won: true }),
    );
  });

  it('refuses a ping from a globally listed ZIP, and leaves out a buyer that lists the ZIP', async () => {
    const { buyer } = await createBuyerWithLogin(t);
    const mine = await createBuyerWithLogin(t);
    await createCampaign(t, buyer._id, { services: ['siding'], states: ['TX'], price: 30 });
    const own = await createCampaign(t, mine.buyer._id, { services: ['siding'], states: ['TX'], price: 60 });
    await listWith(admin, { name: 'Closed areas', kind: 'zip' }, ['75202-1234']);
    await listWith(mine.cookie, { name: 'Not here', kind: 'zip' }, ['75203']);
    const refused = await t.sourceApi('/api/ping', source.apiKey, { service: 'siding', zip: '75202' });
    expect(refused.json()).toEqual({ ok: false, reason: 'suppressed' });
    const next = await t.sourceApi('/api/ping', source.apiKey, { service: 'siding', zip: '75203' });
    expect(next.json()).toMatchObject({ ok: true, price: expect.any(Number) });
    const post = await t.sourceApi('/api/post', source.apiKey, {
      ping_id: next.json().ping_id,
      ...leadInput({ zip: '75203', service: 'siding' }),
    });
    expect(post.json()).toMatchObject({ ok: true, status: 'sold' });
    expect(await explanationOf(post.json().lead_id)).toContainEqual(
      expect.objectContaining({ campaign: own, rule: 'suppressed' }),
    );
  });
});

describe('a ping that carries the contact’s hashes (issue 34)', () => {
  it('refuses a ping whose phone or email hash is on an exchange-wide list; a ping without them is priced', async () => {
    const { buyer } = await createBuyerWithLogin(t);
    await createCampaign(t, buyer._id, { services: ['windows'], states: ['TX'], price: 45 });
    const phone = uniquePhone();
    const email = `listed-${phone}@example.com`;
    await listWith(admin, { name: 'Ping litigators', kind: 'phone', purpose: 'litigators' }, [phone]);
    await listWith(admin, { name: 'Ping emails', kind: 'email' }, [email]);
    const ping = (extra: Record<string, unknown>) =>
      t.sourceApi('/api/ping', source.apiKey, { service: 'windows', zip: '75201', ...extra });
    expect((await ping({ phone_hash: phoneHash(phone) })).json()).toEqual({ ok: false, reason: 'suppressed' });
    expect((await ping({ email_hash: emailHash(` ${email.toUpperCase()} `) })).json()).toEqual({
      ok: false,
      reason: 'suppressed',
    });
    // The other side: another number's hash, and no hash at all, are priced.
    expect((await ping({ phone_hash: phoneHash(uniquePhone()) })).json()).toMatchObject({ ok: true });
    expect((await ping({})).json()).toMatchObject({ ok: true, price: expect.any(Number) });
  });

  it('reads a phone or email sent with a ping as its hash: checked, never kept', async () => {
    const { buyer } = await createBuyerWithLogin(t);
    await createCampaign(t, buyer._id, { services: ['windows'], states: ['TX'], price: 45 });
    const phone = uniquePhone();
    await listWith(admin, { name: 'Ping phones', kind: 'phone' }, [phone]);
    const ping = (extra: Record<string, unknown>) =>
      t.sourceApi('/api/ping', source.apiKey, { service: 'windows', zip: '75201', ...extra });
    const refused = await ping({ Phone: `(${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)}` });
    expect(refused.json()).toEqual({
      ok: false,
      reason: 'suppressed',
      warnings: ['Field `Phone` was read as `phone_hash` (its SHA-256; the value itself is not kept).'],
    });
    const priced = await ping({ phone: uniquePhone(), email: 'someone@example.com' });
    expect(priced.json()).toMatchObject({ ok: true, price: expect.any(Number) });
    expect(priced.json().warnings).toEqual([
      'Field `phone` was read as `phone_hash` (its SHA-256; the value itself is not kept).',
      'Field `email` was read as `email_hash` (its SHA-256; the value itself is not kept).',
    ]);
    // A hash sent with it wins; a value that is no phone is ignored, saying so.
    expect((await ping({ phone, phone_hash: phoneHash(uniquePhone()) })).json()).toMatchObject({
      ok: true,
      warnings: ['Field `phone` was ignored: `phone_hash` was sent too.'],
    });
    expect((await ping({ phone: '12' })).json()).toMatchObject({
      ok: true,
      warnings: ['Field `phone` could not be read: it was ignored.'],
    });
  });

  it('asks the database nothing for a ping without a hash (it is answered from memory)', () => {
    const check = t.deps.services.suppression.check;
    expect(check.pingContact({})).toBeNull();
    expect(check.pingContact({ phone_hash: undefined, email_hash: null })).toBeNull();
    expect(check.pingContact({ phone_hash: 'not-a-sha256' })).toBeNull();
    expect(check.pingContact({ phone_hash: phoneHash(uniquePhone()) })).toBeInstanceOf(Promise);
  });

  it('leaves out only the buyer whose own list holds the ping’s phone hash, and prices the next', async () => {
    const mine = await createBuyerWithLogin(t);
    const { buyer } = await createBuyerWithLogin(t);
    const own = await createCampaign(t, mine.buyer._id, { services: ['bath_remodel'], states: ['TX'], price: 80 });
    const next = await createCampaign(t, buyer._id, { services: ['bath_remodel'], states: ['TX'], price: 40 });
    const phone = uniquePhone();
    await listWith(mine.cookie, { name: 'Our customers', kind: 'phone', purpose: 'customers' }, [phone]);
    const caller = t.deps.engine.authenticate(source.apiKey, { direct: false });
    const ping = (phone_hash?: string) =>
      t.deps.services.sourceApi.pingAs(caller, {
        service: 'bath_remodel',
        zip: '75201',
        test: undefined,
        phone_hash,
        email_hash: undefined,
      });
    // Without the hash both campaigns are priced; with it the buyer's own list leaves its campaign out.
    expect((await ping()).explanation).toContainEqual(expect.objectContaining({ campaign: own, eligible: true }));
    const listed = await ping(phoneHash(phone) ?? undefined);
    expect(listed.body).toMatchObject({ ok: true });
    expect(listed.explanation).toContainEqual(expect.objectContaining({ campaign: own, rule: 'suppressed' }));
    expect(listed.explanation).toContainEqual(expect.objectContaining({ campaign: next, eligible: true }));
  });
});

describe('opt-outs (issue 34 item 2)', () => {
  it('an opt-out recorded by one buyer suppresses the consumer for every buyer and tells the others', async () => {
    const recorder = await createBuyerWithLogin(t);
    const other = await createBuyerWithLogin(t, {
      notify: { email: ['compliance@other-buyer.test'], sms: [], broadcast_webhooks: [] },
    });
    const stranger = await createBuyerWithLogin(t, {
      notify: { email: ['compliance@stranger.test'], sms: [], broadcast_webhooks: [] },
    });
    await createCampaign(t, recorder.buyer._id, { services: ['gutters'], states: ['TX'], price: 70 });
    const otherCampaign = await createCampaign(t, other.buyer._id, {
      services: ['gutters'],
      states: ['TX'],
      price: 20,
      shared: 20,
    });
    const phone = uniquePhone();
    // The consumer is sold to the recorder, then (the recorder's campaign paused) to the other buyer.
    const firstSale = await t.sourceApi('/api/lead', source.apiKey, leadInput({ service: 'gutters', phone }));
    expect(firstSale.json()).toMatchObject({ ok: true });
    await t.database.db.update(campaigns).set({ status: 'pause' }).where(eq(campaigns.buyerId, recorder.buyer._id));
    await t.deps.engine.reload();
    const another = await createSourceWithKey(t);
    const secondSale = await t.sourceApi('/api/lead', another.apiKey, leadInput({ service: 'gutters', phone }));
    expect(secondSale.json()).toMatchObject({ ok: true });

    const res = await t.request({
      method: 'POST',
      url: '/api/opt-out',
      as: recorder.cookie,
      payload: { phone, method: 'text_stop', revoked_at: t.clock.now().toISOString() },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual([
      expect.objectContaining({
        kind: 'phone',
        contact: `•••-•••-${phone.slice(6)}`,
        method: 'text_stop',
        notified_buyers: 1,
      }),
    ]);
    // Kept 10 years.
    const retain = new Date(res.json()[0].retain_until);
    expect(retain.getUTCFullYear() - t.clock.now().getUTCFullYear()).toBe(10);

    // Suppressed for all at once: a new post of the consumer is refused.
    await createCampaign(t, stranger.buyer._id, { services: ['gutters'], states: ['TX'], price: 90 });
    const third = await createSourceWithKey(t);
    const again = await t.sourceApi('/api/lead', third.apiKey, leadInput({ service: 'gutters', phone }));
    expect(again.json()).toMatchObject({ ok: false, reason: 'suppressed' });

    // The other buyer that bought the consumer is told by its channel; one that never did is not.
    const mail = await t.database.db.select().from(outbox).where(eq(outbox.to, 'compliance@other-buyer.test'));
    expect(mail).toHaveLength(1);
    expect(mail[0]?.text).toContain(phone);
    expect(mail[0]?.text).toContain(secondSale.json().lead_id);
    expect(await t.database.db.select().from(outbox).where(eq(outbox.to, 'compliance@stranger.test'))).toHaveLength(0);
    expect(otherCampaign).toBeTruthy();
    // The told buyer reads it in its portal too; the stranger does not.
    const told = await t.request({ method: 'GET', url: '/api/opt-out', as: other.cookie });
    expect(told.json()).toHaveLength(1);
    expect((await t.request({ method: 'GET', url: '/api/opt-out', as: stranger.cookie })).json()).toHaveLength(0);
  });

  it('tells the buyers that bought the consumer in the last 5 years, not one that bought it just before', async () => {
    const earlier = await createBuyerWithLogin(t, {
      notify: { email: ['optout@bought-5y-ago.test'], sms: [], broadcast_webhooks: [] },
    });
    const within = await createBuyerWithLogin(t, {
      notify: { email: ['optout@bought-within-5y.test'], sms: [], broadcast_webhooks: [] },
    });
    await createCampaign(t, earlier.buyer._id, { services: ['hvac'], states: ['TX'], price: 55 });
    await createCampaign(t, within.buyer._id, { services: ['plumbing'], states: ['TX'], price: 55 });
    const email = `five-years-${uniquePhone()}@example.com`;
    // Two sources: the same source sending the consumer again would be answered `duplicate`.
    const sold = async (service: string) => {
      const { apiKey } = await createSourceWithKey(t);
      const res = await t.sourceApi('/api/lead', apiKey, leadInput({ service, email, phone: undefined }));
      expect(res.json(), res.body).toMatchObject({ ok: true, status: 'sold' });
      return res.json().lead_id as string;
    };
    const old = await sold('hvac');
    const recent = await sold('plumbing');
    // Moved back in time: one a minute past 5 years before the opt-out, one a minute short of it.
    const fiveYearsAgo = new Date(t.clock.now());
    fiveYearsAgo.setUTCFullYear(fiveYearsAgo.getUTCFullYear() - 5);
    const at = (minutes: number) => new Date(fiveYearsAgo.getTime() + minutes * 60_000);
    await t.database.db
      .update(leads)
      .set({ createdAt: at(-1) })
      .where(eq(leads.id, old));
    await t.database.db
      .update(leads)
      .set({ createdAt: at(1) })
      .where(eq(leads.id, recent));

    const res = await t.request({
      method: 'POST',
      url: '/api/opt-out',
      as: admin,
      payload: { email, method: 'email' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()[0].notified_buyers).toBe(1);
    const told = await t.database.db.select().from(outbox).where(eq(outbox.to, 'optout@bought-within-5y.test'));
    expect(told).toHaveLength(1);
    expect(told[0]?.text).toContain(recent);
    expect(await t.database.db.select().from(outbox).where(eq(outbox.to, 'optout@bought-5y-ago.test'))).toHaveLength(0);
  });

  it('keeps the record 10 years: never changed, and not deleted before then', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/opt-out',
      as: admin,
      payload: { phone: uniquePhone(), method: 'call' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const record = res.json()[0];
    const tenYears = new Date(record.recorded);
    tenYears.setUTCFullYear(tenYears.getUTCFullYear() + 10);
    expect(record.retain_until).toBe(tenYears.toISOString());
    const db = t.database.db;
    await expect(db.update(optOuts).set({ note: 'edited' }).where(eq(optOuts.id, record._id))).rejects.toThrow();
    await expect(db.delete(optOuts).where(eq(optOuts.id, record._id))).rejects.toThrow();
    expect(await db.select().from(optOuts).where(eq(optOuts.id, record._id))).toHaveLength(1);
    // The other side: a record past its 10 years may go (the database's own clock decides).
    const [row] = await db.select().from(optOuts).where(eq(optOuts.id, record._id));
    if (!row) throw new Error('the opt-out is gone');
    const past = { ...row, id: `${row.id}_old`, retainUntil: new Date(Date.now() - 60_000) };
    await db.insert(optOuts).values(past);
    await db.delete(optOuts).where(eq(optOuts.id, past.id));
    expect(await db.select().from(optOuts).where(eq(optOuts.id, past.id))).toHaveLength(0);
  });

  it('refuses an opt-out without a contact, or with a bad one, naming the field', async () => {
    // Each opt-out, and the field its refusal names.
    const refusals: [Record<string, unknown>, string][] = [
      [{ method: 'call' }, 'phone'],
      [{ email: 'nope', method: 'email' }, 'email'],
      [{ phone: uniquePhone(), method: 'fax' }, 'method'],
    ];
    for (const [payload, field] of refusals) {
      const res = await t.request({ method: 'POST', url: '/api/opt-out', as: admin, payload });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().errors).toHaveProperty(field);
    }
  });
});

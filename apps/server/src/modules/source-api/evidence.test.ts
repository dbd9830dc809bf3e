import { createCipheriv, randomBytes } from 'node:crypto';
import {
  jornayaToken,
  readTrustedFormUrl,
  SAMPLE_JORNAYA_TOKEN,
  SAMPLE_TRUSTEDFORM_CERT_URL,
  SAMPLE_TRUSTEDFORM_PING_URL,
} from '@leadex/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, uniquePhone } from '../../../test/factories';
import { useFixture } from '../../../test/fixtures';
import { useAdminTestApp } from '../../../test/harness';
import { createDelivery, fieldRows, pingPostDelivery, useAnsweringServer } from '../../../test/receivers';
import { leads } from '../../db/schema';

/**
 * Issue 32 item 8: TrustedForm and Jornaya as checked evidence. A certificate URL on another host, on
 * http, of the wrong shape or past TrustedForm's claim period is kept out of the lead and flagged; the
 * lead is kept and sold; the answer warns; no screen's data says "yes" for it and no buyer is sent it.
 */
// The key of @activeprospect/trustedform-cert-id's own tests: ids sealed with it carry a readable time.
const CERT_ID_SECRET = 'qy3Sjay3D/bXAAx7jMUvSoum54R5JEPs000';
const NOW = new Date('2026-11-27T15:00:00Z');

const buyers = useAnsweringServer('{"ok":true,"bid":30,"id":"b-1"}');
const { t, admin } = useAdminTestApp({
  PUBLIC_API_RATE_LIMIT: 0,
  ALLOW_PRIVATE_DELIVERY_TARGETS: true,
  TRUSTEDFORM_CERT_ID_SECRET: CERT_ID_SECRET,
});

/** A web certificate id sealed as TrustedForm seals one, made at `createdAt`. */
function sealedWebId(createdAt: Date): string {
  const iv = randomBytes(7);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(CERT_ID_SECRET.slice(0, 32)), iv, { authTagLength: 8 });
  const plain = Buffer.from([0x77, 0, 0, 0, 0]);
  plain.writeUInt32BE(Math.floor(createdAt.getTime() / 1000), 1);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('hex');
}

/** A Kansas roofing market: a buyer at $60 that takes every lead, and a source paid $20. */
const market = useFixture(async () => {
  t.clock.set(NOW);
  const buyer = await createBuyer(t);
  await createCampaign(t, buyer._id, { price: 60, states: ['KS'], services: ['roofing'] });
  return createSourceWithKey(t, { maxCost: 20 });
});

const lead = (evidence: Record<string, string>) =>
  t.sourceApi('/api/lead', market.apiKey, {
    service: 'roofing',
    zip: '66101',
    name: 'Pat Lee',
    phone: uniquePhone(),
    ...evidence,
  });
const row = async (id: string) => (await t.database.db.select().from(leads).where(eq(leads.id, id)))[0];
const detail = async (id: string) =>
  (await t.request({ method: 'GET', url: `/api/lead/${id}`, as: admin.cookie })).json();
const listed = async (id: string) => {
  const res = await t.request({ method: 'GET', url: '/api/lead/date/today?pageSize=100', as: admin.cookie });
  return res.json().data.find((l: { _id: string }) => l._id === id);
};

describe('a TrustedForm certificate URL (#32.8)', () => {
  it('keeps a valid one, in its one spelling, and says yes for it', async () => {
    const id = sealedWebId(new Date(NOW.getTime() - 86_400_000));
    const res = await lead({ trusted_form: ` HTTPS://Cert.TrustedForm.com/${id} ` });
    expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
    expect(res.json().warnings).toBeUndefined();
    const stored = await row(res.json().lead_id);
    expect(stored?.trustedForm).toBe(`https://cert.trustedform.com/${id}`);
    expect(stored?.fieldFlags).toBeNull();
    expect((await listed(res.json().lead_id)).trusted_form).toBe(true);
  });

  it.each([
    ['another host', `https://cert.trustedform.com.evil.io/${SAMPLE_TRUSTEDFORM_CERT_URL.slice(-40)}`, 'evil.io'],
    [
      'a user part naming TrustedForm',
      'https://trustedform.com@evil.io/eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947',
      'evil.io',
    ],
    ['http', SAMPLE_TRUSTEDFORM_CERT_URL.replace('https', 'http'), 'not https'],
    ['N/A', 'N/A', 'not a URL'],
    ['an id one character short', SAMPLE_TRUSTEDFORM_CERT_URL.slice(0, -1), 'right shape'],
  ])('keeps and sells the lead with %s, flagged, never shown nor sent as a certificate', async (_, value, why) => {
    const res = await lead({ trusted_form: value });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
    expect(res.json().warnings).toEqual([expect.stringContaining(why)]);
    expect(res.json().warnings[0]).toContain(`trusted_form “${value}”`);
    const id = res.json().lead_id;
    const stored = await row(id);
    expect(stored?.trustedForm).toBeNull();
    expect(stored?.fieldFlags).toEqual([{ field: 'trusted_form', value, problem: expect.stringContaining(why) }]);
    const shown = await detail(id);
    expect(shown.trusted_form).toBeUndefined();
    expect(shown.field_flags).toEqual(stored?.fieldFlags);
    expect((await listed(id)).trusted_form).toBe(false);
  });

  it('says no, on the list and in the CSV, for a lead stored before the check with a look-alike URL', async () => {
    const res = await lead({ trusted_form: `https://cert.trustedform.com/${sealedWebId(NOW)}`, name: 'Lee Legacy' });
    const id = res.json().lead_id;
    expect((await listed(id)).trusted_form).toBe(true);
    const csvLine = async () => {
      const csv = await t.request({ method: 'GET', url: '/api/lead/date/today/export.csv', as: admin.cookie });
      const [header = '', ...lines] = csv.body.trim().split('\n');
      const column = header.split(',').indexOf('Trusted Form');
      return lines.find((l) => l.includes('Lee Legacy'))?.split(',')[column];
    };
    expect(await csvLine()).toBe('Yes');
    await t.database.db
      .update(leads)
      .set({ trustedForm: 'https://cert.trustedform.com.evil.io/eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947' })
      .where(eq(leads.id, id));
    expect((await listed(id)).trusted_form).toBe(false);
    expect(await csvLine()).toBe('No');
  });

  it('flags a certificate past TrustedForm’s 90-day claim period, and keeps one just inside it', async () => {
    const old = sealedWebId(new Date(NOW.getTime() - 91 * 86_400_000));
    const recent = sealedWebId(new Date(NOW.getTime() - 89 * 86_400_000));
    const expired = await lead({ trusted_form: `https://cert.trustedform.com/${old}` });
    expect(expired.json().warnings).toEqual([expect.stringContaining('looks expired')]);
    expect((await row(expired.json().lead_id))?.trustedForm).toBeNull();
    const kept = await lead({ trusted_form: `https://cert.trustedform.com/${recent}` });
    expect(kept.json().warnings).toBeUndefined();
    expect((await row(kept.json().lead_id))?.trustedForm).toBe(`https://cert.trustedform.com/${recent}`);
  });
});

describe('a TrustedForm ping URL and a LeadiD token (#32.8)', () => {
  it('keeps a ping URL as its own field, whichever field it came in', async () => {
    const own = await lead({ trusted_form_ping_url: SAMPLE_TRUSTEDFORM_PING_URL });
    expect(own.json().warnings).toBeUndefined();
    expect(await row(own.json().lead_id)).toMatchObject({
      trustedFormPingUrl: SAMPLE_TRUSTEDFORM_PING_URL,
      trustedForm: null,
    });
    expect((await detail(own.json().lead_id)).trusted_form_ping_url).toBe(SAMPLE_TRUSTEDFORM_PING_URL);

    const misplaced = await lead({ trusted_form: SAMPLE_TRUSTEDFORM_PING_URL });
    expect(misplaced.json().warnings).toEqual([expect.stringContaining('ping URL, not a certificate')]);
    expect(await row(misplaced.json().lead_id)).toMatchObject({
      trustedFormPingUrl: SAMPLE_TRUSTEDFORM_PING_URL,
      trustedForm: null,
    });
  });

  it('keeps a LeadiD token of Jornaya’s shape and flags one a character off', async () => {
    const good = await lead({ jornaya: SAMPLE_JORNAYA_TOKEN.toLowerCase() });
    expect((await row(good.json().lead_id))?.jornaya).toBe(SAMPLE_JORNAYA_TOKEN);
    const bad = await lead({ jornaya: SAMPLE_JORNAYA_TOKEN.slice(1) });
    expect(bad.json()).toMatchObject({ ok: true, status: 'sold' });
    expect(bad.json().warnings).toEqual([expect.stringContaining('not a Jornaya LeadiD token')]);
    expect(await row(bad.json().lead_id)).toMatchObject({
      jornaya: null,
      fieldFlags: [{ field: 'jornaya', value: SAMPLE_JORNAYA_TOKEN.slice(1), problem: expect.any(String) }],
    });
  });

  it('refuses an admin’s edit to a look-alike certificate URL, naming the field', async () => {
    const res = await lead({ trusted_form: SAMPLE_TRUSTEDFORM_CERT_URL });
    const edit = await t.request({
      method: 'PUT',
      url: `/api/lead/${res.json().lead_id}`,
      as: admin.cookie,
      payload: { trusted_form: 'https://cert.trustedform.com.evil.io/eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947' },
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().errors).toEqual({ trusted_form: expect.stringContaining('TrustedForm certificate URL') });
  });
});

describe('pings and deliveries carry only checked evidence (#32.8)', () => {
  it('sends a ping URL in a Ping/Post buyer’s ping, and a certificate only on TrustedForm’s host in the post', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 5, states: ['CO'], services: ['roofing'] });
    await createDelivery(
      t,
      admin.cookie,
      pingPostDelivery({
        buyer: buyer._id,
        name: 'Bids',
        base: buyers.base,
        map: { phone: 'Phone', trusted_form: 'Cert', trusted_form_ping_url: 'PingUrl', jornaya: 'LeadiD' },
        pingMap: { zip: 'Zip', trusted_form_ping_url: 'PingUrl' },
      }),
    );
    await t.deps.engine.flush();
    const pinged = await t.sourceApi('/api/ping', market.apiKey, {
      service: 'roofing',
      zip: '80202',
      trusted_form_ping_url: SAMPLE_TRUSTEDFORM_PING_URL,
    });
    expect(pinged.json()).toMatchObject({ ok: true });
    const ping = buyers.hits.filter((h) => h.url === '/ping').at(-1);
    expect(JSON.parse(ping?.body ?? '{}')).toMatchObject({ Zip: '80202', PingUrl: SAMPLE_TRUSTEDFORM_PING_URL });

    const posted = await t.sourceApi('/api/post', market.apiKey, {
      ping_id: pinged.json().ping_id,
      name: 'Pat Lee',
      phone: uniquePhone(),
      trusted_form: 'https://cert.trustedform.com.evil.io/eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947',
      jornaya: SAMPLE_JORNAYA_TOKEN,
    });
    expect(posted.json()).toMatchObject({ ok: true, status: 'sold' });
    const post = JSON.parse(buyers.hits.filter((h) => h.url === '/post').at(-1)?.body ?? '{}');
    expect(post.Cert ?? null).toBeNull();
    expect(post.LeadiD).toBe(SAMPLE_JORNAYA_TOKEN);
    expect(JSON.stringify(buyers.hits)).not.toContain('evil.io');

    // A ping URL on another host never reaches a buyer's ping.
    await t.sourceApi('/api/ping', market.apiKey, {
      service: 'roofing',
      zip: '80202',
      trusted_form_ping_url: 'https://ping.trustedform.com.evil.io/0.a.b.c',
    });
    const second = buyers.hits.filter((h) => h.url === '/ping').at(-1);
    expect(JSON.parse(second?.body ?? '{}').PingUrl ?? null).toBeNull();
  });

  it('sends a valid sample certificate and LeadiD token in a delivery’s Test', async () => {
    const buyer = await createBuyer(t);
    const delivery = await createDelivery(t, admin.cookie, {
      buyer: buyer._id,
      name: 'Test me',
      url: `${buyers.base}/sample`,
      status: 'live',
      ping_id: 'no_ping',
      accept: fieldRows({ ok: 'true' }),
      map: fieldRows({ trusted_form: 'Cert', jornaya: 'LeadiD' }),
    });
    const res = await t.request({
      method: 'POST',
      url: `/api/webhook/${delivery._id}/test`,
      as: admin.cookie,
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    const sent = JSON.parse(buyers.hits.filter((h) => h.url === '/sample').at(-1)?.body ?? '{}');
    expect(readTrustedFormUrl(sent.Cert)).toMatchObject({ kind: 'certificate', url: SAMPLE_TRUSTEDFORM_CERT_URL });
    expect(jornayaToken(sent.LeadiD)).toBe(SAMPLE_JORNAYA_TOKEN);
  });
});

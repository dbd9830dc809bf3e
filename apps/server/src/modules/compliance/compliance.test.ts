import { createHash } from 'node:crypto';
import { consentNameKey } from '@leadex/domain';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyerWithLogin, createCampaign, createSourceWithKey, uniquePhone } from '../../../test/factories';
import { expectScoped404, useAdminTestApp } from '../../../test/harness';
import { rowsOf } from '../../db/client';
import { campaigns } from '../../db/schema';
import { jsonbText } from '../../lib/jsonb-text';

const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const CERT = `https://cert.trustedform.com/${'a1b2c3d4e5'.repeat(4)}`;
const TOKEN = 'A1B2C3D4-E5F6-A7B8-C9D0-E1F2A3B4C5D6';
const LANGUAGE =
  'By clicking Get Quotes I agree that ACME Home Services Inc. and its partners may call and text me at the number above.';

let acme: Awaited<ReturnType<typeof createBuyerWithLogin>>;
let bravo: Awaited<ReturnType<typeof createBuyerWithLogin>>;
let apiKey: string;
let leadId: string;

const setLegalNames = (buyerId: string, names: string[], as = admin.cookie) =>
  t.request({ method: 'PUT', url: `/api/buyer/${buyerId}/legal-names`, as, payload: { legal_names: names } });
const compliance = (as: string, id = leadId) => t.request({ method: 'GET', url: `/api/lead/${id}/compliance`, as });
const post = (overrides: Record<string, unknown> = {}) =>
  t.sourceApi('/api/lead', apiKey, {
    service: 'roofing',
    zip: '75201',
    name: 'Robin Shaw',
    phone: uniquePhone(),
    tcpa_consent: 'true',
    tcpa_language: LANGUAGE,
    ...overrides,
  });

/** The posted lead as the admin reads it, with its match log (`explanation`). */
const withMatchLog = async (posted: { json(): { lead_id: string } }) =>
  (
    await t.request({ method: 'GET', url: `/api/lead/${posted.json().lead_id}?includeMatchLog=true`, as: admin.cookie })
  ).json();
/** Makes roofing a Medicare service, or not (the admin's compliance setting). */
const setMedicare = (medicare: boolean) =>
  t.request({ method: 'PUT', url: '/api/compliance/services/roofing', as: admin.cookie, payload: { medicare } });

beforeAll(async () => {
  t.clock.set('2026-11-25T16:00:00Z'); // a Wednesday, 10am in Dallas
  acme = await createBuyerWithLogin(t);
  bravo = await createBuyerWithLogin(t);
  expect((await setLegalNames(acme.buyer._id, ['Acme Home Services, LLC'])).statusCode).toBe(200);
  // The buyer names itself from its portal (or with its API session).
  expect((await setLegalNames(bravo.buyer._id, ['Bravo Roofing Co.'], bravo.cookie)).statusCode).toBe(200);
  await createCampaign(t, acme.buyer._id, { price: 40, services: ['roofing'], states: ['TX'] });
  ({ apiKey } = await createSourceWithKey(t, { maxCost: 10 }));
  const sale = await post({
    ip: '203.0.113.7',
    user_agent: 'Mozilla/5.0 (consumer)',
    page_url: 'https://quotes.example.com/roofing?utm=x',
    consent_snapshot: '<form><p>By clicking Get Quotes I agree…</p></form>',
    trusted_form: CERT,
    jornaya: TOKEN,
  });
  expect(sale.json()).toMatchObject({ status: 'sold' });
  leadId = sale.json().lead_id;
});

describe('consent evidence (issue 34 item 3)', () => {
  it('is recorded at the sale, whole, with the names it covers and a hash that checks', async () => {
    const res = await compliance(acme.cookie);
    expect(res.statusCode).toBe(200);
    const { evidence } = res.json();
    expect(evidence.record).toMatchObject({
      lead_id: leadId,
      consent: true,
      consent_language: LANGUAGE,
      consumer: { name: 'Robin Shaw', ip: '203.0.113.7', user_agent: 'Mozilla/5.0 (consumer)', zip: '75201' },
      page_url: 'https://quotes.example.com/roofing?utm=x',
      consent_page_snapshot: '<form><p>By clicking Get Quotes I agree…</p></form>',
      trusted_form: CERT,
      jornaya: TOKEN,
      legal_names_covered: ['Acme Home Services, LLC'],
    });
    expect(evidence.hash).toBe(sha256(evidence.canonical));
    expect(jsonbText(evidence.record)).toBe(evidence.canonical);
    expect(evidence.hash_checks).toBe(true);
    expect(evidence.retained_until).toBe('2032-11-25');
    // The lead keeps the poster's request only: the page and snapshot went into the evidence.
    const [row] = rowsOf<{ request: Record<string, unknown> }>(
      await t.database.db.execute(sql`select request from leads where id = ${leadId}`),
    );
    expect(row?.request.consent).toBeUndefined();
  });

  it('is left as it was by an admin’s edit of the lead', async () => {
    const before = (await compliance(admin.cookie)).json().evidence;
    const edit = await t.request({
      method: 'PUT',
      url: `/api/lead/${leadId}`,
      as: admin.cookie,
      payload: { tcpa_language: 'Edited afterwards', name: 'Someone Else', tcpa_consent: false },
    });
    expect(edit.statusCode).toBe(200);
    const after = (await compliance(admin.cookie)).json().evidence;
    expect(after).toEqual(before);
    expect(after.record.consent_language).toBe(LANGUAGE);
  });

  it('cannot be changed: no route writes it, and the database refuses UPDATE and DELETE', async () => {
    const spec = (await t.request({ method: 'GET', url: '/api/openapi.json', as: admin.cookie })).json();
    const evidencePaths = Object.entries(spec.paths as Record<string, Record<string, unknown>>).filter(([path]) =>
      path.includes('evidence'),
    );
    expect(evidencePaths.length).toBeGreaterThan(0);
    // The only write near the evidence is its retention setting (years), never a record.
    for (const [path, methods] of evidencePaths)
      for (const method of Object.keys(methods))
        if (method !== 'get') expect(`${method} ${path}`).toBe('put /api/compliance/evidence-retention');
    await expect(
      t.database.db.execute(sql`update consent_evidence set hash = 'x' where lead_id = ${leadId}`),
    ).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from consent_evidence where lead_id = ${leadId}`)).rejects.toThrow();
    // A legal hold is kept beside it: the record and its hash stay.
    const before = (await compliance(admin.cookie)).json().evidence;
    const held = await t.request({
      method: 'PUT',
      url: `/api/lead/${leadId}/legal-hold`,
      as: admin.cookie,
      payload: { reason: 'Smith v. Acme' },
    });
    expect(held.statusCode).toBe(200);
    expect(held.json().evidence).toMatchObject({
      hash: before.hash,
      retained_until: null,
      legal_hold: { reason: 'Smith v. Acme' },
    });
    const lifted = await t.request({ method: 'DELETE', url: `/api/lead/${leadId}/legal-hold`, as: admin.cookie });
    expect(lifted.json().evidence).toMatchObject({ hash: before.hash, legal_hold: null });
    // The buyer cannot put a hold.
    const byBuyer = await t.request({
      method: 'PUT',
      url: `/api/lead/${leadId}/legal-hold`,
      as: acme.cookie,
      payload: {},
    });
    expect(byBuyer.statusCode).toBe(403);
  });

  it('downloads as JSON and as PDF for its buyer; another buyer gets 404', async () => {
    const json = await t.request({ method: 'GET', url: `/api/lead/${leadId}/consent-evidence.json`, as: acme.cookie });
    expect(json.statusCode).toBe(200);
    expect(json.headers['content-type']).toContain('application/json');
    expect(json.headers['content-disposition']).toContain(`consent-evidence-${leadId}.json`);
    const file = JSON.parse(json.body);
    expect(sha256(file.canonical)).toBe(file.hash);
    const pdf = await t.request({ method: 'GET', url: `/api/lead/${leadId}/consent-evidence.pdf`, as: acme.cookie });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    await expectScoped404(t, bravo.cookie, 'Lead', [
      { method: 'GET', url: `/api/lead/${leadId}/compliance` },
      { method: 'GET', url: `/api/lead/${leadId}/consent-evidence.json` },
      { method: 'GET', url: `/api/lead/${leadId}/consent-evidence.pdf` },
    ]);
    expect((await compliance(admin.cookie, 'lead_missing')).statusCode).toBe(404);
  });

  it('is purged past its retention by the daily job, except under a legal hold', async () => {
    const kept = (await post({ zip: '75202' })).json().lead_id;
    const gone = (await post({ zip: '75203' })).json().lead_id;
    await t.request({ method: 'PUT', url: `/api/lead/${kept}/legal-hold`, as: admin.cookie, payload: {} });
    const refused = await t.request({
      method: 'PUT',
      url: '/api/compliance/evidence-retention',
      as: admin.cookie,
      payload: { years: 4 },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.years).toMatch(/at least 5/);
    await t.request({
      method: 'PUT',
      url: '/api/compliance/evidence-retention',
      as: admin.cookie,
      payload: { years: 5 },
    });
    const now = t.clock.now();
    try {
      t.clock.set('2031-11-25T15:59:59Z'); // not yet 5 years
      expect(await t.deps.services.compliance.purgeExpired()).toBe(0);
      t.clock.set('2031-11-25T16:00:01Z');
      expect(await t.deps.services.compliance.purgeExpired()).toBeGreaterThanOrEqual(2);
    } finally {
      t.clock.set(now);
    }
    expect((await compliance(admin.cookie, kept)).json().evidence).not.toBeNull();
    expect((await compliance(admin.cookie, gone)).json().evidence).toBeNull();
  });
});

describe('consent that names the buyer (issue 34 item 4)', () => {
  it('keeps a campaign requiring named consent from a lead whose language does not name its buyer, and says so', async () => {
    const strict = await createCampaign(t, bravo.buyer._id, { price: 90, services: ['roofing'], states: ['TX'] });
    await t.database.db.execute(sql`update ${campaigns} set require_named_consent = true where id = ${strict}`);
    await t.deps.engine.reload();
    const sale = await post({ zip: '75204' });
    expect(sale.json()).toMatchObject({ status: 'sold', price: expect.any(Number) });
    const lead = await withMatchLog(sale);
    expect(lead.buyers).toEqual([acme.buyer.name]);
    expect(lead.explanation).toContainEqual(
      expect.objectContaining({
        campaign: strict,
        eligible: false,
        rule: 'consent',
        detail: 'campaign requires named consent: the consent language does not name the buyer',
      }),
    );
    // Named, whatever the case, punctuation and company kind: it buys.
    const named = await post({ zip: '75205', tcpa_language: 'I agree to be called by BRAVO ROOFING, Inc and others.' });
    const bought = await t.request({ method: 'GET', url: `/api/lead/${named.json().lead_id}`, as: admin.cookie });
    expect(bought.json().buyers).toEqual([bravo.buyer.name]);
    await t.database.db.execute(sql`update ${campaigns} set status = 'pause' where id = ${strict}`);
    await t.deps.engine.reload();
  });

  it('requires it of every campaign for a Medicare service', async () => {
    expect((await setMedicare(true)).statusCode).toBe(200);
    try {
      const sale = await post({ zip: '75206', tcpa_language: 'I agree to be called by insurance partners.' });
      expect(sale.json().status).not.toBe('sold');
      const lead = await withMatchLog(sale);
      expect(lead.explanation).toContainEqual(
        expect.objectContaining({
          buyer: acme.buyer._id,
          rule: 'consent',
          detail: "service 'roofing' is Medicare: the consent language does not name the buyer",
        }),
      );
    } finally {
      await setMedicare(false);
    }
  });

  it('reads names the same in the database (the evidence’s covered names) as in the engine', async () => {
    const texts = [
      'ACME Home-Services, L.L.C.',
      'Smith & Jones Co.',
      'The Inc. Company LLP',
      '  éclair  ROOFING, Ltd ',
      'a_b',
    ];
    for (const text of texts) {
      const [row] = rowsOf<{ key: string }>(
        await t.database.db.execute(sql`select leadex_consent_norm(${text}) as key`),
      );
      expect(row?.key, text).toBe(consentNameKey(text));
    }
  });

  it('refuses legal names that are no names, naming the field; another buyer’s answers 404', async () => {
    const res = await setLegalNames(acme.buyer._id, ['...']);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)[0]).toMatch(/^legal_names/);
    await expectScoped404(t, bravo.cookie, 'Buyer', [
      { method: 'PUT', url: `/api/buyer/${acme.buyer._id}/legal-names`, payload: { legal_names: ['Mine Now LLC'] } },
    ]);
  });
});

describe('the calling window with the lead (issue 34 item 5)', () => {
  it('shows a lead from Hawaii that arrived at 8:30pm ET as callable until 9pm HST', async () => {
    await createCampaign(t, acme.buyer._id, { price: 30, services: ['roofing'], states: ['HI'] });
    const at = t.clock.now();
    try {
      t.clock.set('2026-11-26T01:30:00Z'); // Wednesday 8:30pm in New York, 3:30pm in Honolulu
      const sale = await post({ zip: '96813', tcpa_language: 'I agree to be called by Acme Home Services LLC' });
      expect(sale.json().status).toBe('sold');
      const res = await compliance(acme.cookie, sale.json().lead_id);
      expect(res.json().calling_window).toMatchObject({
        zone: 'Pacific/Honolulu',
        zone_from: 'zip',
        state: 'HI',
        text: 'May call 8am-9pm HST',
        at_arrival: { open: true, until: '9pm HST', reason: null, local_time: '3:30pm HST, Wednesday' },
      });
    } finally {
      t.clock.set(at);
    }
  });

  it('keeps a campaign that calls at once from a lead outside the consumer’s window', async () => {
    const atOnce = await createCampaign(t, bravo.buyer._id, { price: 95, services: ['roofing'], states: ['FL'] });
    await t.database.db.execute(sql`update ${campaigns} set refuse_outside_calling_window = true where id = ${atOnce}`);
    await t.deps.engine.reload();
    const at = t.clock.now();
    try {
      t.clock.set('2026-11-25T01:30:00Z'); // 8:30pm in Miami: past Florida's 8pm
      const late = await post({ zip: '33101' });
      const lead = await withMatchLog(late);
      expect(lead.explanation).toContainEqual(
        expect.objectContaining({
          campaign: atOnce,
          rule: 'calling_window',
          detail: "outside the consumer's calling window: after 8pm ET (8:30pm ET, Tuesday)",
        }),
      );
      t.clock.set('2026-11-25T00:59:00Z'); // 7:59pm: within it
      const inTime = await post({ zip: '33101' });
      const sold = await t.request({ method: 'GET', url: `/api/lead/${inTime.json().lead_id}`, as: admin.cookie });
      expect(sold.json().buyers).toEqual([bravo.buyer.name]);
    } finally {
      t.clock.set(at);
    }
  });
});

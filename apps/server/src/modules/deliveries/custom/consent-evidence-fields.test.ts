import { createHash } from 'node:crypto';
import { CONSENT_EVIDENCE_FIELD_NAMES, DELIVERY_FIELD_NAMES } from '@leadex/domain';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyerWithLogin, createCampaign, uniquePhone, ZIP_OF_STATE } from '../../../../test/factories';
import {
  createDelivery,
  deliveryAttemptsOf,
  eventually,
  fieldRows,
  scriptedNetwork,
  useDeliveryTestApp,
  useReceivers,
} from '../../../../test/receivers';
import { campaigns, leadMatches, webhooks } from '../../../db/schema';
import { jsonbText } from '../../../lib/jsonb-text';

/**
 * The lead's consent evidence mapped into a buyer's custom delivery (issue 34 item 3), with a real
 * peer: a local HTTP server plays the buyer's system, under a public name. The live delivery runs in
 * the sale, before the lead is stored; its retries and the notify webhook run after the commit. Each
 * receives the record the database stored, and its hash.
 */

const PUBLIC_URL = 'https://leads.example.test';
const { http } = useReceivers();
const net = scriptedNetwork({ 'crm.buyer.test': ['93.184.216.41'] });
const { t, admin, source } = useDeliveryTestApp(net.network, () => ({ PUBLIC_URL }));

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const CERT = `https://cert.trustedform.com/${'0f1e2d3c4b'.repeat(4)}`;
const TOKEN = 'B1C2D3E4-F5A6-B7C8-D9E0-F1A2B3C4D5E6';
const LANGUAGE = 'By clicking Get Quotes I agree that Keystone Roofing, LLC may call and text me.';

/** Every evidence field, mapped under its own name in upper case. */
const EVIDENCE_MAP = fieldRows(Object.fromEntries(CONSENT_EVIDENCE_FIELD_NAMES.map((f) => [f, f.toUpperCase()])));

const buyerUrl = (path: string) => {
  const url = new URL(http.url(path));
  url.hostname = 'crm.buyer.test';
  return url.toString();
};

let buyer: Awaited<ReturnType<typeof createBuyerWithLogin>>;
let campaignId: string;

beforeAll(async () => {
  buyer = await createBuyerWithLogin(t);
  const named = await t.request({
    method: 'PUT',
    url: `/api/buyer/${buyer.buyer._id}/legal-names`,
    as: admin.cookie,
    payload: { legal_names: ['Keystone Roofing, LLC'] },
  });
  expect(named.statusCode, named.body).toBe(200);
  campaignId = await createCampaign(t, buyer.buyer._id, { price: 40, states: ['OH'] });
});

async function post(fields: Record<string, unknown> = {}) {
  const res = await t.sourceApi('/api/lead', source.apiKey, {
    service: 'roofing',
    zip: ZIP_OF_STATE.OH,
    first_name: 'Dana',
    last_name: 'Reyes',
    phone: uniquePhone(),
    tcpa_consent: true,
    tcpa_language: LANGUAGE,
    ip: '198.51.100.23',
    user_agent: 'Mozilla/5.0 (consumer phone)',
    page_url: 'https://quotes.example.com/roofing',
    trusted_form: CERT,
    jornaya: TOKEN,
    ...fields,
  });
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json() as { status?: string; lead_id: string };
  expect(answer.status).toBe('sold');
  return answer.lead_id;
}

/** The stored evidence, as the buyer reads it. */
async function storedEvidence(leadId: string) {
  const res = await t.request({ method: 'GET', url: `/api/lead/${leadId}/compliance`, as: buyer.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().evidence as { record: Record<string, unknown>; canonical: string; hash: string };
}

/** What a delivery must carry of the stored evidence, under the mapping's names. */
function expectedFields(leadId: string, evidence: { record: Record<string, unknown>; hash: string }) {
  const consumer = evidence.record.consumer as Record<string, unknown>;
  return {
    CONSENT_EVIDENCE_HASH: evidence.hash,
    CONSENT_EVIDENCE_URL: `${PUBLIC_URL}/api/lead/${leadId}/consent-evidence.json`,
    CONSENT_EVIDENCE_PDF_URL: `${PUBLIC_URL}/api/lead/${leadId}/consent-evidence.pdf`,
    CONSENT_AT: evidence.record.recorded_at,
    CONSENT_LANGUAGE: LANGUAGE,
    CONSENT_IP: consumer.ip,
    CONSENT_USER_AGENT: consumer.user_agent,
    CONSENT_TRUSTED_FORM: CERT,
    CONSENT_JORNAYA: TOKEN,
    CONSENT_LEGAL_NAMES: 'Keystone Roofing, LLC',
  };
}

/** Takes a test's delivery out of the next tests' sales (a sale reads its buyer's live deliveries). */
const pause = (id: string) => t.database.db.update(webhooks).set({ status: 'pause' }).where(eq(webhooks.id, id));

const matchOf = async (leadId: string) =>
  (await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, leadId)))[0];

describe('consent evidence in a delivery (issue 34 item 3)', () => {
  it('is in the template field list, with samples for the Test modal', async () => {
    const res = await t.request({ method: 'GET', url: '/api/webhook/new', as: admin.cookie });
    const fields = res.json().fields as { field: string; sample: string }[];
    for (const name of CONSENT_EVIDENCE_FIELD_NAMES) {
      expect(DELIVERY_FIELD_NAMES).toContain(name);
      expect(fields.find((f) => f.field === name)?.sample).toBeTruthy();
    }
  });

  it('a live delivery in the sale and the webhook after it receive the record the database stored, and its hash', async () => {
    const path = `/evidence/live-${Math.random().toString(36).slice(2)}`;
    await t.database.db
      .update(campaigns)
      .set({ notify: { email: [], sms: [], webhook: buyerUrl(`${path}/hook`), broadcast_webhooks: [] } })
      .where(eq(campaigns.id, campaignId));
    const delivery = await createDelivery(t, admin.cookie, {
      buyer: buyer.buyer._id,
      name: `Evidence ${path}`,
      url: buyerUrl(path),
      map: [...fieldRows({ lead_id: 'LeadId', phone: 'Phone' }), ...EVIDENCE_MAP],
      status: 'live',
    });
    try {
      const leadId = await post();
      // The live delivery ran during the sale, before the lead (and its evidence) was stored.
      const [sent] = http.on(path);
      const body = JSON.parse(sent?.body ?? '{}');
      const evidence = await storedEvidence(leadId);
      expect(sha256(evidence.canonical)).toBe(evidence.hash);
      expect(jsonbText(evidence.record)).toBe(evidence.canonical);
      expect(body).toEqual({ LeadId: leadId, Phone: expect.any(String), ...expectedFields(leadId, evidence) });

      // The lead.sold webhook, sent by a job after the commit, carries the same evidence.
      await eventually(() => http.on(`${path}/hook`).length > 0, 10_000, 'the webhook');
      const [hook] = http.on(`${path}/hook`);
      const { data } = JSON.parse(hook?.body ?? '{}');
      expect(data).toMatchObject({
        consent_page_url: 'https://quotes.example.com/roofing',
        consent_evidence_hash: evidence.hash,
        consent_evidence_url: `${PUBLIC_URL}/api/lead/${leadId}/consent-evidence.json`,
        consent_at: evidence.record.recorded_at,
        consent_language: LANGUAGE,
        consent_legal_names: 'Keystone Roofing, LLC',
        // The consumer's calling window goes with it too (issue 34 item 5): Columbus, Ohio keeps the federal hours.
        consumer_time_zone: 'America/New_York',
        calling_window: 'May call 8am-9pm ET',
        calling_window_max_per_24h: null,
      });

      // The link is the buyer's own download: its record hashes to the hash the delivery carried.
      const url = new URL(body.CONSENT_EVIDENCE_URL);
      const download = await t.request({ method: 'GET', url: url.pathname, as: buyer.cookie });
      expect(download.statusCode).toBe(200);
      expect(sha256(download.json().canonical)).toBe(body.CONSENT_EVIDENCE_HASH);
    } finally {
      await pause(delivery._id);
      await t.database.db.update(campaigns).set({ notify: null }).where(eq(campaigns.id, campaignId));
    }
  });

  it('a retry after the sale sends the stored record; a lead whose evidence is gone sends it empty and is still delivered', async () => {
    const path = `/evidence/retry-${Math.random().toString(36).slice(2)}`;
    // The sale's attempt and both retries fail: the chain ends undelivered, then a resend is accepted.
    http.script(path, [503, 503, 503], 200);
    const delivery = await createDelivery(t, admin.cookie, {
      buyer: buyer.buyer._id,
      name: `Evidence ${path}`,
      url: buyerUrl(path),
      map: [...fieldRows({ lead_id: 'LeadId' }), ...EVIDENCE_MAP],
      status: 'live',
    });
    try {
      const leadId = await post({ tcpa_language: 'I agree to be contacted.' });
      const match = await matchOf(leadId);
      const matchId = match?.id as string;
      await eventually(async () => http.on(path).length === 3, 10_000, 'the sale and two retries');
      const evidence = await storedEvidence(leadId);
      const [inSale, retried] = http.on(path).map((r) => JSON.parse(r.body));
      // No buyer's legal name is in this language: the covered names are empty, in the sale and after it.
      expect(inSale).toEqual({
        LeadId: leadId,
        ...expectedFields(leadId, evidence),
        CONSENT_LANGUAGE: 'I agree to be contacted.',
        CONSENT_LEGAL_NAMES: null,
      });
      expect(retried).toEqual(inSale);
      await eventually(
        async () => (await deliveryAttemptsOf(t.database.db, matchId)).some((a) => a.channel === 'custom' && a.last),
        10_000,
        'the chain to end',
      );

      // The evidence is purged (past its retention): the resend still delivers the lead, the evidence fields empty.
      await t.database.db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('leadex.evidence_retention', 'on', true)`);
        await tx.execute(sql`delete from consent_evidence where lead_id = ${leadId}`);
      });
      const resend = await t.request({
        method: 'POST',
        url: `/api/lead/${leadId}/match/${matchId}/resend`,
        as: admin.cookie,
      });
      expect(resend.statusCode, resend.body).toBe(200);
      await eventually(async () => http.on(path).length === 4, 10_000, 'the resend');
      const resent = JSON.parse(http.on(path)[3]?.body ?? '{}');
      expect(resent).toEqual({
        LeadId: leadId,
        ...Object.fromEntries(CONSENT_EVIDENCE_FIELD_NAMES.map((f) => [f.toUpperCase(), null])),
      });
      await eventually(
        async () =>
          (await deliveryAttemptsOf(t.database.db, matchId)).some((a) => a.channel === 'custom' && a.accepted),
        10_000,
        'the resend accepted',
      );
    } finally {
      await pause(delivery._id);
    }
  });
});

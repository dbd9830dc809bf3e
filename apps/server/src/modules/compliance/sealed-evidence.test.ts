import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyerWithLogin, createCampaign, createSourceWithKey, uniquePhone } from '../../../test/factories';
import { expectScoped404, useAdminTestApp, useRoleCookies } from '../../../test/harness';
import { accessLog, consentEvidence, consentEvidenceSeals } from '../../db/schema';

/**
 * Issue 35 item 2: an erased lead's consent evidence survives under the legal-claims exception, sealed:
 * the admin reads it with a reason, each read one access-log entry; buyers and sources get 404; its
 * own retention deletes it.
 */

const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
const roles = useRoleCookies(t);
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const LANGUAGE = 'By clicking Get Quotes I agree that Summit Roofing may call and text me at the number above.';

let buyer: Awaited<ReturnType<typeof createBuyerWithLogin>>;
let apiKey: string;
let sealedId: string;
let openId: string;
const phone = uniquePhone();

const post = (overrides: Record<string, unknown> = {}) =>
  t.sourceApi('/api/lead', apiKey, {
    service: 'roofing',
    zip: '75201',
    name: 'Sam Sealed',
    phone: uniquePhone(),
    tcpa_consent: 'true',
    tcpa_language: LANGUAGE,
    ...overrides,
  });

const get = (url: string, as?: string) => t.request({ method: 'GET', url, ...(as ? { as } : {}) });

/** The evidence.read entries of the lead, oldest first. */
const reads = async (leadId: string) =>
  (await t.database.db.select().from(accessLog).where(eq(accessLog.action, 'evidence.read'))).filter((e) =>
    e.leadIds.includes(leadId),
  );

beforeAll(async () => {
  t.clock.set('2026-11-25T16:00:00Z');
  buyer = await createBuyerWithLogin(t);
  await createCampaign(t, buyer.buyer._id, { price: 40, services: ['roofing'], states: ['TX'] });
  ({ apiKey } = await createSourceWithKey(t, { maxCost: 10 }));
  const sold = await post({ phone, page_url: 'https://quotes.example.com/roofing' });
  expect(sold.json()).toMatchObject({ status: 'sold' });
  sealedId = sold.json().lead_id;
  openId = (await post()).json().lead_id;
  const erased = await t.request({
    method: 'POST',
    url: '/api/compliance/erasure',
    as: admin.cookie,
    payload: { phone, requested_by: 'Consumer by email, ticket 42' },
  });
  expect(erased.statusCode).toBe(200);
}, 180_000);

describe('sealed consent evidence (issue 35 item 2)', () => {
  it('survives the erasure, sealed by its request', async () => {
    const [kept] = await t.database.db.select().from(consentEvidence).where(eq(consentEvidence.leadId, sealedId));
    expect(kept?.record).toMatchObject({ consent_language: LANGUAGE });
    const [seal] = await t.database.db
      .select()
      .from(consentEvidenceSeals)
      .where(eq(consentEvidenceSeals.leadId, sealedId));
    expect(seal?.requestId).toMatch(/^era_/);
    // A lead nobody erased is not sealed.
    expect(
      await t.database.db.select().from(consentEvidenceSeals).where(eq(consentEvidenceSeals.leadId, openId)),
    ).toEqual([]);
  });

  it('is not shown on the lead: the admin is told it is sealed, its buyer and a source get 404', async () => {
    const byAdmin = await get(`/api/lead/${sealedId}/compliance`, admin.cookie);
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().evidence).toBeNull();
    expect(byAdmin.json().sealed).toMatchObject({ request_id: expect.stringMatching(/^era_/) });
    await expectScoped404(t, buyer.cookie, 'Consent evidence', [
      { method: 'GET', url: `/api/lead/${sealedId}/compliance` },
      { method: 'GET', url: `/api/lead/${sealedId}/consent-evidence.json` },
      { method: 'GET', url: `/api/lead/${sealedId}/consent-evidence.pdf` },
      { method: 'GET', url: `/api/lead/${sealedId}/consent-evidence.json?reason=I%20bought%20it` },
      { method: 'GET', url: `/api/lead/${sealedId}/sealed-evidence?reason=I%20bought%20it` },
    ]);
    await expectScoped404(t, roles.source, 'Consent evidence', [
      { method: 'GET', url: `/api/lead/${sealedId}/sealed-evidence?reason=curious` },
    ]);
    // The lead not erased is still its buyer's, unsealed.
    const open = await get(`/api/lead/${openId}/compliance`, buyer.cookie);
    expect(open.json()).toMatchObject({ sealed: null, evidence: { lead_id: openId } });
  });

  it('is read by the admin with a reason only; each read leaves one access-log entry with the reason', async () => {
    const before = (await reads(sealedId)).length;
    for (const url of [
      `/api/lead/${sealedId}/sealed-evidence`,
      `/api/lead/${sealedId}/sealed-evidence?reason=`,
      `/api/lead/${sealedId}/sealed-evidence?reason=%20%20`,
      `/api/lead/${sealedId}/consent-evidence.json`,
      `/api/lead/${sealedId}/consent-evidence.pdf`,
    ]) {
      const refused = await get(url, admin.cookie);
      expect(refused.statusCode, url).toBe(400);
      expect(Object.keys(refused.json().errors), url).toEqual(['reason']);
    }
    expect((await get(`/api/lead/${sealedId}/sealed-evidence?reason=`, admin.cookie)).json().errors).toEqual({
      reason: 'Reason is required to read sealed evidence',
    });
    expect((await get(`/api/lead/${sealedId}/sealed-evidence?reason=ab`, admin.cookie)).json().errors).toEqual({
      reason: 'Reason must be at least 3 characters',
    });
    expect(await reads(sealedId)).toHaveLength(before);

    const read = await get(`/api/lead/${sealedId}/sealed-evidence?reason=Smith%20v.%20Summit%20subpoena`, admin.cookie);
    expect(read.statusCode).toBe(200);
    const evidence = read.json().evidence;
    expect(evidence).toMatchObject({ lead_id: sealedId, hash_checks: true });
    expect(sha256(evidence.canonical)).toBe(evidence.hash);
    expect(evidence.record.consumer.phone).toBe(phone);
    let after = await reads(sealedId);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({
      role: 'admin',
      userId: admin.id,
      leadIds: [sealedId],
      detail: { reason: 'Smith v. Summit subpoena', format: 'view' },
    });

    const json = await get(`/api/lead/${sealedId}/consent-evidence.json?reason=Counsel%20asked`, admin.cookie);
    expect(json.statusCode).toBe(200);
    expect(JSON.parse(json.body).hash).toBe(evidence.hash);
    after = await reads(sealedId);
    expect(after).toHaveLength(before + 2);
    expect(after.at(-1)?.detail).toEqual({ reason: 'Counsel asked', format: 'json' });

    // An unsealed record is read as before, leaving no sealed-read entry; it has no sealed read.
    expect((await get(`/api/lead/${openId}/consent-evidence.json`, admin.cookie)).statusCode).toBe(200);
    expect(await reads(openId)).toEqual([]);
    expect((await get(`/api/lead/${openId}/sealed-evidence?reason=why%20not`, admin.cookie)).statusCode).toBe(404);
  });

  it('answers a guest 401', async () => {
    expect((await get(`/api/lead/${sealedId}/sealed-evidence?reason=curious`)).statusCode).toBe(401);
  });

  it('is deleted with its seal when its retention ends, unless under a legal hold', async () => {
    const now = t.clock.now();
    try {
      t.clock.set('2032-11-25T15:59:59Z'); // 6 years, the default, not yet
      await t.deps.services.compliance.purgeExpired();
      expect(
        await t.database.db.select().from(consentEvidence).where(eq(consentEvidence.leadId, sealedId)),
      ).toHaveLength(1);
      t.clock.set('2032-11-25T16:00:01Z');
      expect(await t.deps.services.compliance.purgeExpired()).toBeGreaterThanOrEqual(2);
    } finally {
      t.clock.set(now);
    }
    expect(await t.database.db.select().from(consentEvidence).where(eq(consentEvidence.leadId, sealedId))).toEqual([]);
    expect(
      await t.database.db.select().from(consentEvidenceSeals).where(eq(consentEvidenceSeals.leadId, sealedId)),
    ).toEqual([]);
    expect((await get(`/api/lead/${sealedId}/sealed-evidence?reason=too%20late`, admin.cookie)).statusCode).toBe(404);
  });
});

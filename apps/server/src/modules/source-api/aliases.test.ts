import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { GUIDED_PLATFORMS, platformFieldNames } from '@leadex/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, uniquePhone } from '../../../test/factories';
import { bearer, FORM, form } from '../../../test/forms';
import { useTestApp } from '../../../test/harness';
import { leads } from '../../db/schema';
import { CAMPAIGN_ID_FIELDS, FIELD_ALIASES, PLATFORM_FIELDS } from './aliases';
import { fieldMapper } from './field-map';
import { fieldNamesOf, leadSchema, pingSchema, postSchema } from './source-api.schema';

/**
 * Issue 32 item 1: the industry's field names read as ours (aliases.ts), case-insensitively, our own
 * name winning; what is not read kept in `metadata` (post, lead) and every rename or drop a warning.
 */
const t = useTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

const send = (url: string, payload: object | string, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url, payload, headers });
const leadRow = async (id: string) => (await t.database.db.select().from(leads).where(eq(leads.id, id)))[0];

const allFields = [...new Set([...fieldNamesOf(leadSchema), ...fieldNamesOf(postSchema)])];
const leadMapper = fieldMapper({ fields: new Set(fieldNamesOf(leadSchema)), allFields, keepsMetadata: true });
const pingMapper = fieldMapper({ fields: new Set(fieldNamesOf(pingSchema)), allFields, keepsMetadata: false });

describe('the alias table (aliases.ts)', () => {
  it('reads each name as one field, and only fields a lead has (or keeps in metadata under that name)', () => {
    const names = FIELD_ALIASES.map((a) => a.alias.toLowerCase());
    const fieldOf = new Map<string, string>();
    for (const { alias, field } of FIELD_ALIASES) {
      expect(fieldOf.get(alias.toLowerCase()) ?? field, alias).toBe(field);
      fieldOf.set(alias.toLowerCase(), field);
    }
    expect(new Set(FIELD_ALIASES.map((a) => a.alias)).size).toBe(FIELD_ALIASES.length);
    const ours = new Set([...allFields, 'trusted_form_ping_url']);
    for (const { field } of FIELD_ALIASES) expect(ours, field).toContain(field);
    const special = [...CAMPAIGN_ID_FIELDS, ...PLATFORM_FIELDS].map((f) => f.name.toLowerCase());
    for (const name of special) expect(names).not.toContain(name);
  });

  it('names LeadConduit fields that leadconduit-fields knows as standard (but two newer than its 1.4.1)', () => {
    const leadconduitFields = createRequire(import.meta.url)('leadconduit-fields') as {
      isStandard(id: string): boolean;
    };
    const newerThanThePackage = new Set(['trustedform_ping_url', 'leadid_token']);
    for (const { alias } of FIELD_ALIASES.filter((a) => a.platforms.includes('LeadConduit'))) {
      if (!newerThanThePackage.has(alias)) expect(leadconduitFields.isStandard(alias), alias).toBe(true);
    }
    // Every standard contact and consent field of the package that is ours is read.
    for (const id of ['first_name', 'last_name', 'email', 'phone_1', 'address_1', 'city', 'state', 'postal_code']) {
      expect(leadconduitFields.isStandard(id)).toBe(true);
      expect(allFields.includes(id) || FIELD_ALIASES.some((a) => a.alias === id), `${id} is read`).toBe(true);
    }
    for (const id of ['ip_address', 'trustedform_cert_url', 'leadid_id'])
      expect(FIELD_ALIASES.some((a) => a.alias === id)).toBe(true);
  });
});

describe('docs/api.md', () => {
  const doc = readFileSync(fileURLToPath(new URL('../../../../../docs/api.md', import.meta.url)), 'utf8');
  /** The cells of the table rows (not its header) of the section under `heading`. */
  const rowsUnder = (heading: string) =>
    (doc.split(`\n${heading}\n`)[1] ?? '')
      .split('\n## ')[0]
      ?.split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim().replaceAll('`', '')),
      );

  it('lists the alias table as the server reads it', () => {
    expect(rowsUnder('## Field aliases')).toEqual(FIELD_ALIASES.map((a) => [a.alias, a.field, a.platforms.join(', ')]));
  });

  it.each([...GUIDED_PLATFORMS, 'LeadConduit' as const])(
    'says what each %s field becomes, as the server reads it',
    (platform) => {
      expect(rowsUnder(`## Connect from ${platform}`)).toEqual(
        platformFieldNames(platform).map((f) => [f.name, f.becomes]),
      );
    },
  );
});

describe('fieldMapper', () => {
  it('reads aliases in any case as our fields, each with a warning', () => {
    const body: Record<string, unknown> = { ZIP_CODE: '78701', Primary_Phone: '5125550199', email: 'a@b.co' };
    const { warnings } = leadMapper(body);
    expect(body).toEqual({ zip: '78701', phone: '5125550199', email: 'a@b.co' });
    expect(warnings).toEqual(['Field `ZIP_CODE` was read as `zip`.', 'Field `Primary_Phone` was read as `phone`.']);
  });

  it('reads our own name in another case, with a warning', () => {
    const body: Record<string, unknown> = { Zip: '78701', SERVICE: 'roofing' };
    expect(leadMapper(body).warnings).toEqual([
      'Field `Zip` was read as `zip`.',
      'Field `SERVICE` was read as `service`.',
    ]);
    expect(body).toEqual({ zip: '78701', service: 'roofing' });
  });

  it('lets our own name win over an alias, and an earlier alias over a later one; the others kept in metadata', () => {
    const body: Record<string, unknown> = {
      zip_code: '10001',
      zip: '78701',
      xxTrustedFormToken: 'b',
      trustedform_cert_url: 'a',
    };
    const { warnings } = leadMapper(body);
    expect(body).toEqual({
      zip: '78701',
      trusted_form: 'a',
      metadata: { zip_code: '10001', xxTrustedFormToken: 'b' },
    });
    expect(warnings).toEqual([
      'Field `zip_code` was not read: `zip` was sent too (kept in metadata).',
      'Field `xxTrustedFormToken` was not read: `trustedform_cert_url` was sent too (kept in metadata).',
      'Field `trustedform_cert_url` was read as `trusted_form`.',
    ]);
  });

  it('keeps unknown fields in metadata, flattening metadata.x and metadata[x], without a warning', () => {
    const body: Record<string, unknown> = {
      loan_amount: '250000',
      'metadata.campaign': 'spring',
      'metadata[ad]': '42',
      metadata: { page: 'a' },
    };
    expect(leadMapper(body).warnings).toEqual([]);
    expect(body).toEqual({ metadata: { page: 'a', loan_amount: '250000', campaign: 'spring', ad: '42' } });
  });

  it('keeps the campaign id and the platform fields in metadata, quietly, and reports the campaign id', () => {
    const body: Record<string, unknown> = { lp_campaign_id: ' 13424 ', lp_action: 'add', API_Action: 'pushLead' };
    const mapping = leadMapper(body);
    expect(mapping).toEqual({ warnings: [], campaignIds: [{ name: 'lp_campaign_id', value: '13424' }] });
    expect(body).toEqual({ metadata: { lp_campaign_id: ' 13424 ', lp_action: 'add', API_Action: 'pushLead' } });
  });

  it("reads a TrustedForm ping URL under the script's name as our field", () => {
    const body: Record<string, unknown> = { xxTrustedFormPingUrl: 'https://ping.trustedform.com/abc' };
    expect(leadMapper(body).warnings).toEqual(['Field `xxTrustedFormPingUrl` was read as `trusted_form_ping_url`.']);
    expect(body).toEqual({ trusted_form_ping_url: 'https://ping.trustedform.com/abc' });
  });

  it('ignores at the ping what it does not read, saying so; never a prototype key', () => {
    const body: Record<string, unknown> = JSON.parse(
      '{"zip_code":"78701","service":"roofing","phone_home":"5125550199","loan_amount":"1","__proto__":{"x":1}}',
    );
    const { warnings } = pingMapper(body);
    expect({ ...body }).toEqual({ zip: '78701', service: 'roofing' });
    expect(warnings).toEqual([
      'Field `loan_amount` is not read at the ping: it was ignored.',
      'Field `__proto__` was ignored: that name cannot be stored.',
      'Field `zip_code` was read as `zip`.',
      'Field `phone_home` is not read at the ping: it was ignored.',
    ]);
  });

  it("drops quietly at the post the ping's fields sent again, under any name: the ping's values are the lead's", () => {
    const postMapper = fieldMapper({ fields: new Set(fieldNamesOf(postSchema)), allFields, keepsMetadata: true });
    const body: Record<string, unknown> = { ping_id: 'p', service: 'solar', zip_code: '78701', state: 'TX' };
    expect(postMapper(body).warnings).toEqual([]);
    expect(body).toEqual({ ping_id: 'p', state: 'TX' });
  });

  it('does not warn about a body of our own names', () => {
    const body = { service: 'roofing', zip: '78701', name: 'Pat', phone: '5125550199', metadata: { a: 1 } };
    expect(leadMapper({ ...body }).warnings).toEqual([]);
  });
});

describe('aliases on the source API (#32.1)', () => {
  let apiKey = '';
  beforeAll(async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 60, states: ['TX'], services: ['roofing'] });
    ({ apiKey } = await createSourceWithKey(t, { maxCost: 20 }));
  });

  it('sells a direct lead sent in platform names (form), stores each as our field, keeps the rest, and lists the warnings', async () => {
    const phone = uniquePhone();
    const res = await send(
      '/api/lead',
      form({
        service: 'roofing',
        Zip_Code: '78701',
        First_Name: 'Pat',
        last_name: 'Lee',
        PHONE_HOME: phone,
        email_address: 'pat@example.com',
        ip_address: '198.51.100.7',
        xxTrustedFormCertUrl: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
        universal_leadid: 'ABCDEF12-3456-7890-ABCD-EF1234567890',
        loan_amount: '250000',
        'metadata[ad]': '42',
        lp_key: apiKey,
      }),
      FORM,
    );
    expect(res.json()).toMatchObject({ ok: true, status: 'sold', price: 20 });
    expect(res.json().warnings).toEqual([
      'Field `Zip_Code` was read as `zip`.',
      'Field `First_Name` was read as `first_name`.',
      'Field `PHONE_HOME` was read as `phone`.',
      'Field `email_address` was read as `email`.',
      'Field `ip_address` was read as `ip`.',
      'Field `xxTrustedFormCertUrl` was read as `trusted_form`.',
      'Field `universal_leadid` was read as `jornaya`.',
    ]);
    const row = await leadRow(res.json().lead_id);
    expect(row).toMatchObject({
      zip: '78701',
      firstName: 'Pat',
      phone,
      email: 'pat@example.com',
      ip: '198.51.100.7',
      trustedForm: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
      jornaya: 'ABCDEF12-3456-7890-ABCD-EF1234567890',
      metadata: { loan_amount: '250000', ad: '42' },
    });
    expect(JSON.stringify(row)).not.toContain(apiKey);
  });

  it('lets our own field win over an alias (JSON), the alias kept in metadata with a warning', async () => {
    const res = await send(
      '/api/lead',
      { service: 'roofing', zip: '78701', postal_code: '10001', name: 'Pat Lee', phone: uniquePhone() },
      bearer(apiKey),
    );
    expect(res.json()).toMatchObject({
      ok: true,
      warnings: ['Field `postal_code` was not read: `zip` was sent too (kept in metadata).'],
    });
    expect(await leadRow(res.json().lead_id)).toMatchObject({ zip: '78701', metadata: { postal_code: '10001' } });
  });

  it('reads aliases at the ping and the post, with warnings in both answers; a key or a test flag is no warning', async () => {
    const ping = await send(
      '/api/ping',
      form({ SERVICE: 'roofing', postal_code: '78701', lp_key: apiKey, lp_test: '0', lp_campaign_id: '9' }),
      FORM,
    );
    expect(ping.json()).toMatchObject({
      ok: true,
      price: 20,
      warnings: ['Field `SERVICE` was read as `service`.', 'Field `postal_code` was read as `zip`.'],
    });
    const post = await send(
      '/api/post',
      { lp_ping_id: ping.json().ping_id, first_name: 'Pat', phone_1: uniquePhone(), Test_Lead: 'N' },
      bearer(apiKey),
    );
    expect(post.json()).toMatchObject({
      ok: true,
      status: 'sold',
      warnings: ['Field `lp_ping_id` was read as `ping_id`.', 'Field `phone_1` was read as `phone`.'],
    });
  });

  it('answers a field error in our name, with the warning that says which field it read as that', async () => {
    const res = await send('/api/lead', { service: 'roofing', Zip_Code: '787', name: 'Pat' }, bearer(apiKey));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      reason: 'invalid',
      errors: { zip: 'zip must be a 5-digit ZIP code' },
      warnings: ['Field `Zip_Code` was read as `zip`.'],
    });
  });

  it('sends no warnings for a body in our own names', async () => {
    const res = await send(
      '/api/lead',
      { service: 'roofing', zip: '78701', name: 'Pat Lee', phone: uniquePhone(), metadata: { a: 1 } },
      bearer(apiKey),
    );
    expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
    expect(res.json().warnings).toBeUndefined();
  });
});

import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBuyer,
  createCampaign,
  createSourceWithKey,
  signInForSource,
  uniquePhone,
} from '../../../test/factories';
import { FORM, form } from '../../../test/forms';
import { ADMIN, useTestApp } from '../../../test/harness';
import { leadMatches, leads } from '../../db/schema';

/**
 * Issue 32 items 1 and 3, "Must show": posts in the request fields LeadsPedia, boberdoo and Lead
 * Prosper document, sent as they are (form and JSON), sell; each platform's test flag sells nothing.
 * None of them sends our `service`: the source's campaign map or default service gives it, set by an
 * admin on the source (PUT /api/source/{id}) or on a key.
 */
const t = useTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

type Encoding = 'form' | 'JSON';
const send = (url: string, fields: Record<string, string>, encoding: Encoding, headers: Record<string, string> = {}) =>
  t.request({
    method: 'POST',
    url,
    payload: encoding === 'form' ? form(fields) : fields,
    headers: encoding === 'form' ? { ...FORM, ...headers } : headers,
  });
/** PUT /api/source/{id} of the test's source, as `as`. */
const putSource = (as: string, payload: object) =>
  t.request({ method: 'PUT', url: `/api/source/${sourceId}`, as, payload });
const leadRow = async (id: string) => (await t.database.db.select().from(leads).where(eq(leads.id, id)))[0];
const matchesOf = (id: string) => t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, id));

let admin = '';
let buyerId = '';
let sourceId = '';
let apiKey = '';

beforeAll(async () => {
  admin = await t.signIn(ADMIN.email, ADMIN.password);
  const buyer = await createBuyer(t);
  buyerId = buyer._id;
  // Solar and windows leads of Texas sell at $60; the source is paid $20.
  await createCampaign(t, buyerId, { price: 60, states: ['TX'], services: ['solar', 'windows'] });
  ({ sourceId, apiKey } = await createSourceWithKey(t, { maxCost: 20 }));
  const set = await putSource(admin, {
    default_service: 'Windows',
    campaign_services: [
      { campaign_id: '13424', service: 'solar' },
      { campaign_id: '21', service: 'solar' },
    ],
  });
  expect(set.statusCode).toBe(200);
  expect(set.json()).toMatchObject({
    default_service: 'windows',
    campaign_services: [
      { campaign_id: '13424', service: 'solar' },
      { campaign_id: '21', service: 'solar' },
    ],
  });
});

/** The lead sold to the buyer at $60, the source paid $20, with the fields stored as ours. */
async function expectSold(res: { json(): Record<string, unknown> }, stored: Record<string, unknown>) {
  expect(res.json()).toMatchObject({ ok: true, status: 'sold', price: 20 });
  expect(res.json().test).toBeUndefined();
  const id = res.json().lead_id as string;
  expect(await leadRow(id)).toMatchObject({ test: false, sold: true, priceCents: 6000, costCents: 2000, ...stored });
  expect(await matchesOf(id)).toEqual([expect.objectContaining({ buyerId, priceCents: 6000 })]);
}

/** A test lead: priced, nothing sold, billed or paid. */
async function expectTest(res: { json(): Record<string, unknown> }) {
  expect(res.json()).toMatchObject({ ok: true, test: true });
  const id = res.json().lead_id as string;
  expect(await leadRow(id)).toMatchObject({ test: true, sold: false, priceCents: 0, costCents: 0 });
  expect(await matchesOf(id)).toEqual([]);
}

/**
 * A platform's direct post to /api/lead as two tests: `lead(phone)` sells, stored with `stored(phone)`
 * as ours; with `testFlag` added it sells nothing.
 */
function itSellsDirectPosts(
  encoding: Encoding,
  lead: (phone: string) => Record<string, string>,
  tests: {
    sells: string;
    stored: (phone: string) => Record<string, unknown>;
    sellsNothing: string;
    testFlag: Record<string, string>;
  },
) {
  it(tests.sells, async () => {
    const phone = uniquePhone();
    const res = await send('/api/lead', lead(phone), encoding);
    await expectSold(res, tests.stored(phone));
  });

  it(tests.sellsNothing, async () => {
    await expectTest(await send('/api/lead', { ...lead(uniquePhone()), ...tests.testFlag }, encoding));
  });
}

describe.each<Encoding>(['form', 'JSON'])('LeadsPedia ping and post as documented (%s)', (encoding) => {
  const ping = () => ({
    lp_campaign_id: '13424',
    lp_campaign_key: apiKey,
    lp_s1: 'aff-7',
    state: 'TX',
    zip_code: '78701',
    ip_address: '198.51.100.7',
    loan_amount: '250000',
  });
  const post = (pingId: string, phone: string) => ({
    ...ping(),
    lp_ping_id: pingId,
    first_name: 'Pat',
    last_name: 'Lee',
    phone_home: phone,
    email_address: `pat.${phone}@example.com`,
    address: '1 Congress Ave',
    city: 'Austin',
    universal_lead_id: 'ABCDEF12-3456-7890-ABCD-EF1234567890',
  });

  it('sells: the campaign id gives the service, every field lands as ours, the rest in metadata', async () => {
    const quoted = await send('/api/ping', ping(), encoding);
    expect(quoted.json()).toMatchObject({ ok: true, price: 20 });
    const phone = uniquePhone();
    const res = await send('/api/post', post(quoted.json().ping_id, phone), encoding);
    await expectSold(res, {
      service: 'solar',
      zip: '78701',
      firstName: 'Pat',
      phone,
      ip: '198.51.100.7',
      subId: 'aff-7',
      jornaya: 'ABCDEF12-3456-7890-ABCD-EF1234567890',
      metadata: expect.objectContaining({ lp_campaign_id: '13424', loan_amount: '250000' }),
    });
  });

  it('lp_test=1 sells nothing', async () => {
    const quoted = await send('/api/ping', { ...ping(), lp_test: '1' }, encoding);
    expect(quoted.json()).toMatchObject({ ok: true, test: true });
    await expectTest(
      await send('/api/post', { ...post(quoted.json().ping_id, uniquePhone()), lp_test: '1' }, encoding),
    );
  });
});

describe.each<Encoding>(['form', 'JSON'])('boberdoo pushLead as documented (%s)', (encoding) => {
  const lead = (phone: string) => ({
    Key: apiKey,
    API_Action: 'pushLead',
    Mode: 'full',
    TYPE: '21',
    SRC: 'leadex_test',
    Sub_ID: 'sub-1',
    Pub_ID: 'pub-1',
    Landing_Page: 'https://example.com/solar',
    IP_Address: '198.51.100.8',
    First_Name: 'Sam',
    Last_Name: 'Ray',
    Address: '2 Congress Ave',
    City: 'Austin',
    State: 'TX',
    Zip: '78701',
    Primary_Phone: phone,
    Email: `sam.${phone}@example.com`,
    Homeowner: 'Yes',
    TCPA_Consent: 'Yes',
    TCPA_Language: 'I agree to be contacted.',
    Trusted_Form_URL: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
  });

  itSellsDirectPosts(encoding, lead, {
    sells: 'sells through /api/lead: TYPE gives the service, each field lands as ours',
    stored: (phone) => ({
      service: 'solar',
      firstName: 'Sam',
      lastName: 'Ray',
      phone,
      homeowner: true,
      tcpaConsent: true,
      subId: 'sub-1',
      pubId: 'pub-1',
      ip: '198.51.100.8',
      trustedForm: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
      metadata: expect.objectContaining({ TYPE: '21', Landing_Page: 'https://example.com/solar' }),
    }),
    sellsNothing: 'Test_Lead=1 sells nothing',
    testFlag: { Test_Lead: '1' },
  });
});

describe.each<Encoding>(['form', 'JSON'])('Lead Prosper direct post as documented (%s)', (encoding) => {
  const lead = (phone: string) => ({
    lp_campaign_id: '555',
    lp_supplier_id: '27633',
    lp_key: apiKey,
    lp_subid1: 'lp-sub',
    first_name: 'Kim',
    last_name: 'Fox',
    email: `kim.${phone}@example.com`,
    phone,
    address: '3 Congress Ave',
    city: 'Austin',
    state: 'TX',
    zip_code: '78701',
    ip_address: '198.51.100.9',
    user_agent: 'Mozilla/5.0 (consumer)',
    landing_page_url: 'https://example.com/windows',
    jornaya_leadid: 'ABCDEF12-3456-7890-ABCD-EF1234567891',
    trustedform_cert_url: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234568',
    home_owner: 'Yes',
  });

  itSellsDirectPosts(encoding, lead, {
    sells: "sells: a campaign id not in the map takes the source's default service",
    stored: (phone) => ({
      service: 'windows',
      phone,
      userAgent: 'Mozilla/5.0 (consumer)',
      homeowner: true,
      jornaya: 'ABCDEF12-3456-7890-ABCD-EF1234567891',
      subId: 'lp-sub',
      metadata: expect.objectContaining({ lp_campaign_id: '555', lp_supplier_id: '27633' }),
    }),
    sellsNothing: 'lp_action=test sells nothing',
    testFlag: { lp_action: 'test' },
  });
});

describe('default service and campaign map (#32.3)', () => {
  it("takes a key's default service over the source's; a service sent wins over both", async () => {
    const key = await t.request({
      method: 'PUT',
      url: `/api/source/${sourceId}/apikey/new`,
      as: admin,
      payload: { name: 'Solar key', default_service: 'solar' },
    });
    expect(key.json()).toMatchObject({ default_service: 'solar' });
    const base = { zip: '78701', name: 'Pat Lee' };
    const viaKey = await send('/api/lead', { ...base, phone: uniquePhone(), apikey: key.json().key }, 'JSON');
    expect(await leadRow(viaKey.json().lead_id)).toMatchObject({ service: 'solar' });
    const sent = await send(
      '/api/lead',
      { ...base, service: 'windows', lp_campaign_id: '13424', phone: uniquePhone(), apikey: key.json().key },
      'JSON',
    );
    expect(await leadRow(sent.json().lead_id)).toMatchObject({ service: 'windows' });
  });

  it('refuses a default service or a mapped service the exchange does not buy, naming the field', async () => {
    const wrongDefault = await putSource(admin, { default_service: 'roofs' });
    expect(wrongDefault.statusCode).toBe(400);
    expect(wrongDefault.json().errors).toEqual({
      default_service: "Default service 'roofs' is not one of the exchange's services",
    });
    const wrongRow = await putSource(admin, {
      campaign_services: [
        { campaign_id: '1', service: 'solar' },
        { campaign_id: '2', service: 'roofs' },
      ],
    });
    expect(wrongRow.json().errors).toEqual({
      'campaign_services.1.service': "Service 'roofs' is not one of the exchange's services",
    });
    const twice = await putSource(admin, {
      campaign_services: [
        { campaign_id: '1', service: 'solar' },
        { campaign_id: '1', service: 'solar' },
      ],
    });
    expect(twice.json().errors).toMatchObject({ 'campaign_services.1.campaign_id': 'Campaign ids must be unique' });
    // Nothing changed.
    const now = await t.request({ method: 'GET', url: `/api/source/${sourceId}`, as: admin });
    expect(now.json()).toMatchObject({
      default_service: 'windows',
      campaign_services: [{ campaign_id: '13424' }, { campaign_id: '21' }],
    });
  });

  it('without a default or a mapped campaign id, answers service is required, saying the id is not mapped', async () => {
    const { apiKey: bare } = await createSourceWithKey(t, { maxCost: 20 });
    const res = await send(
      '/api/lead',
      { zip_code: '78701', lp_campaign_id: '13424', name: 'Pat', phone: uniquePhone() },
      'JSON',
      {
        authorization: `Bearer ${bare}`,
      },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      errors: { service: 'service is required' },
      warnings: [
        'Field `zip_code` was read as `zip`.',
        "Campaign id `13424` (field `lp_campaign_id`) is not in this source's campaign map: send `service`.",
      ],
    });
  });

  it('shows the source its own default service and campaign map (read-only: a source cannot change them)', async () => {
    const { cookie } = await signInForSource(t, sourceId);
    const own = await t.request({ method: 'GET', url: `/api/source/${sourceId}`, as: cookie });
    expect(own.json()).toMatchObject({
      default_service: 'windows',
      campaign_services: [
        { campaign_id: '13424', service: 'solar' },
        { campaign_id: '21', service: 'solar' },
      ],
    });
    const change = await putSource(cookie, { default_service: 'solar' });
    expect(change.statusCode).toBe(403);
  });
});

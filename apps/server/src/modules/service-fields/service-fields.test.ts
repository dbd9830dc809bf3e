import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyerWithLogin, createCampaign, createSourceWithKey, uniquePhone } from '../../../test/factories';
import { useAdminTestApp, useRoleCookies } from '../../../test/harness';
import { leads } from '../../db/schema';

// Issue 33 items 1 and 2: fields per service, defined by the admin, read by the source API leniently.
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
const roles = useRoleCookies(t);
let apiKey: string;

const SOLAR_FIELDS = [
  {
    key: 'electric_bill',
    label: 'Monthly electric bill',
    type: 'money',
    required: true,
    stage: 'ping',
    aliases: ['Monthly_Bill'],
  },
  { key: 'roof_shade', label: 'Roof shade', type: 'choice', options: ['None', 'Partial', 'Heavy'], stage: 'ping' },
  { key: 'panels', label: 'Panels wanted', type: 'number', stage: 'post' },
  { key: 'battery', label: 'Wants a battery', type: 'boolean', stage: 'post' },
  { key: 'install_by', label: 'Install by', type: 'date', stage: 'ping' },
  { key: 'spouse_phone', label: 'Spouse phone', type: 'phone', personal: true },
  { key: 'spouse_email', label: 'Spouse email', type: 'email', personal: true },
  { key: 'mailing_zip', label: 'Mailing ZIP', type: 'zip', stage: 'ping' },
  { key: 'utility', label: 'Utility', type: 'text', stage: 'ping', aliases: ['utility_company'] },
];

const put = (service: string, fields: object[], as = admin.cookie) =>
  t.request({ method: 'PUT', url: `/api/services/${service}/fields`, as, payload: { fields } });

beforeAll(async () => {
  const res = await put('solar', SOLAR_FIELDS);
  expect(res.statusCode, res.body).toBe(200);
  const buyer = await createBuyerWithLogin(t);
  await createCampaign(t, buyer.buyer._id, { price: 40, services: ['solar'], states: ['TX'] });
  apiKey = (await createSourceWithKey(t, { maxCost: 10 })).apiKey;
});

const stored = async (id: string) => (await t.database.db.select().from(leads).where(eq(leads.id, id)))[0];
const contact = () => ({ name: 'Pat Lee', phone: uniquePhone(), email: `pat.${uniquePhone()}@example.com` });
const lead = (fields: Record<string, unknown>) =>
  t.sourceApi('/api/lead', apiKey, { service: 'solar', zip: '75201', ...contact(), ...fields });
const ping = (fields: Record<string, unknown>) =>
  t.sourceApi('/api/ping', apiKey, { service: 'solar', zip: '75201', ...fields });

describe('GET/PUT /api/services/{service}/fields', () => {
  it('lets every portal role read the fields, in their order, with their defaults', async () => {
    for (const as of [roles.admin, roles.buyer, roles.source]) {
      const res = await t.request({ method: 'GET', url: '/api/services/solar/fields', as });
      expect(res.statusCode).toBe(200);
      expect(res.json().fields.map((f: { key: string }) => f.key)).toEqual(SOLAR_FIELDS.map((f) => f.key));
      expect(res.json().fields[2]).toEqual({
        ...SOLAR_FIELDS[2],
        options: [],
        required: false,
        personal: false,
        aliases: [],
        help: '',
        removed: false,
      });
      const all = await t.request({ method: 'GET', url: '/api/services/fields', as });
      expect(all.statusCode).toBe(200);
      expect(all.json()).toContainEqual(expect.objectContaining({ service: 'roofing', fields: [] }));
    }
    expect((await t.request({ method: 'GET', url: '/api/services/solar/fields' })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/services/fields' })).statusCode).toBe(401);
  });

  it('lets only the admin define them: a buyer and a source get 403, nobody 401', async () => {
    for (const as of [roles.buyer, roles.source]) expect((await put('roofing', [], as)).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'PUT', url: '/api/services/roofing/fields', payload: { fields: [] } })).statusCode,
    ).toBe(401);
  });

  it('answers 404 for a service the exchange does not have', async () => {
    expect((await put('llamas', [])).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/services/llamas/fields', as: roles.buyer })).statusCode).toBe(
      404,
    );
  });

  it('refuses a bad field with a 400 naming it', async () => {
    const res = await put('roofing', [{ key: 'zip_code', label: 'Zip', type: 'zip' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      'fields.0.key': 'Key is a field the lead already has (or one of its aliases): choose another',
    });
    const choice = await put('roofing', [{ key: 'roof_type', label: 'Roof type', type: 'choice' }]);
    expect(choice.json().errors).toEqual({ 'fields.0.options': 'Roof type: a choice needs at least one option' });
  });

  it('keeps a field left out as removed, refuses to change a field’s type, and reorders', async () => {
    const first = [
      { key: 'roof_type', label: 'Roof type', type: 'choice', options: ['Asphalt', 'Metal'] },
      { key: 'roof_age', label: 'Age of roof', type: 'number' },
    ];
    expect((await put('roofing', first)).statusCode).toBe(200);
    const retyped = await put('roofing', [{ ...first[1], type: 'text' }]);
    expect(retyped.statusCode).toBe(400);
    expect(retyped.json().errors['fields.0.type']).toMatch(/^Age of roof: its type cannot change from Number to Text/);
    const res = await put('roofing', [first[1] as object]);
    expect(res.json().fields.map((f: { key: string; removed: boolean }) => [f.key, f.removed])).toEqual([
      ['roof_age', false],
      ['roof_type', true],
    ]);
    // A removed field is no longer read from sources: its name is kept in metadata like any stranger's.
    expect((await put('roofing', [])).statusCode).toBe(200);
  });
});

describe('the source API reads a service’s fields', () => {
  it('reads every type by key or alias, any case, stores them (money in cents) and answers no warning', async () => {
    const res = await lead({
      MONTHLY_BILL: '$1,200.50',
      Roof_Shade: 'partial',
      panels: '24',
      battery: 'Y',
      install_by: '03/01/2027',
      spouse_phone: '(512) 789-1111',
      spouse_email: 'Sam@Example.com',
      mailing_zip: '78701-1234',
      utility_company: 'Austin Energy',
    });
    expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
    const row = await stored(res.json().lead_id);
    expect(row?.fields).toEqual({
      electric_bill: 120050,
      roof_shade: 'Partial',
      panels: 24,
      battery: true,
      install_by: '2027-03-01',
      spouse_phone: '5127891111',
      spouse_email: 'sam@example.com',
      mailing_zip: '78701',
      utility: 'Austin Energy',
    });
    expect(row?.fieldFlags).toBeNull();
    expect(row?.metadata).toBeNull();
  });

  it('takes them in a `fields` object too', async () => {
    const res = await lead({ fields: { electric_bill: 99.99, roof_shade: 'None' } });
    expect((await stored(res.json().lead_id))?.fields).toEqual({ electric_bill: 9999, roof_shade: 'None' });
  });

  it('refuses a lead without a required field, or with one it cannot read, naming it', async () => {
    const missing = await lead({ roof_shade: 'None' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      ok: false,
      reason: 'invalid',
      errors: { electric_bill: 'electric_bill is required (Monthly electric bill)' },
    });
    const unreadable = await lead({ electric_bill: 'a lot' });
    expect(unreadable.statusCode).toBe(400);
    expect(unreadable.json().errors).toEqual({
      electric_bill: 'electric_bill (Monthly electric bill) could not be read: it is not an amount in dollars',
    });
    expect((await lead({ electric_bill: '0' })).json()).toMatchObject({ ok: true });
  });

  it('keeps an optional field it cannot read raw in the flags, and sells the lead', async () => {
    const res = await lead({ electric_bill: 150, roof_shade: 'Some', panels: 'twenty', mailing_zip: '7870' });
    expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
    const row = await stored(res.json().lead_id);
    expect(row?.fields).toEqual({ electric_bill: 15000 });
    expect(row?.fieldFlags?.map((f) => [f.field, f.value])).toEqual([
      ['roof_shade', 'Some'],
      ['panels', 'twenty'],
      ['mailing_zip', '7870'],
    ]);
    expect(res.json().warnings).toContain(
      'roof_shade “Some”: Could not be read: it is not one of: None, Partial, Heavy. The lead was kept without it.',
    );
  });

  it('at the ping: requires the required ping field, ignores post and personal fields with a warning, and carries the ping’s to the post', async () => {
    const missing = await ping({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ electric_bill: 'electric_bill is required (Monthly electric bill)' });

    const res = await ping({ electric_bill: '200', roof_shade: 'heavy', panels: 10, spouse_phone: '5127891111' });
    expect(res.json()).toMatchObject({ ok: true });
    expect(res.json().warnings).toEqual([
      'Field `panels` is read at the post, not the ping: it was ignored; send it with the post.',
      'Field `spouse_phone` is personal: it never travels in a ping and was ignored; send it with the post.',
    ]);
    const post = await t.sourceApi('/api/post', apiKey, {
      ping_id: res.json().ping_id,
      ...contact(),
      panels: 10,
      electric_bill: 999,
      spouse_phone: '5127891111',
    });
    expect(post.json()).toMatchObject({ ok: true, status: 'sold' });
    expect(post.json().warnings).toEqual(['Field `electric_bill` was sent at the ping: the ping’s value is kept.']);
    expect((await stored(post.json().lead_id))?.fields).toEqual({
      electric_bill: 20000,
      roof_shade: 'Heavy',
      panels: 10,
      spouse_phone: '5127891111',
    });
  });

  it('at the post: an optional ping field the ping did not send may come with the post; an unreadable one is flagged', async () => {
    const res = await ping({ electric_bill: '1' });
    const post = await t.sourceApi('/api/post', apiKey, {
      ping_id: res.json().ping_id,
      ...contact(),
      roof_shade: 'None',
      battery: 'perhaps',
    });
    expect(post.json()).toMatchObject({ ok: true });
    const row = await stored(post.json().lead_id);
    expect(row?.fields).toEqual({ electric_bill: 100, roof_shade: 'None' });
    expect(row?.fieldFlags?.map((f) => f.field)).toEqual(['battery']);
  });

  it('keeps another service’s field in metadata at a direct lead, and ignores it at a ping', async () => {
    await put('roofing', [{ key: 'roof_age', label: 'Age of roof', type: 'number' }]);
    const res = await lead({ electric_bill: 5, roof_age: 12 });
    expect(res.json().warnings).toEqual(['Field `roof_age` is not a field of this service: it was kept in metadata.']);
    expect((await stored(res.json().lead_id))?.metadata).toEqual({ roof_age: 12 });
    const pinged = await ping({ electric_bill: 5, roof_age: 12 });
    expect(pinged.json().warnings).toEqual(['Field `roof_age` is not a field of this service: it was ignored.']);
  });
});

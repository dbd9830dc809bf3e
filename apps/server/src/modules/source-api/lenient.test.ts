import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKeyAndLogin,
  uniquePhone,
} from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { leads } from '../../db/schema';

// Issue 32 item 4: optional fields are read leniently, what cannot be read is flagged, never a 400;
// only what the sale needs (service, ZIP, the contact) is refused.
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
let apiKey: string;
let buyer: Awaited<ReturnType<typeof createBuyerWithLogin>>;
let sourceCookie: string;

beforeAll(async () => {
  buyer = await createBuyerWithLogin(t);
  // Texas only: a lead routed by a state other than its ZIP's would not sell.
  await createCampaign(t, buyer.buyer._id, { price: 40, services: ['roofing'], states: ['TX'] });
  ({ apiKey, cookie: sourceCookie } = await createSourceWithKeyAndLogin(t, { maxCost: 10 }));
});

let n = 0;
const email = () => `pat.lenient.${++n}@example.com`;
const post = (body: Record<string, unknown>) =>
  t.sourceApi('/api/lead', apiKey, { service: 'roofing', zip: '75201', name: 'Pat Lee', ...body });
const stored = async (id: string) => (await t.database.db.select().from(leads).where(eq(leads.id, id)))[0];
const detail = (as: string, id: string) => t.request({ method: 'GET', url: `/api/lead/${id}`, as });

describe('spellings leadconduit-types reads', () => {
  it('sells a lead whose optional fields are written as the platforms write them, each read, none flagged', async () => {
    const phone = uniquePhone();
    const res = await post({
      zip: '75201 1234',
      phone: `${phone}x44`,
      email: 'Pat Lee <Pat.Lenient@Example.com>',
      state: 'Texas',
      homeowner: 'Y',
      tcpa_consent: 'Yes.',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
    expect(res.json().warnings).toBeUndefined();
    expect(await stored(res.json().lead_id)).toMatchObject({
      zip: '75201',
      phone,
      email: 'pat.lenient@example.com',
      state: 'TX',
      homeowner: true,
      tcpaConsent: true,
      metadata: { phone_extension: '44' },
      fieldFlags: null,
    });
  });

  it.each(['752011234', '75201-1234', '75201 - 1234'])('prices and sells ZIP+4 written %s', async (zip) => {
    const ping = await t.sourceApi('/api/ping', apiKey, { service: 'roofing', zip });
    expect(ping.json()).toMatchObject({ ok: true, price: 10 });
    const res = await t.sourceApi('/api/post', apiKey, { ping_id: ping.json().ping_id, name: 'Pat', email: email() });
    expect((await stored(res.json().lead_id))?.zip).toBe('75201');
  });
});

describe('what cannot be read', () => {
  it('keeps and sells the lead, flags each field with the value sent, and says so in warnings', async () => {
    const res = await post({
      phone: '555-555-5555',
      email: email(),
      state: 'ZZ',
      homeowner: 'maybe',
      tcpa_consent: 'sure',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
    const lead = await stored(res.json().lead_id);
    expect(lead).toMatchObject({ phone: null, state: 'TX', homeowner: null, tcpaConsent: null });
    expect(lead?.fieldFlags?.map((f) => [f.field, f.value])).toEqual([
      ['phone', '555-555-5555'],
      ['state', 'ZZ'],
      ['homeowner', 'maybe'],
      ['tcpa_consent', 'sure'],
    ]);
    for (const flag of lead?.fieldFlags ?? []) expect(flag.problem).toMatch(/^Could not be read: .+\.$/);
    expect(res.json().warnings).toEqual(lead?.fieldFlags?.map((f) => `${f.field} “${f.value}”: ${f.problem}`));
  });

  it('flags an email that is no address when a phone is there to sell', async () => {
    const res = await post({ phone: uniquePhone(), email: 'pat at example dot com' });
    expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
    expect((await stored(res.json().lead_id))?.fieldFlags).toEqual([
      {
        field: 'email',
        value: 'pat at example dot com',
        problem: 'Could not be read: it is not an email address. The lead was kept without an email.',
      },
    ]);
  });

  it.each([
    [
      '(512) 555-0142',
      'phone must be a consumer’s number: 555-0100 to 555-0199 are reserved for fiction, not a consumer’s number',
    ],
    ['555-555-5555', 'phone must be a consumer’s number: it is one digit repeated, not a consumer’s number'],
    ['512-789', 'phone must be a 10-digit US phone number'],
  ])('refuses a lead whose only contact is the phone %s, naming it, storing nothing', async (phone, message) => {
    const before = (await t.database.db.select({ id: leads.id }).from(leads)).length;
    const res = await post({ phone });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ ok: false, reason: 'invalid', errors: { phone: message } });
    expect(await t.database.db.select({ id: leads.id }).from(leads)).toHaveLength(before);
  });

  it('sells a phone just outside the fictional block (555-0200), unflagged', async () => {
    const res = await post({ phone: '512-555-0200' });
    expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
    expect(await stored(res.json().lead_id)).toMatchObject({ phone: '5125550200', fieldFlags: null });
  });
});

describe('state and ZIP', () => {
  it('derives the state from the ZIP when none is sent', async () => {
    const res = await post({ email: email() });
    expect((await stored(res.json().lead_id))?.state).toBe('TX');
  });

  it('routes and stores the ZIP’s state when the sent one contradicts it, keeping what was sent in a flag', async () => {
    // The only campaign buys Texas: the lead sells only if it is routed by its ZIP's state.
    const res = await post({ email: email(), state: 'NY' });
    expect(res.json()).toMatchObject({ ok: true, status: 'sold' });
    const lead = await stored(res.json().lead_id);
    expect(lead?.state).toBe('TX');
    expect(lead?.fieldFlags).toEqual([
      {
        field: 'state',
        value: 'NY',
        problem: 'NY does not match ZIP 75201, which is in TX: the lead is routed and delivered as TX.',
      },
    ]);
    // What the buyer reads of the lead (and its deliveries send) is the ZIP's state.
    expect((await detail(buyer.cookie, res.json().lead_id)).json()).toMatchObject({ state: 'TX' });
  });
});

describe('the flags and unknown answers on every screen', () => {
  let leadId: string;
  beforeAll(async () => {
    const res = await post({ email: email(), phone: '1234', state: 'New York' });
    leadId = res.json().lead_id;
  });

  it('are in the lead detail of the admin, the buyer and the source', async () => {
    for (const as of [admin.cookie, buyer.cookie, sourceCookie]) {
      const body = (await detail(as, leadId)).json();
      expect(body.field_flags.map((f: { field: string }) => f.field)).toEqual(['phone', 'state']);
      // Neither flag was sent: unknown, never No.
      expect(body).not.toHaveProperty('homeowner');
      expect(body).not.toHaveProperty('tcpa_consent');
    }
  });

  it('reads an unsent flag as unknown in the admin list and its CSV, and a sent No as No', async () => {
    const no = (await post({ email: email(), homeowner: 'N', tcpa_consent: 'F' })).json().lead_id;
    const list = (
      await t.request({ method: 'GET', url: '/api/lead/date/today?pageSize=100', as: admin.cookie })
    ).json();
    const rowOf = (id: string) => list.data.find((r: { _id: string }) => r._id === id);
    expect(rowOf(leadId)).not.toHaveProperty('homeowner');
    expect(rowOf(leadId)).not.toHaveProperty('tcpa_consent');
    expect(rowOf(no)).toMatchObject({ homeowner: false, tcpa_consent: false });

    const csv = await t.request({ method: 'GET', url: '/api/lead/date/today/export.csv', as: admin.cookie });
    const rows: string[][] = parse(csv.body);
    const header = rows[0] ?? [];
    const cell = (email: string | null, column: string) =>
      rows.find((r) => r[header.indexOf('Email')] === email)?.[header.indexOf(column)];
    const [unsent, sentNo] = await Promise.all([stored(leadId), stored(no)]);
    expect(cell(unsent?.email ?? null, 'Homeowner')).toBe('Unknown');
    expect(cell(unsent?.email ?? null, 'TCPA Consent')).toBe('Unknown');
    expect(cell(sentNo?.email ?? null, 'Homeowner')).toBe('No');
    expect(cell(sentNo?.email ?? null, 'TCPA Consent')).toBe('No');
  });
});

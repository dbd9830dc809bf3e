import { LEAD_CSV_COLUMNS, serviceFieldSchema } from '@leadex/domain';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLeadsMarket, type LeadsMarket, postLeadId, saveServiceFields } from '../../../test/factories';
import { ADMIN, useTestApp } from '../../../test/harness';
import { leadForDelivery, testLead } from '../deliveries/custom/render';

// Issue 33 item 5: a lead's own service fields on the lead detail, in the lists (columns and
// filters) and the CSV export, per role; and in custom deliveries' mapping and Test modal.

const t = useTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

const NOON = '2026-03-14T16:00:00Z';
const FIELDS = [
  { key: 'monthly_bill', label: 'Monthly Electric Bill', type: 'money', stage: 'ping' },
  { key: 'roof_type', label: 'Roof Type', type: 'choice', options: ['Shingle', 'Metal', 'Tile'] },
  { key: 'shade', label: 'Roof Shade', type: 'boolean' },
  { key: 'owner_birth', label: 'Owner Birth Date', type: 'date', personal: true },
  { key: 'notes_text', label: 'Installer Notes', type: 'text' },
];

let admin: string;
let { texas, oklahoma: other, source, otherSource } = {} as LeadsMarket;
const ids: Record<string, string> = {};

const post = (apiKey: string, fields: Record<string, unknown>) => postLeadId(t, apiKey, fields);

/** The lead's stored fields (money in cents), as the source API stores them. */
const setFields = (id: string, fields: Record<string, unknown>) =>
  t.database.db.execute(sql`update leads set fields = ${JSON.stringify(fields)}::jsonb where id = ${id}`);

beforeAll(async () => {
  t.clock.set(NOON);
  admin = await t.signIn(ADMIN.email, ADMIN.password);
  await saveServiceFields(t, admin, 'roofing', FIELDS);
  ({ texas, oklahoma: other, source, otherSource } = await createLeadsMarket(t, ['roofing']));

  ids.high = await post(source.apiKey, { name: 'High Bill' });
  await setFields(ids.high, {
    monthly_bill: 12000,
    roof_type: 'Metal',
    shade: false,
    owner_birth: '1970-05-01',
    notes_text: '=cmd',
    gone_field: 'kept',
  });
  t.clock.set('2026-03-14T16:01:00Z');
  ids.low = await post(source.apiKey, { name: 'Low Bill' });
  await setFields(ids.low, { monthly_bill: 11999, roof_type: 'Shingle', shade: true });
  t.clock.set('2026-03-14T16:02:00Z');
  ids.none = await post(source.apiKey, { name: 'No Fields' });
  t.clock.set('2026-03-14T16:03:00Z');
  ids.oklahoma = await post(otherSource.apiKey, { name: 'Okie', zip: '73102' });
  await setFields(ids.oklahoma, { monthly_bill: 12000 });
  t.clock.set('2026-03-14T17:00:00Z');
});

const get = (url: string, as: string) => t.request({ method: 'GET', url, as });
const idsOf = (res: { json(): { data: { _id: string }[] } }) => res.json().data.map((l) => l._id);

describe('the lead detail', () => {
  it('gives the admin every field, money in dollars, a field no longer defined too', async () => {
    const res = await get(`/api/lead/${ids.high}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().fields).toEqual({
      monthly_bill: 120,
      roof_type: 'Metal',
      shade: false,
      owner_birth: '1970-05-01',
      notes_text: '=cmd',
      gone_field: 'kept',
    });
    expect((await get(`/api/lead/${ids.none}`, admin)).json().fields).toBeUndefined();
  });

  it('gives the buyer that bought it and the source that sent it the fields (personal ones too, like its contacts)', async () => {
    const bought = await get(`/api/lead/${ids.high}`, texas.cookie);
    expect(bought.statusCode).toBe(200);
    expect(bought.json().fields).toMatchObject({ monthly_bill: 120, owner_birth: '1970-05-01' });
    const sent = await get(`/api/lead/${ids.high}`, source.cookie);
    expect(sent.statusCode).toBe(200);
    expect(sent.json().fields).toMatchObject({ monthly_bill: 120, owner_birth: '1970-05-01' });
  });

  it('answers 404 to another buyer and another source', async () => {
    expect((await get(`/api/lead/${ids.high}`, other.cookie)).statusCode).toBe(404);
    expect((await get(`/api/lead/${ids.high}`, otherSource.cookie)).statusCode).toBe(404);
  });
});

describe('the leads list', () => {
  it('carries each row’s fields; a source’s rows leave out personal ones, as its list leaves out contacts', async () => {
    const adminRow = (await get('/api/lead/date/today', admin))
      .json()
      .data.find((l: { _id: string }) => l._id === ids.high);
    expect(adminRow.fields).toMatchObject({ monthly_bill: 120, owner_birth: '1970-05-01', shade: false });
    const buyerRow = (await get('/api/lead/date/today', texas.cookie))
      .json()
      .data.find((l: { _id: string }) => l._id === ids.high);
    expect(buyerRow.fields).toMatchObject({ monthly_bill: 120, owner_birth: '1970-05-01' });
    const sourceRow = (await get('/api/lead/date/today', source.cookie))
      .json()
      .data.find((l: { _id: string }) => l._id === ids.high);
    expect(sourceRow.fields).toMatchObject({ monthly_bill: 120, roof_type: 'Metal' });
    expect(sourceRow.fields.owner_birth).toBeUndefined();
  });

  it('filters on a money field exactly, in dollars as a source writes them, on both sides of the value', async () => {
    const at = async (value: string) =>
      idsOf(await get(`/api/lead/date/today?field=${encodeURIComponent(`monthly_bill:${value}`)}`, admin));
    expect(await at('120')).toEqual([ids.oklahoma, ids.high]);
    expect(await at('$119.99')).toEqual([ids.low]);
    expect(await at('120.01')).toEqual([]);
    const res = await get('/api/lead/date/today?field=monthly_bill:120', admin);
    expect(res.json().total).toBe(2);
  });

  it('filters on a choice without case, a boolean as yes or no, a text without case, all of them together', async () => {
    expect(idsOf(await get('/api/lead/date/today?field=roof_type:metal', admin))).toEqual([ids.high]);
    expect(idsOf(await get('/api/lead/date/today?field=shade:yes', admin))).toEqual([ids.low]);
    expect(idsOf(await get('/api/lead/date/today?field=shade:no', admin))).toEqual([ids.high]);
    expect(idsOf(await get('/api/lead/date/today?field=notes_text:%3DCMD', admin))).toEqual([ids.high]);
    expect(idsOf(await get('/api/lead/date/today?field=shade:no&field=roof_type:Shingle', admin))).toEqual([]);
  });

  it('filters on several fields at once, every one of which must hold, in the list, its count and the CSV', async () => {
    const list = (query: string) => get(`/api/lead/date/today?${query}`, admin);
    // The bill alone keeps two leads, the shade one; together only the lead meeting both.
    expect(idsOf(await list('field=monthly_bill:120'))).toEqual([ids.oklahoma, ids.high]);
    expect(idsOf(await list('field=shade:no'))).toEqual([ids.high]);
    const both = await list('field=monthly_bill:120&field=shade:no');
    expect(idsOf(both)).toEqual([ids.high]);
    expect(both.json().total).toBe(1);
    // One rule more that the lead fails, whichever place it takes, leaves nothing.
    expect(idsOf(await list('field=monthly_bill:120&field=shade:no&field=roof_type:tile'))).toEqual([]);
    expect(idsOf(await list('field=roof_type:tile&field=monthly_bill:120&field=shade:no'))).toEqual([]);
    // Three rules the lead meets, five at most.
    expect(idsOf(await list('field=monthly_bill:120&field=shade:no&field=roof_type:metal'))).toEqual([ids.high]);
    const five = ['monthly_bill:120', 'shade:no', 'roof_type:metal', 'notes_text:=cmd', 'owner_birth:1970-05-01'];
    const res = await list(five.map((f) => `field=${encodeURIComponent(f)}`).join('&'));
    expect(res.statusCode, res.body).toBe(200);
    expect(idsOf(res)).toEqual([ids.high]);
    // The buyer's own list with two rules, counted the same.
    const buyers = await get('/api/lead/date/today?field=monthly_bill:120&field=roof_type:metal', texas.cookie);
    expect(buyers.json()).toMatchObject({ total: 1, data: [{ _id: ids.high }] });
    // The CSV export takes the same rules.
    const csv = await get('/api/lead/date/today/export.csv?field=monthly_bill:120&field=shade:no', admin);
    expect(csv.statusCode, csv.body).toBe(200);
    expect((parse(csv.body) as string[][]).slice(1).map((r) => r[1])).toEqual(['High Bill']);
  });

  it('filters a buyer’s own leads only, counted the same', async () => {
    const res = await get('/api/lead/date/today?field=monthly_bill:120', texas.cookie);
    expect(res.statusCode).toBe(200);
    expect(idsOf(res)).toEqual([ids.high]);
    expect(res.json().total).toBe(1);
    // The other buyer bought the Oklahoma lead alone, which has the same bill.
    const theirs = await get('/api/lead/date/today?field=monthly_bill:120', other.cookie);
    expect(idsOf(theirs)).toEqual([ids.oklahoma]);
    const none = await get('/api/lead/date/today?field=roof_type:metal', other.cookie);
    expect(none.json()).toMatchObject({ data: [], total: 0 });
  });

  it('refuses a filter it cannot read with a 400 naming the field, never a 500', async () => {
    const cases: [string, string, string][] = [
      ['field=nope:1', admin, 'No service has a field “nope”'],
      ['field=monthly_bill', admin, 'A field filter is key:value (a field’s key, then its value)'],
      [
        'field=monthly_bill:lots',
        admin,
        'Monthly Electric Bill: “lots” cannot be read: it is not an amount in dollars',
      ],
      ['field=roof_type:slate', admin, 'Roof Type: “slate” cannot be read: it is not one of: Shingle, Metal, Tile'],
      ['field=monthly_bill:', admin, 'Monthly Electric Bill: a value is required'],
      ['service=solar&field=monthly_bill:1', admin, 'solar has no field “monthly_bill”'],
      // A source filters on no personal field: its list shows none.
      ['field=owner_birth:1970-05-01', source.cookie, 'No service has a field “owner_birth”'],
    ];
    for (const [query, as, message] of cases) {
      const res = await get(`/api/lead/date/today?${query}`, as);
      expect(res.statusCode, query).toBe(400);
      expect(JSON.stringify(res.json()), query).toContain(message);
    }
    const many = Array.from({ length: 6 }, () => 'field=shade:yes').join('&');
    const res = await get(`/api/lead/date/today?${many}`, admin);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('At most 5 field filters');
    // The admin filters on a personal field.
    expect(idsOf(await get('/api/lead/date/today?field=owner_birth:05/01/1970', admin))).toEqual([ids.high]);
  });
});

describe('the CSV export', () => {
  const csv = async (as: string, query = '') => {
    const res = await get(`/api/lead/date/today/export.csv${query}`, as);
    expect(res.statusCode, res.body).toBe(200);
    return parse(res.body) as string[][];
  };

  it('adds the service’s fields after the 18 columns, money in dollars, formulas disarmed', async () => {
    const rows = await csv(admin, '?service=roofing');
    expect(rows[0]).toEqual([
      ...LEAD_CSV_COLUMNS.admin,
      'Monthly Electric Bill',
      'Roof Type',
      'Roof Shade',
      'Owner Birth Date',
      'Installer Notes',
    ]);
    const high = rows.find((r) => r[1] === 'High Bill');
    expect(high?.slice(18)).toEqual(['120.00', 'Metal', 'No', '1970-05-01', "'=cmd"]);
    const none = rows.find((r) => r[1] === 'No Fields');
    expect(none?.slice(18)).toEqual(['', '', '', '', '']);
    const filtered = await csv(admin, '?field=roof_type:shingle');
    expect(filtered.slice(1).map((r) => r[1])).toEqual(['Low Bill']);
  });

  it('gives a source its fields without the personal ones, and a buyer its own leads’ fields', async () => {
    const sourceRows = await csv(source.cookie);
    expect(sourceRows[0]).toEqual([
      ...LEAD_CSV_COLUMNS.source,
      'Monthly Electric Bill',
      'Roof Type',
      'Roof Shade',
      'Installer Notes',
    ]);
    const buyerRows = await csv(texas.cookie);
    expect(buyerRows[0]?.slice(LEAD_CSV_COLUMNS.buyer.length)).toContain('Owner Birth Date');
    expect(buyerRows.slice(1).map((r) => r[1])).toEqual(['No Fields', 'Low Bill', 'High Bill']);
  });
});

describe('custom deliveries', () => {
  it('list fields.<key> with samples in the template field list', async () => {
    const res = await get('/api/webhook/new', texas.cookie);
    expect(res.statusCode).toBe(200);
    const fields = res.json().fields as { field: string; sample: string }[];
    expect(fields).toContainEqual({ field: 'fields.monthly_bill', sample: '150.00' });
    expect(fields).toContainEqual({ field: 'fields.roof_type', sample: 'Shingle' });
    expect(fields).toContainEqual({ field: 'fields.shade', sample: 'true' });
  });

  it('send a lead’s fields under fields.<key>, money in dollars; the Test modal’s values are typed', async () => {
    const defs = FIELDS.map((f) => ({ key: f.key, type: f.type as 'money' | 'choice' | 'boolean' | 'date' | 'text' }));
    const lead = leadForDelivery(
      {
        id: 'lead_1',
        createdAt: new Date(NOON),
        service: 'roofing',
        fields: { monthly_bill: 12050, shade: true },
        priceCents: 4200,
      } as never,
      4200,
      defs,
    );
    expect(lead['fields.monthly_bill']).toBe(120.5);
    expect(lead['fields.shade']).toBe(true);
    // The fields as saved: each with its defaults filled in.
    const snapshotFields = [FIELDS.map((f) => serviceFieldSchema.parse(f))];
    const test = testLead({ 'test_fields.monthly_bill': '99.5' }, snapshotFields);
    expect(test['fields.monthly_bill']).toBe(99.5);
    expect(test['fields.shade']).toBe(true);
  });
});

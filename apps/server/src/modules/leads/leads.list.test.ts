import { LEAD_CSV_COLUMNS } from '@leadex/domain';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLeadsMarket, type LeadsMarket, postLeadId } from '../../../test/factories';
import { ADMIN, useTestApp } from '../../../test/harness';
import { createDeliveryLog } from '../deliveries/notify/delivery-log';
import { createLeadsService, csvText } from './leads.service';

// DESIGN.md §11 "Leads lists": GET /api/lead/date/{dateq}, its values and its CSV export, for each
// role, in America/New_York days from the injected clock.

const t = useTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

let admin: string;
let { texas, oklahoma, source, otherSource } = {} as LeadsMarket;

/** Noon in New York (EDT) on Saturday, March 14, 2026. */
const NOON = '2026-03-14T16:00:00Z';

function post(apiKey: string, at: string, fields: Record<string, unknown>) {
  t.clock.set(at);
  return postLeadId(t, apiKey, fields);
}

/**
 * `n` leads of the first source at one instant, straight into the table (a posted lead each would take
 * minutes): ids `{service}_{at}_{i}`, for the counts' tests.
 */
function insertLeads(n: number, at: string, fields: { service: string; name?: string }) {
  return t.database.db.execute(
    sql`insert into leads (id, source_id, service, zip, name, created_at)
        select ${fields.service} || '_' || ${at}::text || '_' || g, ${source.sourceId}, ${fields.service}, '00001',
          ${fields.name ?? null}, ${at}::timestamptz
        from generate_series(1, ${n}::int) g`,
  );
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  t.clock.set(NOON);
  admin = await t.signIn(ADMIN.email, ADMIN.password);
  ({ texas, oklahoma, source, otherSource } = await createLeadsMarket(t, ['roofing', 'solar']));

  // Today in New York starts at 04:00 UTC; yesterday's last minute is 03:59 UTC.
  ids.yesterdayLate = await post(source.apiKey, '2026-03-14T03:59:00Z', { name: 'Late Yesterday' });
  ids.todayEarly = await post(source.apiKey, '2026-03-14T04:00:00Z', { name: 'Early Today' });
  ids.texas = await post(source.apiKey, '2026-03-14T15:00:00Z', {
    name: 'Robin Shaw',
    phone: '15125552123',
    email: 'robin@example.com',
    trusted_form: 'https://cert.trustedform.com/eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947',
    homeowner: 'true',
    sub_id: 'sub-7',
    pub_id: 'pub-9',
    channel: 'web',
    state: 'TX',
  });
  ids.oklahoma = await post(source.apiKey, '2026-03-14T15:30:00Z', {
    name: 'Sam Okie',
    zip: '73102',
    service: 'solar',
    jornaya: 'LEADID-1',
  });
  ids.unsold = await post(source.apiKey, '2026-03-14T15:45:00Z', { name: 'Nobody Buys', zip: '10001' });
  ids.otherSource = await post(otherSource.apiKey, '2026-03-14T15:50:00Z', { name: '=HYPERLINK("x")', zip: '10001' });
  // 30 days ago is February 13 (EST): the first day of Last 30 Days; the day before is outside it.
  ids.day30 = await post(source.apiKey, '2026-02-13T05:00:00Z', { name: 'Thirty Days' });
  ids.day31 = await post(source.apiKey, '2026-02-13T04:59:00Z', { name: 'Thirty One Days' });
  ids.lastYear = await post(source.apiKey, '2025-12-31T12:00:00Z', { name: 'Last Year' });
  t.clock.set(NOON);
});

const list = (as: string, query = '', dateq = 'today') =>
  t.request({ method: 'GET', url: `/api/lead/date/${dateq}${query ? `?${query}` : ''}`, as });
const idsOf = (res: { json(): { data: { _id: string }[] } }) => res.json().data.map((l) => l._id);

describe('admin leads list', () => {
  it('lists today’s leads in New York, newest first, with the 18 columns', async () => {
    const res = await list(admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(5);
    expect(res.json().more).toBeUndefined();
    expect(idsOf(res)).toEqual([ids.otherSource, ids.unsold, ids.oklahoma, ids.texas, ids.todayEarly]);
    const row = res.json().data.find((l: { _id: string }) => l._id === ids.texas);
    expect(row).toEqual({
      _id: ids.texas,
      ts: Date.parse('2026-03-14T15:00:00Z') / 1000,
      name: 'Robin Shaw',
      buyers: ['Texas Roofs'],
      service: 'roofing',
      state: 'TX',
      zip: '75201',
      cost: 11,
      price: 42,
      source: { _id: source.sourceId, name: expect.any(String) },
      channel: 'web',
      sub_id: 'sub-7',
      pub_id: 'pub-9',
      tcpa_consent: true,
      trusted_form: true,
      jornaya: false,
      phone: '5125552123',
      email: 'robin@example.com',
      homeowner: true,
      test: false,
    });
    const unsold = res.json().data.find((l: { _id: string }) => l._id === ids.unsold);
    expect(unsold).toMatchObject({ buyers: [], price: 0, cost: 0, tcpa_consent: true });
    // Its source did not say whether the consumer owns the home: unknown, never No (issue 32).
    expect(unsold).not.toHaveProperty('homeowner');
  });

  it('takes whole New York days: the last minute of yesterday is not today, the first minute is', async () => {
    const today = idsOf(await list(admin));
    expect(today).toContain(ids.todayEarly);
    expect(today).not.toContain(ids.yesterdayLate);
  });

  it('Last 30 Days starts 29 days before today; the day before is out', async () => {
    const res = await list(admin, 'pageSize=50', 'last30d');
    expect(idsOf(res)).toContain(ids.day30);
    expect(idsOf(res)).toContain(ids.yesterdayLate);
    expect(idsOf(res)).not.toContain(ids.day31);
  });

  it('This Month, This Year and a custom range', async () => {
    const month = idsOf(await list(admin, 'pageSize=50', 'mtd'));
    expect(month).toContain(ids.yesterdayLate);
    expect(month).not.toContain(ids.day30);
    const year = idsOf(await list(admin, 'pageSize=50', 'ytd'));
    expect(year).toContain(ids.day31);
    expect(year).not.toContain(ids.lastYear);
    const range = await list(admin, 'begin=2026-02-13&end=2026-02-13', 'range');
    expect(idsOf(range)).toEqual([ids.day30]);
    const lastDay = await list(admin, 'begin=2025-12-31&end=2026-02-12', 'range');
    expect(idsOf(lastDay)).toEqual([ids.day31, ids.lastYear]);
  });

  it('follows the injected clock (the simulator’s mock date)', async () => {
    t.clock.set('2026-02-13T18:00:00Z');
    try {
      expect(idsOf(await list(admin))).toEqual([ids.day30]);
    } finally {
      t.clock.set(NOON);
    }
  });

  it('filters by name (contains, any case), service, zip and buyer, and No Buyer', async () => {
    expect(idsOf(await list(admin, 'name=rObIn'))).toEqual([ids.texas]);
    expect(idsOf(await list(admin, 'name=%25'))).toEqual([]);
    expect(idsOf(await list(admin, 'service=solar'))).toEqual([ids.oklahoma]);
    expect(idsOf(await list(admin, 'zip=73102'))).toEqual([ids.oklahoma]);
    expect(idsOf(await list(admin, `buyer=${texas.buyer._id}`))).toEqual([ids.texas, ids.todayEarly]);
    expect(idsOf(await list(admin, 'buyer=none'))).toEqual([ids.otherSource, ids.unsold]);
  });

  it('sorts by service, and by date either way', async () => {
    const byService = (await list(admin, 'sort=service&order=asc'))
      .json()
      .data.map((l: { service: string }) => l.service);
    expect(byService).toEqual(['roofing', 'roofing', 'roofing', 'roofing', 'solar']);
    expect(idsOf(await list(admin, 'sort=date&order=asc'))[0]).toBe(ids.todayEarly);
  });

  it('pages (page size 15 by default) and counts all', async () => {
    const first = await list(admin, 'pageSize=2', 'ytd');
    const second = await list(admin, 'pageSize=2&page=2', 'ytd');
    expect(first.json().total).toBe(8);
    expect(idsOf(first)).toHaveLength(2);
    expect(idsOf(second)).toHaveLength(2);
    expect(idsOf(second)).not.toContain(idsOf(first)[0]);
  });

  it('refuses a bad range with the field named', async () => {
    const unknown = await list(admin, '', 'yesterday');
    expect(unknown.statusCode).toBe(400);
    const noBegin = await list(admin, 'end=2026-01-01', 'range');
    expect(noBegin.statusCode).toBe(400);
    expect(noBegin.json().errors).toEqual({ begin: 'Begin is required for a custom range' });
    const reversed = await list(admin, 'begin=2026-02-01&end=2026-01-01', 'range');
    expect(reversed.json().errors).toEqual({ end: 'End must be on or after Begin' });
    const notADate = await list(admin, 'begin=2026-02-31&end=2026-03-01', 'range');
    expect(notADate.statusCode).toBe(400);
  });
});

/** The columns every role's list shows of Robin Shaw's lead (sold to Texas Roofs). */
const robinsRow = () => ({
  _id: ids.texas,
  ts: Date.parse('2026-03-14T15:00:00Z') / 1000,
  name: 'Robin Shaw',
  service: 'roofing',
  state: 'TX',
  zip: '75201',
});

describe('a buyer’s leads list', () => {
  it('shows only the leads sold to it, with its own price', async () => {
    const res = await list(texas.cookie);
    expect(idsOf(res)).toEqual([ids.texas, ids.todayEarly]);
    expect(res.json().data[0]).toEqual({
      ...robinsRow(),
      price: 42,
      phone: '5125552123',
      email: 'robin@example.com',
      type: 'Direct',
    });
    expect(idsOf(await list(oklahoma.cookie))).toEqual([ids.oklahoma]);
  });

  it('cannot reach another buyer’s leads through the buyer filter', async () => {
    expect(idsOf(await list(texas.cookie, `buyer=${oklahoma.buyer._id}`))).toEqual([ids.texas, ids.todayEarly]);
    expect(idsOf(await list(texas.cookie, 'buyer=none'))).toEqual([ids.texas, ids.todayEarly]);
  });
});

describe('a source’s leads list', () => {
  it('shows only its own leads, without buyers or prices', async () => {
    const res = await list(otherSource.cookie);
    expect(idsOf(res)).toEqual([ids.otherSource]);
    const mine = await list(source.cookie);
    expect(idsOf(mine)).toEqual([ids.unsold, ids.oklahoma, ids.texas, ids.todayEarly]);
    const row = mine.json().data.find((l: { _id: string }) => l._id === ids.texas);
    expect(row).toEqual({
      ...robinsRow(),
      channel: 'web',
      cost: 11,
      sold: true,
      test: false,
    });
    // Issue 27: the Sold and Payout columns of the source's list; an unsold lead earned nothing.
    const unsold = mine.json().data.find((l: { _id: string }) => l._id === ids.unsold);
    expect(unsold).toMatchObject({ sold: false, cost: 0 });
    expect(JSON.stringify(mine.json())).not.toMatch(/Texas Roofs|"price"|buyers/);
  });
});

describe('values present', () => {
  it('answers the services and ZIPs of the viewer’s leads in the range', async () => {
    const services = await t.request({ method: 'GET', url: '/api/lead/values/service?dateq=today', as: admin });
    expect(services.json()).toEqual(['roofing', 'solar']);
    const zips = await t.request({ method: 'GET', url: '/api/lead/values/zip', as: oklahoma.cookie });
    expect(zips.json()).toEqual(['73102']);
    const sourceZips = await t.request({
      method: 'GET',
      url: '/api/lead/values/zip?dateq=today',
      as: otherSource.cookie,
    });
    expect(sourceZips.json()).toEqual(['10001']);
  });
});

describe('CSV export', () => {
  const exportOf = (as: string, query = '', dateq = 'today') =>
    t.request({ method: 'GET', url: `/api/lead/date/${dateq}/export.csv${query ? `?${query}` : ''}`, as });

  it('streams the admin’s 18 columns as leads_{date}.csv, with the list’s filters', async () => {
    const res = await exportOf(admin, 'service=roofing');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="leads_2026-03-14.csv"');
    const rows: string[][] = parse(res.body);
    // The header is the domain's table of the export's columns, which the web and the e2e read too.
    expect(rows[0]).toEqual(LEAD_CSV_COLUMNS.admin);
    expect(rows[0]).toHaveLength(18);
    expect(rows).toHaveLength(1 + 4);
    const robin = rows.find((r) => r[1] === 'Robin Shaw');
    expect(robin).toEqual([
      '2026-03-14T11:00:00-04:00', // ISO 8601 with the exchange zone's offset (EDT)
      'Robin Shaw',
      'Texas Roofs',
      'roofing',
      'TX',
      '75201',
      '11.00',
      '42.00',
      expect.any(String),
      'web',
      'sub-7',
      'pub-9',
      'Yes',
      'Yes',
      'No',
      '5125552123',
      'robin@example.com',
      'Yes',
    ]);
  });

  it('keeps a source’s formula out of a spreadsheet', async () => {
    const rows: string[][] = parse((await exportOf(admin, 'buyer=none')).body);
    expect(rows.map((r) => r[1])).toContain(`'=HYPERLINK("x")`);
  });

  it('gives buyers and sources their own columns and rows only', async () => {
    const buyerRows: string[][] = parse((await exportOf(texas.cookie)).body);
    expect(buyerRows[0]).toEqual(LEAD_CSV_COLUMNS.buyer);
    expect(buyerRows.slice(1).map((r) => r[1])).toEqual(['Robin Shaw', 'Early Today']);
    const sourceRows: string[][] = parse((await exportOf(otherSource.cookie)).body);
    expect(sourceRows[0]).toEqual(LEAD_CSV_COLUMNS.source);
    expect(sourceRows).toHaveLength(2);
    expect(sourceRows.join()).not.toContain('Texas Roofs');
  });

  it('reads batch after batch without skipping or repeating a row, in either sort', async () => {
    // Leads posted in the same millisecond share a date: the id breaks the tie between batches.
    for (let i = 0; i < 5; i++) await post(otherSource.apiKey, '2026-03-14T17:00:00Z', { name: `Same Time ${i}` });
    t.clock.set(NOON);
    const service = createLeadsService({
      db: t.database.db,
      clock: t.clock,
      exportBatch: 2,
      deliveryLog: createDeliveryLog({ db: t.database.db }),
      serviceFields: { all: async () => [] },
      accessLog: t.deps.services.accessLog,
    });
    const viewer = { userId: 'u', role: 'admin' as const, roleId: null };
    const read = async (query: Record<string, string>) => {
      const { body } = await service.exportCsv(viewer, 'today', {
        page: 1,
        pageSize: 15,
        ...query,
      } as Parameters<typeof service.exportCsv>[2]);
      let text = '';
      for await (const chunk of body) text += chunk;
      return (parse(text) as string[][]).slice(1).map((r) => r[1]);
    };
    const all = (await list(admin, 'pageSize=50')).json().data.map((l: { name: string }) => csvText(l.name));
    const byDate = await read({});
    expect(byDate).toEqual(all);
    expect(new Set(byDate).size).toBe(10);
    const byService = await read({ sort: 'service', order: 'desc' });
    expect(byService.slice().sort()).toEqual(all.slice().sort());
    expect(byService[0]).toBe('Sam Okie');
  });
});

describe('the count stops at 10,000', () => {
  it('counts exactly up to 10,000 and says there are more beyond', async () => {
    await insertLeads(10_000, '2026-01-05T12:00:00Z', { service: 'bulk' });
    await insertLeads(10_001, '2026-01-06T12:00:00Z', { service: 'bulk' });
    const exact = await list(admin, 'begin=2026-01-05&end=2026-01-05&service=bulk', 'range');
    expect(exact.json()).toMatchObject({ total: 10_000 });
    expect(exact.json().more).toBeUndefined();
    expect(idsOf(exact)).toHaveLength(15);
    const over = await list(admin, 'begin=2026-01-06&end=2026-01-06&service=bulk', 'range');
    expect(over.json()).toMatchObject({ total: 10_000, more: true });
  });

  it('counts a name search exactly up to 1,000 and says there are more beyond, for every role', async () => {
    // A buyer's list reads its sales: each bulk lead sold to Texas Roofs, with the sale's copy of the name.
    const sell = (day: string) =>
      t.database.db.execute(
        sql`insert into lead_matches (id, lead_id, campaign_id, buyer_id, kind, price_cents, service, name, created_at)
            select 'match_' || l.id, l.id, 'cmp_bulk', ${texas.buyer._id}, 'exclusive', 100, l.service, l.name,
              l.created_at
            from leads l where l.id like ${`named_${day}_%`}`,
      );
    await insertLeads(1_000, '2026-01-07T12:00:00Z', { service: 'named', name: 'Bulk Namesake' });
    await insertLeads(1_001, '2026-01-08T12:00:00Z', { service: 'named', name: 'Bulk Namesake' });
    await sell('2026-01-07T12:00:00Z');
    await sell('2026-01-08T12:00:00Z');
    const day = (cookie: string, date: string, filters: string) =>
      list(cookie, `begin=${date}&end=${date}&${filters}`, 'range');
    for (const cookie of [admin, source.cookie, texas.cookie]) {
      const exact = await day(cookie, '2026-01-07', 'name=namesake');
      expect(exact.json()).toMatchObject({ total: 1_000 });
      expect(exact.json().more).toBeUndefined();
      expect(idsOf(exact)).toHaveLength(15);
      expect((await day(cookie, '2026-01-08', 'name=namesake')).json()).toMatchObject({ total: 1_000, more: true });
    }
    // The admin's buyer filter with a name reads the buyer's sales as the buyer's own list does.
    const byBuyer = await day(admin, '2026-01-08', `name=NAMESAKE&buyer=${texas.buyer._id}`);
    expect(byBuyer.json()).toMatchObject({ total: 1_000, more: true });
    // Without a name the same leads count on, exactly, to 10,000.
    expect((await day(admin, '2026-01-08', 'service=named')).json()).toEqual(expect.objectContaining({ total: 1_001 }));
    expect((await day(texas.cookie, '2026-01-08', 'service=named')).json().more).toBeUndefined();
  });
});

describe('a name search over a range of weeks', () => {
  // An admin's count walks the range's UTC weeks; a source's search, and an admin's page of a day, name
  // them to the index (leadsRepo, nameWeeksNamed): a lead in the range's first instant, or in its last one
  // (a Sunday night in New York is Monday in UTC), must still be found; a lead a minute outside must not.
  const probes: Record<string, string> = {};
  beforeAll(async () => {
    probes.beforeFirst = await post(source.apiKey, '2026-02-18T04:59:00Z', { name: 'Weekly Probe' });
    probes.first = await post(source.apiKey, '2026-02-18T05:00:00Z', { name: 'Weekly Probe' });
    probes.last = await post(source.apiKey, '2026-03-02T04:59:00Z', { name: 'Weekly Probe' });
    probes.afterLast = await post(source.apiKey, '2026-03-02T05:00:00Z', { name: 'Weekly Probe' });
    t.clock.set(NOON);
  });

  it('finds the leads of the range’s first and last instants, and none a minute outside, for the admin and the source', async () => {
    // Wednesday, February 18 to Sunday, March 1 (EST): the UTC weeks of February 16 and 23, and March 2.
    for (const cookie of [admin, source.cookie]) {
      const res = await list(cookie, 'begin=2026-02-18&end=2026-03-01&name=weekly%20probe', 'range');
      expect(idsOf(res)).toEqual([probes.last, probes.first]);
      expect(res.json()).toMatchObject({ total: 2 });
    }
  });

  it('finds them in a one-day range, whose page the index narrows to the day’s UTC weeks', async () => {
    for (const cookie of [admin, source.cookie]) {
      // Wednesday, February 18: one UTC week; the lead a minute before is Tuesday's.
      const wednesday = await list(cookie, 'begin=2026-02-18&end=2026-02-18&name=weekly%20probe', 'range');
      expect(idsOf(wednesday)).toEqual([probes.first]);
      expect(wednesday.json()).toMatchObject({ total: 1 });
      // Sunday, March 1 in New York ends on Monday, March 2 in UTC: two UTC weeks.
      const sunday = await list(cookie, 'begin=2026-03-01&end=2026-03-01&name=weekly%20probe', 'range');
      expect(idsOf(sunday)).toEqual([probes.last]);
      expect(sunday.json()).toMatchObject({ total: 1 });
    }
  });

  it('searches a range longer than 26 weeks with the same answer', async () => {
    for (const cookie of [admin, source.cookie]) {
      const res = await list(cookie, 'begin=2025-06-01&end=2026-03-01&name=weekly%20probe', 'range');
      expect(idsOf(res)).toEqual([probes.last, probes.first, probes.beforeFirst]);
      expect(res.json()).toMatchObject({ total: 3 });
      const wider = await list(cookie, 'begin=2025-06-01&end=2026-03-02&name=weekly%20probe&pageSize=50', 'range');
      expect(idsOf(wider)).toEqual([probes.afterLast, probes.last, probes.first, probes.beforeFirst]);
      expect(wider.json()).toMatchObject({ total: 4 });
    }
  });

  it('counts a name search week by week up to 1,000, whichever weeks hold the leads', async () => {
    // The count walks the range's UTC weeks from the newest and stops at 1,001: 400 leads in the week of
    // January 12 and 600 in the week of January 19 are 1,000 exactly; one more in the week of January 26
    // makes 1,000+, whichever week the walk reaches first.
    const spread = { service: 'spread', name: 'Spread Namesake' };
    await insertLeads(400, '2026-01-12T12:00:00Z', spread);
    await insertLeads(600, '2026-01-21T12:00:00Z', spread);
    await insertLeads(1, '2026-01-26T12:00:00Z', spread);
    for (const cookie of [admin, source.cookie]) {
      const exact = await list(cookie, 'begin=2026-01-12&end=2026-01-25&name=spread', 'range');
      expect(exact.json()).toMatchObject({ total: 1_000 });
      expect(exact.json().more).toBeUndefined();
      const over = await list(cookie, 'begin=2026-01-12&end=2026-01-26&name=spread', 'range');
      expect(over.json()).toMatchObject({ total: 1_000, more: true });
      const newestWeeks = await list(cookie, 'begin=2026-01-19&end=2026-01-26&name=spread', 'range');
      expect(newestWeeks.json()).toMatchObject({ total: 601 });
      expect(newestWeeks.json().more).toBeUndefined();
    }
    // Another source's name search counts none of them.
    const other = await list(otherSource.cookie, 'begin=2026-01-12&end=2026-01-26&name=spread', 'range');
    expect(other.json()).toMatchObject({ total: 0 });
  });
});

describe('an admin’s edit of a lead’s service or name', () => {
  // The sale copies both onto its matches, which a buyer's list filters by: an edit must move them too.
  it.each([
    {
      field: 'service',
      posted: { name: 'Moved Service' },
      edited: 'solar',
      day: '2025-06-02',
      before: 'roofing',
      after: 'solar',
    },
    {
      field: 'name',
      posted: { name: 'Before Rename' },
      edited: 'After Rename',
      day: '2025-06-03',
      before: 'before',
      after: 'after',
    },
  ])(
    'finds the lead by its new $field in its buyer’s list too',
    async ({ field, posted, edited, day, before, after }) => {
      const id = await post(source.apiKey, `${day}T16:00:00Z`, { ...posted, state: 'TX' });
      const filtered = (cookie: string, value: string) =>
        list(cookie, `begin=${day}&end=${day}&${field}=${value}`, 'range');
      expect(idsOf(await filtered(texas.cookie, before))).toEqual([id]);
      const edit = await t.request({
        method: 'PUT',
        url: `/api/lead/${id}`,
        as: admin,
        payload: { [field]: edited },
      });
      expect(edit.statusCode, edit.body).toBe(200);
      expect((await filtered(texas.cookie, before)).json()).toMatchObject({ total: 0, data: [] });
      expect(idsOf(await filtered(texas.cookie, after))).toEqual([id]);
      expect((await filtered(texas.cookie, after)).json()).toMatchObject({ total: 1 });
      expect(idsOf(await filtered(admin, `${after}&buyer=${texas.buyer._id}`))).toEqual([id]);
    },
  );
});

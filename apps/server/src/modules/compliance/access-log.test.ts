import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyerWithLogin, createCampaign, createSourceWithKey, postSoldLead } from '../../../test/factories';
import { useAdminTestApp, useRoleCookies } from '../../../test/harness';
import { accessLog } from '../../db/schema';
import { exchangeZone } from '../../lib/exchange-zone';

const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
const roles = useRoleCookies(t);
let leadId: string;
let buyer: Awaited<ReturnType<typeof createBuyerWithLogin>>;

beforeAll(async () => {
  buyer = await createBuyerWithLogin(t);
  await createCampaign(t, buyer.buyer._id, { price: 30, services: ['roofing'], states: ['TX'] });
  const { apiKey } = await createSourceWithKey(t, { maxCost: 10 });
  leadId = (await postSoldLead(t, apiKey, { name: 'Robin Shaw' })).leadId;
}, 180_000);

/** The access log's rows, oldest first, read from the table itself. */
async function entries() {
  return t.database.db.select().from(accessLog).orderBy(accessLog.at, accessLog.id);
}

/** The entries a request added: runs it and answers the new rows. */
async function added(run: () => Promise<unknown>) {
  const before = (await entries()).length;
  await run();
  return (await entries()).slice(before);
}

const log = (query = '', as = admin.cookie) =>
  t.request({ method: 'GET', url: `/api/compliance/access-log${query}`, as });

describe('what leaves an entry (issue 35 item 5)', () => {
  it('a view of a lead leaves one entry for any role, with the user, role, lead and client address', async () => {
    const byAdmin = await added(() => t.request({ method: 'GET', url: `/api/lead/${leadId}`, as: admin.cookie }));
    expect(byAdmin).toHaveLength(1);
    expect(byAdmin[0]).toMatchObject({
      userId: admin.id,
      role: 'admin',
      action: 'lead.view',
      leadIds: [leadId],
      address: '127.0.0.1',
    });
    const byBuyer = await added(() => t.request({ method: 'GET', url: `/api/lead/${leadId}`, as: buyer.cookie }));
    expect(byBuyer).toMatchObject([{ role: 'buyer', action: 'lead.view', leadIds: [leadId] }]);
  });

  it('a lead the caller may not see (404) leaves none', async () => {
    const none = await added(async () => {
      expect((await t.request({ method: 'GET', url: `/api/lead/${leadId}`, as: roles.source })).statusCode).toBe(404);
      expect((await t.request({ method: 'GET', url: '/api/lead/lead_nothing', as: admin.cookie })).statusCode).toBe(
        404,
      );
    });
    expect(none).toEqual([]);
  });

  it('a page of the leads list leaves one entry with the page’s lead ids and the filter (a name by its first letter)', async () => {
    const rows = await added(async () => {
      const res = await t.request({ method: 'GET', url: '/api/lead/date/today?name=Robin', as: admin.cookie });
      expect(res.json().data.map((l: { _id: string }) => l._id)).toEqual([leadId]);
    });
    expect(rows).toMatchObject([{ action: 'lead.list', leadIds: [leadId], detail: { dateq: 'today', name: 'R…' } }]);
    expect(JSON.stringify(rows)).not.toContain('Robin');
  });

  it('an export leaves one entry with its filter', async () => {
    const rows = await added(async () => {
      const res = await t.request({
        method: 'GET',
        url: '/api/lead/date/last30d/export.csv?service=roofing',
        as: buyer.cookie,
      });
      expect(res.statusCode).toBe(200);
    });
    expect(rows).toMatchObject([
      { role: 'buyer', action: 'lead.export', leadIds: [], detail: { dateq: 'last30d', service: 'roofing' } },
    ]);
  });
});

describe('GET /api/compliance/access-log (admin)', () => {
  it('pages the entries newest first, with the user’s name and email', async () => {
    const res = await log('?pageSize=2');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBeGreaterThanOrEqual(4);
    expect(body.data).toHaveLength(2);
    expect(body.data[0]).toMatchObject({ action: 'lead.export', role: 'buyer', user: { _id: buyer.user.id } });
    const page2 = (await log('?pageSize=2&page=2')).json();
    expect(page2.data[0]._id).not.toBe(body.data[0]._id);
  });

  it('filters by user, action, lead and date range', async () => {
    const byAction = (await log('?action=lead.view')).json();
    expect(byAction.data.every((e: { action: string }) => e.action === 'lead.view')).toBe(true);
    expect(byAction.total).toBe(2);
    const byUser = (await log(`?user=${encodeURIComponent(buyer.user.email)}`)).json();
    expect(byUser.data.map((e: { role: string }) => e.role)).toEqual(['buyer', 'buyer']);
    const byLead = (await log(`?lead=${leadId}`)).json();
    expect(byLead.total).toBe(3);
    // The filter's dates are the exchange's days (ET): in the evening ET, UTC is already tomorrow.
    const today = new Date(t.clock.now()).toLocaleDateString('en-CA', { timeZone: exchangeZone() });
    expect((await log(`?begin=2001-01-01&end=2001-01-02`)).json().total).toBe(0);
    expect((await log(`?begin=${today}&end=${today}`)).json().total).toBeGreaterThanOrEqual(4);
  });

  it('refuses a bad filter with 400 naming the field', async () => {
    const res = await log('?action=lead.delete');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['action']);
    const dates = await log('?begin=2026-02-10&end=2026-02-01');
    expect(dates.statusCode).toBe(400);
    expect(Object.keys(dates.json().errors)).toEqual(['end']);
  });

  it('exports the filtered log as CSV', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/compliance/access-log/export.csv?action=lead.view',
      as: admin.cookie,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const rows = parse(res.body) as string[][];
    expect(rows[0]).toEqual(['Date', 'User', 'Email', 'Role', 'Action', 'Leads', 'Detail', 'Address']);
    expect(rows.slice(1).map((r) => r[4])).toEqual(['lead.view', 'lead.view']);
    expect(rows[1]?.[5]).toBe(leadId);
  });

  it('is the admin’s only: a buyer and a source get 403, a guest 401', async () => {
    for (const url of ['/api/compliance/access-log', '/api/compliance/access-log/export.csv']) {
      expect((await t.request({ method: 'GET', url, as: roles.buyer })).statusCode).toBe(403);
      expect((await t.request({ method: 'GET', url, as: roles.source })).statusCode).toBe(403);
      expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
      expect((await t.request({ method: 'GET', url, as: roles.admin })).statusCode).toBe(200);
    }
  });
});

describe('append-only', () => {
  it('has no route that changes or deletes an entry', () => {
    const writers = [...t.app.routeRoles.keys()].filter((key) => /access-log/.test(key) && !/^(GET|HEAD) /.test(key));
    expect(writers).toEqual([]);
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'] as const) {
      expect(t.app.hasRoute({ method, url: '/api/compliance/access-log/:id' })).toBe(false);
      expect(t.app.hasRoute({ method, url: '/api/compliance/access-log' })).toBe(false);
    }
  });

  it('refuses UPDATE, DELETE and TRUNCATE in the database itself', async () => {
    const n = (await entries()).length;
    for (const statement of [
      sql`update access_log set role = 'x'`,
      sql`delete from access_log`,
      sql`truncate access_log`,
    ]) {
      const error = await t.database.db.execute(statement).then(
        () => null,
        (e: Error & { cause?: Error }) => e.cause?.message ?? e.message,
      );
      expect(error).toMatch(/access_log is append-only/);
    }
    expect(await entries()).toHaveLength(n);
  });
});

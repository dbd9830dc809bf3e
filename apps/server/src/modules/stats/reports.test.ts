import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createBuyer,
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  uniquePhone,
} from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { leadMatches } from '../../db/schema';

/**
 * Issue 14, the reports beyond the spec: revenue, cost and profit per day of the month, and per source
 * and per buyer over a range, to the cent, with their CSV. One source (a $5 payout) pings and posts
 * to two buyers ($30 in Texas, $20 in Nevada) on September 15; the Nevada sale is returned.
 */
const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
const get = (url: string) => t.request({ method: 'GET', url, as: admin.cookie });
let sourceId = '';
let texas = '';
let nevada = '';
let texasName = '';

beforeAll(async () => {
  t.clock.set('2026-09-15T15:00:00Z');
  const x = await createBuyer(t);
  const y = await createBuyer(t);
  texasName = x.name;
  texas = x._id;
  nevada = y._id;
  await createCampaign(t, x._id, { price: 30, services: ['roofing'], states: ['TX'] });
  await createCampaign(t, y._id, { price: 20, services: ['roofing'], states: ['NV'] });
  const source = await createSourceWithKey(t, { maxCost: 5, canPostLead: true });
  sourceId = source.sourceId;
  const contact = () => ({ name: 'Report Lead', phone: uniquePhone(), tcpa_consent: 'true' });
  const ping = await t.sourceApi('/api/ping', source.apiKey, { service: 'roofing', zip: '75201' });
  expect(ping.json()).toMatchObject({ ok: true });
  await t.sourceApi('/api/ping', source.apiKey, { service: 'roofing', zip: '10001' }); // nobody buys
  const post = await t.sourceApi('/api/post', source.apiKey, { ping_id: ping.json().ping_id, ...contact() });
  expect(post.json()).toMatchObject({ ok: true, status: 'sold' });
  const direct = await t.sourceApi('/api/lead', source.apiKey, { service: 'roofing', zip: '89101', ...contact() });
  expect(direct.json()).toMatchObject({ ok: true, status: 'sold' });
  await t.sourceApi('/api/lead', source.apiKey, { service: 'roofing', zip: '10001', ...contact() }); // unsold
  await t.deps.engine.flush();
  const [match] = await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, direct.json().lead_id));
  const returned = await t.request({
    method: 'POST',
    url: `/api/lead/${direct.json().lead_id}/match/${match?.id}/return`,
    as: admin.cookie,
    payload: { approve: true },
  });
  expect(returned.statusCode).toBe(200);
});

describe('the reports', () => {
  it('sums each source: pings, posts per ping, leads, sold, average price, returns, revenue, cost, profit', async () => {
    const res = await get('/api/stats/sources?dateq=mtd');
    expect(res.statusCode).toBe(200);
    expect(res.json().find((r: { _id: string }) => r._id === sourceId)).toEqual({
      _id: sourceId,
      name: expect.any(String),
      pings: 2,
      leads: 3,
      ping_to_post: 0.5,
      sold: 2,
      average_price: 25,
      returns: 1,
      return_rate: 0.5,
      revenue: 30,
      cost: 5,
      profit: 25,
    });
  });

  it('sums each buyer: its share of the payouts is its cost, a returned sale earns and costs nothing', async () => {
    const rows = (await get('/api/stats/buyers')).json();
    expect(rows.find((r: { _id: string }) => r._id === texas)).toEqual({
      _id: texas,
      name: texasName,
      leads: 1,
      average_price: 30,
      returns: 0,
      return_rate: 0,
      revenue: 30,
      cost: 5,
      profit: 25,
    });
    expect(rows.find((r: { _id: string }) => r._id === nevada)).toMatchObject({
      leads: 1,
      returns: 1,
      return_rate: 1,
      revenue: 0,
      cost: 0,
      profit: 0,
    });
  });

  it('gives every day of the month up to today, in New York, with the day of the sales', async () => {
    const days = (await get('/api/stats/daily')).json();
    expect(days).toHaveLength(15);
    expect(days[0]).toEqual({ day: '2026-09-01', revenue: 0, cost: 0, profit: 0 });
    expect(days[14]).toEqual({ day: '2026-09-15', revenue: 30, cost: 5, profit: 25 });
  });

  it('takes the leads lists’ ranges: a range that ends before the sales is empty', async () => {
    const before = (await get('/api/stats/sources?dateq=range&begin=2026-08-01&end=2026-09-14')).json();
    expect(before.find((r: { _id: string }) => r._id === sourceId)).toBeUndefined();
    const bad = await get('/api/stats/sources?dateq=range&begin=2026-09-14&end=2026-08-01');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ end: 'End must be on or after Begin' });
  });

  it('downloads each table as CSV with the same figures', async () => {
    const res = await get('/api/stats/buyers/export.csv?dateq=mtd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="buyers_2026-09-15.csv"');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe('Buyer,Leads,Average price,Returns,Return rate %,Revenue,Cost,Profit');
    expect(lines).toContain(`${texasName},1,30.00,0,0.0,30.00,5.00,25.00`);
    const sources = await get('/api/stats/sources/export.csv');
    expect(sources.body.split('\n')[0]).toBe(
      'Source,Pings,Leads,Ping to post %,Sold,Average price,Returns,Return rate %,Revenue,Cost,Profit',
    );
    expect(sources.body).toContain(',2,3,50.0,2,25.00,1,50.0,30.00,5.00,25.00');
  });

  it('is for admins only', async () => {
    const { cookie } = await createBuyerWithLogin(t);
    for (const url of ['/api/stats/daily', '/api/stats/sources', '/api/stats/buyers/export.csv'])
      expect((await t.request({ method: 'GET', url, as: cookie })).statusCode).toBe(403);
  });
});

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  createBuyer,
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  insertSale,
  uniquePhone,
} from '../../../test/factories';
import { ADMIN, useTestApp } from '../../../test/harness';
import { leads } from '../../db/schema';

const t = useTestApp({ PUBLIC_API_RATE_LIMIT: 0 });

describe('GET /api/stats/', () => {
  it('sums quota, revenue, cost and the top unmatched pings of this month', async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 40, services: ['solar'], states: ['CA'], max: { monthly: 100 } });
    await createCampaign(t, buyer._id, {
      price: 30,
      services: ['hvac'],
      states: ['CA'],
      max: { monthly: 50 },
      status: 'pause',
    });
    const { apiKey } = await createSourceWithKey(t, { maxCost: 15 });
    const headers = { authorization: `Bearer ${apiKey}` };
    const sold = [];
    for (let i = 0; i < 2; i++) {
      const res = await t.request({
        method: 'POST',
        url: '/api/lead',
        headers,
        payload: { service: 'solar', zip: '90210', name: 'Sol', phone: uniquePhone() },
      });
      sold.push(res.json().lead_id as string);
    }
    for (let i = 0; i < 3; i++)
      await t.request({ method: 'POST', url: '/api/ping', headers, payload: { service: 'windows', zip: '10001' } });
    await t.request({ method: 'POST', url: '/api/ping', headers, payload: { service: 'roofing', zip: '10001' } });
    await t.deps.engine.flush();

    const admin = await t.signIn(ADMIN.email, ADMIN.password);
    // One sale is returned: its revenue and the source's $15 payout for it both come back.
    const lead = (await t.request({ method: 'GET', url: `/api/lead/${sold[0]}`, as: admin })).json();
    const returned = await t.request({
      method: 'POST',
      url: `/api/lead/${sold[0]}/match/${lead.match[0]._id}/return`,
      as: admin,
      payload: { approve: true },
    });
    expect(returned.statusCode).toBe(200);
    const res = await t.request({ method: 'GET', url: '/api/stats/', as: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      totalQuota: 100,
      totalQuotaValue: 4000,
      totalLeads: 2,
      leadRevenue: 40,
      leadCost: 15,
      topUnmatchedPings: [
        { _id: { zip: '10001', service: 'windows' }, count: 3 },
        { _id: { zip: '10001', service: 'roofing' }, count: 1 },
      ],
    });
  });

  it('counts the month in New York to the second and to the cent, following the clock', async () => {
    // July 2026 starts at 04:00 UTC in New York. Earlier tests sold in January, outside this month.
    t.clock.set('2026-07-20T15:00:00Z');
    const admin = await t.signIn(ADMIN.email, ADMIN.password);
    const buyer = await createBuyer(t);
    const campaignId = await createCampaign(t, buyer._id, { status: 'draft' });
    const { sourceId, apiKey } = await createSourceWithKey(t);
    // Pings nobody buys, on either side of July's start in New York: only the later one is July's gap.
    for (const at of ['2026-07-01T03:59:59Z', '2026-07-01T04:00:00Z', '2026-07-01T04:00:01Z']) {
      t.clock.set(at);
      await t.sourceApi('/api/ping', apiKey, { service: 'gutters', zip: at.endsWith('59Z') ? '30301' : '30302' });
    }
    await t.deps.engine.flush();
    const sale = async (at: string, dollars: number, costCents: number) => {
      const sold = await insertSale(t, buyer._id, campaignId, sourceId, at, dollars);
      await t.database.db.update(leads).set({ costCents }).where(eq(leads.id, sold.leadId));
      return sold;
    };
    await sale('2026-07-01T03:59:59Z', 50.01, 1000); // June 30 in New York: not this month
    await sale('2026-07-01T04:00:00Z', 30.33, 1111); // the first second of July
    const returned = await sale('2026-07-10T15:00:00Z', 20.5, 800);
    await sale('2026-08-01T04:00:00Z', 99, 500); // August: after this month (sold "in the future")
    const approve = await t.request({
      method: 'POST',
      url: `/api/lead/${returned.leadId}/match/${returned.matchId}/return`,
      as: admin,
      payload: { approve: true },
    });
    expect(approve.statusCode).toBe(200);

    const figures = async (at: string) => {
      t.clock.set(at);
      const res = await t.request({ method: 'GET', url: '/api/stats/', as: admin });
      const { totalLeads, leadRevenue, leadCost, topUnmatchedPings } = res.json();
      const gaps = topUnmatchedPings.filter((g: { _id: { service: string } }) => g._id.service === 'gutters');
      return { totalLeads, leadRevenue, leadCost, gaps };
    };
    // July: the two July leads; revenue without the returned one; cost less its $8 chargeback. The
    // June sale never counts, and the August one not before August (a mock date in the past).
    const july = {
      totalLeads: 2,
      leadRevenue: 30.33,
      leadCost: 11.11,
      gaps: [{ _id: { zip: '30302', service: 'gutters' }, count: 2 }],
    };
    expect(await figures('2026-07-20T15:00:00Z')).toEqual(july);
    expect(await figures('2026-08-01T03:59:59Z')).toEqual(july);
    expect(await figures('2026-08-01T04:00:00Z')).toEqual({ totalLeads: 1, leadRevenue: 99, leadCost: 5, gaps: [] });
  });

  it('counts a direct lead nobody would buy as a Buyer Gap, but not a sold one or a test one', async () => {
    t.clock.set('2026-10-14T15:00:00Z');
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 25, services: ['siding'], states: ['CO'] });
    const { apiKey } = await createSourceWithKey(t, { maxCost: 5 });
    const headers = { authorization: `Bearer ${apiKey}` };
    const direct = (zip: string, extra: Record<string, unknown> = {}) =>
      t.request({
        method: 'POST',
        url: '/api/lead',
        headers,
        payload: { service: 'siding', zip, name: 'Gap Lead', phone: uniquePhone(), ...extra },
      });
    expect((await direct('80202')).json().status).toBe('sold');
    expect((await direct('33101')).json()).toMatchObject({ ok: false, reason: 'no_match' });
    expect((await direct('33101')).json()).toMatchObject({ ok: false, reason: 'no_match' });
    await direct('33101', { test: true });
    await t.deps.engine.flush();
    const admin = await t.signIn(ADMIN.email, ADMIN.password);
    const { topUnmatchedPings, totalLeads } = (
      await t.request({ method: 'GET', url: '/api/stats/', as: admin })
    ).json();
    expect(topUnmatchedPings.filter((g: { _id: { service: string } }) => g._id.service === 'siding')).toEqual([
      { _id: { zip: '33101', service: 'siding' }, count: 2 },
    ]);
    // Issue 27 item 22: the lead queue counts the leads received (admin spec §3: "leads received of
    // quota"), sold or not: the sold one and the two nobody bought, never the test one.
    expect(totalLeads).toBe(3);
  });

  it('is for admins only', async () => {
    const { cookie } = await createBuyerWithLogin(t);
    expect((await t.request({ method: 'GET', url: '/api/stats/', as: cookie })).statusCode).toBe(403);
  });
});

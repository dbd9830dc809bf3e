import { describe, expect, it } from 'vitest';
import {
  createBuyer,
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  uniquePhone,
} from '../../../test/factories';
import { ADMIN, useTestApp } from '../../../test/harness';

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

  it('is for admins only', async () => {
    const { cookie } = await createBuyerWithLogin(t);
    expect((await t.request({ method: 'GET', url: '/api/stats/', as: cookie })).statusCode).toBe(403);
  });
});

import type { BuyerStats } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { createBuyerWithLogin, createCampaign, createSourceWithLogin, insertSale } from '../../../test/factories';
import { expectScoped404, useAdminTestApp } from '../../../test/harness';
import { statsRollup } from './stats-rollup';

/** GET /api/buyer/{id}/stats: the buyer home's Stats, the signed-in buyer's own figures only. */
const { t, admin } = useAdminTestApp();

const statsOf = async (buyerId: string, cookie: string): Promise<BuyerStats> => {
  const res = await t.request({ method: 'GET', url: `/api/buyer/${buyerId}/stats`, as: cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

/** A buyer with a login and a campaign, and a source to sell it leads from. */
async function buyerWithCampaign() {
  const login = await createBuyerWithLogin(t);
  const campaignId = await createCampaign(t, login.buyer._id, { status: 'draft' });
  const { source } = await createSourceWithLogin(t);
  return { ...login, campaignId, sourceId: source.id };
}

describe('GET /api/buyer/{id}/stats', () => {
  it("counts this New York month's leads, spend and approved returns, and the last 30 days by day, following the clock", async () => {
    t.clock.set('2026-07-20T15:00:00Z');
    const me = await buyerWithCampaign();
    const other = await buyerWithCampaign();
    const sale = (at: string, dollars: number, extra: Parameters<typeof insertSale>[6] = {}) =>
      insertSale(t, me.buyer._id, me.campaignId, me.sourceId, at, dollars, extra);
    await sale('2026-06-21T04:00:00Z', 12.5); // June 21 in New York: in the 30 days, not in July
    await sale('2026-07-01T03:59:59Z', 50.01); // still June 30 in New York
    await sale('2026-07-01T04:00:00Z', 30.33); // the first second of July
    const returned = await sale('2026-07-10T15:00:00Z', 20.5);
    await sale('2026-07-10T16:00:00Z', 9.99, { returnStatus: 'requested' }); // asked, not approved: still spent
    await sale('2026-07-20T14:00:00Z', 5, { rejected: true }); // refused by the buyer's system: never sold
    await sale('2026-08-01T04:00:00Z', 99); // August: "in the future" of a mock date in July
    await insertSale(t, other.buyer._id, other.campaignId, other.sourceId, '2026-07-15T15:00:00Z', 77);
    const approve = await t.request({
      method: 'POST',
      url: `/api/lead/${returned.leadId}/match/${returned.matchId}/return`,
      as: admin.cookie,
      payload: { approve: true },
    });
    expect(approve.statusCode, approve.body).toBe(200);

    const july = await statsOf(me.buyer._id, me.cookie);
    expect(july.month).toEqual({ leads: 3, spend: 40.32, returns: 1 });
    // Today and the 29 days before it, oldest first, every day present.
    expect(july.days).toHaveLength(30);
    expect(july.days[0]?.day).toBe('2026-06-21');
    expect(july.days.at(-1)?.day).toBe('2026-07-20');
    const busy = july.days.filter((d) => d.leads > 0 || d.spend !== 0);
    expect(busy).toEqual([
      { day: '2026-06-21', leads: 1, spend: 12.5 },
      { day: '2026-06-30', leads: 1, spend: 50.01 },
      { day: '2026-07-01', leads: 1, spend: 30.33 },
      { day: '2026-07-10', leads: 2, spend: 9.99 },
    ]);

    // The admin's buyers report counts the same month the same way.
    const report = await t.request({ method: 'GET', url: '/api/stats/buyers', as: admin.cookie });
    const mine = report.json().find((r: { _id: string }) => r._id === me.buyer._id);
    expect(mine).toMatchObject({ leads: 3, returns: 1, revenue: 40.32 });

    // The last second of July in New York is still July; the first of August is August's.
    t.clock.set('2026-08-01T03:59:59Z');
    expect((await statsOf(me.buyer._id, me.cookie)).month).toEqual(july.month);
    t.clock.set('2026-08-01T04:00:00Z');
    const august = await statsOf(me.buyer._id, me.cookie);
    expect(august.month).toEqual({ leads: 1, spend: 99, returns: 0 });
    expect(august.days.at(-1)).toEqual({ day: '2026-08-01', leads: 1, spend: 99 });
  });

  it('answers the same figures once the closed days are rolled up', async () => {
    t.clock.set('2026-03-18T16:00:00Z');
    const me = await buyerWithCampaign();
    await insertSale(t, me.buyer._id, me.campaignId, me.sourceId, '2026-03-02T15:00:00Z', 41);
    await insertSale(t, me.buyer._id, me.campaignId, me.sourceId, '2026-03-18T15:00:00Z', 19.25);
    const live = await statsOf(me.buyer._id, me.cookie);
    expect(live.month).toEqual({ leads: 2, spend: 60.25, returns: 0 });
    await statsRollup.roll(t.database.db, t.clock.now());
    expect(await statsOf(me.buyer._id, me.cookie)).toEqual(live);
    await statsRollup.clear(t.database.db);
  });

  it('starts a buyer with nothing at zero, every day present', async () => {
    t.clock.set('2026-02-10T12:00:00Z');
    const { buyer, cookie } = await createBuyerWithLogin(t);
    const stats = await statsOf(buyer._id, cookie);
    expect(stats.month).toEqual({ leads: 0, spend: 0, returns: 0 });
    expect(stats.days).toHaveLength(30);
    expect(stats.days.every((d) => d.leads === 0 && d.spend === 0)).toBe(true);
  });

  it("answers another buyer's id, or an unknown one, as not found", async () => {
    const mine = await createBuyerWithLogin(t);
    const other = await createBuyerWithLogin(t);
    await expectScoped404(t, mine.cookie, 'Buyer', [
      { method: 'GET', url: `/api/buyer/${other.buyer._id}/stats` },
      { method: 'GET', url: '/api/buyer/buy_unknown/stats' },
    ]);
  });

  it('is for buyers only: a guest gets 401, an admin and a source 403', async () => {
    const { buyer } = await createBuyerWithLogin(t);
    const { cookie: source } = await createSourceWithLogin(t);
    const url = `/api/buyer/${buyer._id}/stats`;
    expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url, as: admin.cookie })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url, as: source })).statusCode).toBe(403);
  });
});

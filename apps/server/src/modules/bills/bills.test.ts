import { describe, expect, it } from 'vitest';
import {
  createBuyer,
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  createSourceWithLogin,
} from '../../../test/factories';
import { expectScoped404, useAdminTestApp } from '../../../test/harness';
import { leadMatches, leads } from '../../db/schema';
import { newId } from '../../lib/ids';
import { billingPeriod } from './bills.service';

const { t, admin } = useAdminTestApp();

const get = (url: string, as = admin.cookie) => t.request({ method: 'GET', url, as });
const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

/** A sold lead of the buyer at `at` for `dollars`, written directly. */
async function sale(
  buyerId: string,
  campaignId: string,
  sourceId: string,
  at: string,
  dollars: number,
  extra: { rejected?: boolean; returnStatus?: 'requested' | 'approved' | 'denied' } = {},
) {
  const leadId = newId('lead');
  await t.database.db.insert(leads).values({
    id: leadId,
    sourceId,
    service: 'roofing',
    zip: '75201',
    priceCents: Math.round(dollars * 100),
    createdAt: new Date(at),
  });
  await t.database.db.insert(leadMatches).values({
    id: newId('mat'),
    leadId,
    campaignId,
    buyerId,
    kind: 'exclusive',
    priceCents: Math.round(dollars * 100),
    rejected: extra.rejected ?? false,
    returnStatus: extra.returnStatus ?? null,
    createdAt: new Date(at),
  });
}

describe('billing periods (DESIGN.md §7: America/New_York, weeks from Monday)', () => {
  it('runs a monthly period from the 1st at midnight New York time, across a DST change', () => {
    const { start, next } = billingPeriod('monthly', new Date('2026-03-15T15:00:00Z'));
    expect(start.toISOString()).toBe('2026-03-01T05:00:00.000Z'); // EST
    expect(next.toISOString()).toBe('2026-04-01T04:00:00.000Z'); // EDT
  });

  it('runs a weekly period from Monday midnight to the next Monday', () => {
    // Sunday 2026-03-08, 11 p.m. in New York is still the week of Monday 2026-03-02.
    const { start, next } = billingPeriod('weekly', new Date('2026-03-09T03:00:00Z'));
    expect(start.toISOString()).toBe('2026-03-02T05:00:00.000Z');
    expect(next.toISOString()).toBe('2026-03-09T04:00:00.000Z');
  });

  it('puts the last evening of a month in New York in that month', () => {
    const { start } = billingPeriod('monthly', new Date('2026-03-01T04:30:00Z'));
    expect(start.toISOString()).toBe('2026-02-01T05:00:00.000Z');
  });
});

describe('GET /api/bill/buyer/{buyerId}', () => {
  it("answers the accruing bill of the current period from the buyer's sold, not rejected leads", async () => {
    t.clock.set('2026-03-15T15:00:00Z');
    const buyer = await createBuyer(t);
    const campaignId = await createCampaign(t, buyer._id, { status: 'draft' });
    const { sourceId } = await createSourceWithKey(t);
    await sale(buyer._id, campaignId, sourceId, '2026-03-01T05:00:00Z', 40); // the period's first second
    await sale(buyer._id, campaignId, sourceId, '2026-03-10T18:00:00Z', 55.5);
    await sale(buyer._id, campaignId, sourceId, '2026-03-12T18:00:00Z', 30, { returnStatus: 'approved' });
    await sale(buyer._id, campaignId, sourceId, '2026-03-13T18:00:00Z', 25, { returnStatus: 'requested' });
    await sale(buyer._id, campaignId, sourceId, '2026-03-14T18:00:00Z', 99, { rejected: true });
    await sale(buyer._id, campaignId, sourceId, '2026-03-01T04:59:59Z', 70); // February in New York
    const other = await createBuyer(t);
    const otherCampaign = await createCampaign(t, other._id, { status: 'draft' });
    await sale(other._id, otherCampaign, sourceId, '2026-03-10T18:00:00Z', 1000);

    const res = await get(`/api/bill/buyer/${buyer._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        _id: 'next',
        buyer: buyer._id,
        buyer_name: buyer.name,
        buyer_bill: { pay: 'invoice', prepay: 0, period: 'monthly', grace: 3, threshold: 0 },
        start: seconds('2026-03-01T05:00:00Z'),
        end: seconds('2026-04-01T04:00:00Z') - 1,
        grace: seconds('2026-04-01T04:00:00Z') + 3 * 86_400,
        status: { start: true, complete: false, invoiced: false, cancelled: false },
        total: { charges: 150.5, returns: 30, net: 120.5 },
      },
    ]);

    const current = await get(`/api/bill/buyer/${buyer._id}/current`);
    expect(current.json()).toEqual(res.json()[0]);
  });

  it("follows the buyer's weekly period and answers zeros with no sales", async () => {
    t.clock.set('2026-03-11T12:00:00Z');
    const buyer = await createBuyer(t);
    expect(
      (
        await t.request({
          method: 'PUT',
          url: `/api/buyer/${buyer._id}`,
          as: admin.cookie,
          payload: { bill: { period: 'weekly', grace: 0 } },
        })
      ).statusCode,
    ).toBe(200);
    const [bill] = (await get(`/api/bill/buyer/${buyer._id}`)).json();
    expect(bill).toMatchObject({
      start: seconds('2026-03-09T04:00:00Z'),
      end: seconds('2026-03-16T04:00:00Z') - 1,
      grace: seconds('2026-03-16T04:00:00Z'),
      buyer_bill: { period: 'weekly', grace: 0 },
      total: { charges: 0, returns: 0, net: 0 },
    });
  });

  it('shows a buyer its own bills and answers 404 for another buyer or an unknown one', async () => {
    const mine = await createBuyerWithLogin(t);
    const other = await createBuyerWithLogin(t);
    expect((await get(`/api/bill/buyer/${mine.buyer._id}`, mine.cookie)).statusCode).toBe(200);
    await expectScoped404(t, mine.cookie, 'Buyer', [
      { method: 'GET', url: `/api/bill/buyer/${other.buyer._id}` },
      { method: 'GET', url: `/api/bill/buyer/${other.buyer._id}/current` },
    ]);
    expect((await get('/api/bill/buyer/buy_missing')).statusCode).toBe(404);
  });

  it('answers a source 403 and a guest 401', async () => {
    const buyer = await createBuyer(t);
    const source = await createSourceWithLogin(t);
    expect((await get(`/api/bill/buyer/${buyer._id}`, source.cookie)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/api/bill/buyer/${buyer._id}` })).statusCode).toBe(401);
  });
});

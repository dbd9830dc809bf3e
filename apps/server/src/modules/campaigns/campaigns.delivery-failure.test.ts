import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createBuyer, createBuyerWithLogin, createCampaign } from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';
import { webhooks } from '../../db/schema';
import { newId } from '../../lib/ids';

// DESIGN.md §6: the last failure of a buyer's custom delivery is shown in red on its campaigns.
// The deliveries write last_failure/last_failure_at; here they are set directly.

const { t, admin } = useAdminTestApp();

const get = (url: string, as = admin.cookie) => t.request({ method: 'GET', url, as });
const minutesAgo = (minutes: number) => new Date(t.clock.now().getTime() - minutes * 60_000);

/** A custom delivery of the buyer, with its last failure (or none). */
async function createDelivery(
  buyerId: string,
  o: { status?: 'live' | 'draft' | 'pause'; failure?: string; at?: Date; name?: string } = {},
) {
  const id = newId('whk');
  const now = t.clock.now();
  await t.database.db.insert(webhooks).values({
    id,
    buyerId,
    name: o.name ?? `Delivery ${id.slice(-5)}`,
    url: 'https://crm.example.com/leads',
    status: o.status ?? 'live',
    lastFailure: o.failure ?? null,
    lastFailureAt: o.failure ? (o.at ?? now) : null,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

/** The delivery_failure of the campaign as the list, the detail and the buyer detail answer it. */
async function failureEverywhere(buyerId: string, campaignId: string, as = admin.cookie) {
  const list = await get(`/api/match?buyer=${buyerId}`, as);
  expect(list.statusCode).toBe(200);
  const row = list.json().data.find((c: { _id: string }) => c._id === campaignId);
  const detail = await get(`/api/match/${campaignId}`, as);
  expect(detail.statusCode).toBe(200);
  const buyer = await get(`/api/buyer/${buyerId}?include=matches`, as);
  expect(buyer.statusCode).toBe(200);
  const match = buyer.json().matches.find((c: { _id: string }) => c._id === campaignId);
  return { list: row.delivery_failure, detail: detail.json().delivery_failure, buyer: match.delivery_failure };
}

describe('delivery_failure on campaigns', () => {
  it('is null when the buyer has no delivery, or its live deliveries have not failed', async () => {
    const buyer = await createBuyer(t);
    const campaign = await createCampaign(t, buyer._id);
    expect(await failureEverywhere(buyer._id, campaign)).toEqual({ list: null, detail: null, buyer: null });

    await createDelivery(buyer._id);
    expect(await failureEverywhere(buyer._id, campaign)).toEqual({ list: null, detail: null, buyer: null });
  });

  it('names the most recent failure among the live deliveries, on every live campaign of the buyer', async () => {
    const buyer = await createBuyer(t);
    const live = await createCampaign(t, buyer._id);
    const live2 = await createCampaign(t, buyer._id);
    const draft = await createCampaign(t, buyer._id, { status: 'draft' });
    const paused = await createCampaign(t, buyer._id, { status: 'pause' });
    await createDelivery(buyer._id, { failure: 'timeout after 3000 ms', at: minutesAgo(30) });
    const at = minutesAgo(5);
    const recent = await createDelivery(buyer._id, { name: 'Acme CRM', failure: 'HTTP 500: boom', at });
    await createDelivery(buyer._id, { failure: 'Not Accepted', at: minutesAgo(10) });

    const expected = {
      delivery_id: recent,
      delivery: 'Acme CRM',
      message: 'HTTP 500: boom',
      at: at.toISOString(),
      ts: Math.floor(at.getTime() / 1000),
    };
    for (const campaign of [live, live2])
      expect(await failureEverywhere(buyer._id, campaign)).toEqual({
        list: expected,
        detail: expected,
        buyer: expected,
      });
    // Issue 27: a draft or paused campaign sends nothing to the delivery: no "Delivery failing" on it.
    for (const campaign of [draft, paused])
      expect(await failureEverywhere(buyer._id, campaign)).toEqual({ list: null, detail: null, buyer: null });
  });

  it("leaves out a draft or paused delivery's failure, however recent", async () => {
    const buyer = await createBuyer(t);
    const campaign = await createCampaign(t, buyer._id);
    await createDelivery(buyer._id, { status: 'draft', failure: 'HTTP 404: Not Found', at: minutesAgo(1) });
    await createDelivery(buyer._id, { status: 'pause', failure: 'Not Accepted', at: minutesAgo(2) });
    expect(await failureEverywhere(buyer._id, campaign)).toEqual({ list: null, detail: null, buyer: null });

    const older = await createDelivery(buyer._id, { failure: 'timeout after 3000 ms', at: minutesAgo(60) });
    const shown = await failureEverywhere(buyer._id, campaign);
    expect(shown.list).toMatchObject({ delivery_id: older, message: 'timeout after 3000 ms' });
    expect(shown.detail).toEqual(shown.list);
    expect(shown.buyer).toEqual(shown.list);
  });

  it('is gone once a success clears the failure', async () => {
    const buyer = await createBuyer(t);
    const campaign = await createCampaign(t, buyer._id);
    const delivery = await createDelivery(buyer._id, { failure: 'Not Accepted' });
    expect((await failureEverywhere(buyer._id, campaign)).detail).toMatchObject({ delivery_id: delivery });
    await t.database.db
      .update(webhooks)
      .set({ lastFailure: null, lastFailureAt: null })
      .where(eq(webhooks.id, delivery));
    expect(await failureEverywhere(buyer._id, campaign)).toEqual({ list: null, detail: null, buyer: null });
  });

  it("never shows another buyer's failure: each campaign of a list page gets its own buyer's", async () => {
    const failing = await createBuyerWithLogin(t);
    const healthy = await createBuyerWithLogin(t);
    const failingCampaign = await createCampaign(t, failing.buyer._id);
    const healthyCampaign = await createCampaign(t, healthy.buyer._id);
    const delivery = await createDelivery(failing.buyer._id, { failure: 'HTTP 503: down', at: minutesAgo(3) });
    await createDelivery(healthy.buyer._id);

    // The admin's whole list, one page: each row carries its own buyer's failure.
    const all = await get('/api/match?pageSize=100&sort=ts&order=desc');
    const byId = new Map(
      all.json().data.map((c: { _id: string; delivery_failure: unknown }) => [c._id, c.delivery_failure]),
    );
    expect(byId.get(failingCampaign)).toMatchObject({ delivery_id: delivery, message: 'HTTP 503: down' });
    expect(byId.get(healthyCampaign)).toBeNull();

    // The healthy buyer sees none on its own campaigns, and cannot reach the failing buyer's.
    expect(await failureEverywhere(healthy.buyer._id, healthyCampaign, healthy.cookie)).toEqual({
      list: null,
      detail: null,
      buyer: null,
    });
    const mine = await get('/api/match', healthy.cookie);
    expect(mine.json().data.map((c: { _id: string }) => c._id)).toEqual([healthyCampaign]);
    expect((await get(`/api/match/${failingCampaign}`, healthy.cookie)).statusCode).toBe(404);
    expect((await get(`/api/buyer/${failing.buyer._id}?include=matches`, healthy.cookie)).statusCode).toBe(404);

    // The failing buyer sees its own.
    const own = await failureEverywhere(failing.buyer._id, failingCampaign, failing.cookie);
    expect(own.detail).toMatchObject({ delivery_id: delivery, message: 'HTTP 503: down' });
    expect(own.list).toEqual(own.detail);
    expect(own.buyer).toEqual(own.detail);
  });
});

import { describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, insertSale } from '../../../test/factories';
import { useAdminTestApp } from '../../../test/harness';

/**
 * Issue 30 area 6: the admin's Returns list (GET /api/lead/returns) counts the whole filtered list on
 * every page, never its own rows or the unfiltered matches. This file's database holds only the sales
 * made here, so each count is exact. Pages of 15 (PAGE_SIZE.returns, portals §9).
 */

const { t, admin } = useAdminTestApp();

const list = async (query: string) => {
  const res = await t.request({ method: 'GET', url: `/api/lead/returns?${query}`, as: admin.cookie });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: { _id: string; status: string }[]; total: number };
};

describe('the Returns list counts (GET /api/lead/returns)', () => {
  it('says the total of its status filter on every page, with pages of 15 by default', async () => {
    const buyer = await createBuyer(t);
    const campaignId = await createCampaign(t, buyer._id, { status: 'draft' });
    const { sourceId } = await createSourceWithKey(t);
    const sell = (i: number, returnStatus?: 'requested' | 'approved' | 'denied') =>
      insertSale(t, buyer._id, campaignId, sourceId, new Date(Date.UTC(2026, 4, 1, 12, i)).toISOString(), 20, {
        ...(returnStatus ? { returnStatus } : {}),
      });
    const counts = { requested: 17, approved: 3, denied: 2 } as const;
    let i = 0;
    for (const [status, n] of Object.entries(counts) as [keyof typeof counts, number][])
      for (let k = 0; k < n; k++) await sell(i++, status);
    // Sales nobody asked to return are not on the list.
    for (let k = 0; k < 4; k++) await sell(i++);

    const all = await list('status=all');
    expect([all.total, all.data.length]).toEqual([22, 15]);
    const allSecond = await list('status=all&page=2');
    expect([allSecond.total, allSecond.data.length]).toEqual([22, 7]);
    expect(new Set([...all.data, ...allSecond.data].map((r) => r._id)).size).toBe(22);

    const requested = await list('status=requested');
    expect([requested.total, requested.data.length]).toEqual([17, 15]);
    const requestedSecond = await list('status=requested&page=2');
    expect([requestedSecond.total, requestedSecond.data.map((r) => r.status)]).toEqual([
      17,
      ['requested', 'requested'],
    ]);

    for (const status of ['approved', 'denied'] as const) {
      const page = await list(`status=${status}`);
      expect([page.total, page.data.length, new Set(page.data.map((r) => r.status))]).toEqual([
        counts[status],
        counts[status],
        new Set([status]),
      ]);
    }
    // A page past the end is empty and still counts the list.
    expect(await list('status=approved&pageSize=2&page=3')).toEqual({ data: [], total: 3 });
    expect((await list('pageSize=5&page=5')).total).toBe(22);
  });
});

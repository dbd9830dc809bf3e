import { describe, expect, it } from 'vitest';
import { createSourceWithKey, uniquePhone, ZIP_OF_STATE } from '../../../../test/factories';
import { useFixture } from '../../../../test/fixtures';
import { useRoleCookies, useTestApp } from '../../../../test/harness';
import { createPingPostBuyer, jsonAnswer as json, useRoutedAnsweringServer } from '../../../../test/receivers';

/**
 * The admin's Pings screen (GET /api/pingbids, issue 32): what Ping/Post buyers' systems answered to
 * sources' pings that never became leads, with their bids and reasons. Real local buyers answer the pings.
 */

const { server: buyersServer, routes } = useRoutedAnsweringServer('{"ok":false,"reason":"not configured"}');
const t = useTestApp({ PUBLIC_API_RATE_LIMIT: 0, ALLOW_PRIVATE_DELIVERY_TARGETS: true });
const roles = useRoleCookies(t);
const source = useFixture(() => createSourceWithKey(t, { maxCost: 10 }));

/** A buyer whose live Ping/Post delivery pings `{path}/ping`, reasons read from `reason`, with a campaign in `state`. */
function pingPostBuyer(state: string, path: string, reasonField?: string) {
  return createPingPostBuyer(t, roles.admin, state, {
    name: `Bids ${path}`,
    base: `${buyersServer.base}${path}`,
    map: { phone: 'Phone' },
    pingMap: { service: 'Service', zip: 'Zip' },
    ...(reasonField ? { fields: { reason_field: reasonField } } : {}),
  });
}

async function ping(state: string) {
  const res = await t.sourceApi('/api/ping', source.apiKey, { service: 'roofing', zip: ZIP_OF_STATE[state] });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ok: boolean; ping_id: string };
}

const list = async (query = '', as = roles.admin) => {
  await t.deps.engine.flush();
  return t.request({ method: 'GET', url: `/api/pingbids${query}`, as });
};

describe('GET /api/pingbids', () => {
  it("lists each buyer's bid and reason on pings never posted, newest first; a ping that became a lead is left out", async () => {
    const bidder = await pingPostBuyer('WA', '/wa-bids');
    const refuser = await pingPostBuyer('WA', '/wa-refuses', 'reason');
    routes.set('/wa-bids/ping', json({ ok: true, bid: '42.50' }));
    routes.set('/wa-refuses/ping', json({ ok: false, reason: 'no coverage' }));

    const unposted = await ping('WA');
    expect(unposted.ok).toBe(true);
    const sold = await ping('WA');
    routes.set('/wa-bids/post', json({ ok: true }));
    const posted = await t.sourceApi('/api/post', source.apiKey, {
      ping_id: sold.ping_id,
      first_name: 'Pat',
      last_name: 'Lee',
      phone: uniquePhone(),
    });
    expect(posted.json()).toMatchObject({ ok: true, status: 'sold' });

    const res = await list(`?buyer=${bidder.buyer._id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      total: 1,
      data: [
        expect.objectContaining({
          // The exchange's own id of the ping (the source's ping_id is a sealed token carrying it).
          ping_id: expect.stringMatching(/^png_/),
          buyer: { _id: bidder.buyer._id, name: bidder.buyer.name },
          delivery: { _id: bidder.delivery._id, name: bidder.delivery.name },
          source: expect.objectContaining({ _id: source.sourceId }),
          service: 'roofing',
          zip: ZIP_OF_STATE.WA,
          outcome: 'bid',
          bid: 42.5,
          test: false,
        }),
      ],
    });
    const refused = (await list(`?buyer=${refuser.buyer._id}`)).json();
    // Both pings asked the refusing buyer; the sold one became a lead and shows on the lead's detail instead.
    expect(refused.data).toEqual([
      expect.objectContaining({
        ping_id: res.json().data[0].ping_id,
        outcome: 'no_bid',
        // The delivery's reason field reads the buyer's own words from the ping's answer too.
        reason: 'Not Accepted: no coverage',
        status_code: 200,
      }),
    ]);
    expect(refused.data[0].response).toContain('no coverage');
    expect(refused.data[0].bid).toBeUndefined();
    const noBids = (await list(`?outcome=no_bid&buyer=${bidder.buyer._id}`)).json();
    expect(noBids).toEqual({ data: [], total: 0 });
  });

  it('pages newest first, with the total', async () => {
    const { buyer } = await pingPostBuyer('GA', '/ga');
    routes.set('/ga/ping', json({ ok: true, bid: 30 }));
    for (let i = 0; i < 3; i += 1) await ping('GA');
    const first = (await list(`?buyer=${buyer._id}&pageSize=2`)).json();
    const second = (await list(`?buyer=${buyer._id}&pageSize=2&page=2`)).json();
    expect(first.total).toBe(3);
    expect(second.total).toBe(3);
    const seen = [...first.data, ...second.data].map((r: { ping_id: string }) => r.ping_id);
    expect(new Set(seen).size).toBe(3);
    expect(first.data).toHaveLength(2);
    const times = [...first.data, ...second.data].map((r: { ts: number }) => r.ts);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('answers 403 to a buyer and a source, 401 without a session; a bad filter is a 400 naming it', async () => {
    for (const role of ['buyer', 'source'] as const) {
      const res = await list('', roles[role]);
      expect(res.statusCode, role).toBe(403);
      expect(res.json().ok).toBe(false);
    }
    const anonymous = await t.request({ method: 'GET', url: '/api/pingbids' });
    expect(anonymous.statusCode).toBe(401);
    const bad = await list('?outcome=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('Outcome must be bid, no_bid, timeout or error');
    expect((await list('?pageSize=0')).statusCode).toBe(400);
  });
});

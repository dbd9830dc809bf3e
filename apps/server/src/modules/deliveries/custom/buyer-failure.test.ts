import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, uniquePhone, ZIP_OF_STATE } from '../../../../test/factories';
import {
  createDelivery,
  createPingPostBuyer,
  deliveryAttemptsOf,
  eventually,
  fieldRows,
  jsonAnswer as json,
  notifyJobsOf,
  notifyJobsSettled,
  scriptedNetwork,
  useDeliveryTestApp,
  useRoutedAnsweringServer,
} from '../../../../test/receivers';
import { leadMatches, leads, webhooks } from '../../../db/schema';

/**
 * One buyer's settings never fail another's sale (issue 28, DESIGN.md §12). A delivery saved before
 * headers were checked, with a header Node's HTTP client will not send (it throws ERR_INVALID_CHAR), or
 * a stored row that makes rendering throw, is that buyer's failure only: Not Accepted at the sale, no
 * bid at the ping, a failed attempt in the retry job. The rows are written straight into the database,
 * past the rules that now refuse them at save. Real local buyers' systems, the private-address guard on.
 */

// What the buyers' server answers on each path (`routes`); a path without a route answers `{"ok":true}`.
const { server: buyers, routes, hitsOn } = useRoutedAnsweringServer();
const net = scriptedNetwork({ 'crm.buyer.test': ['93.184.216.42'] });
const { t, admin, source } = useDeliveryTestApp(net.network, () => ({
  // A retry waits until the test lets it go (it breaks the delivery first).
  DELIVERY_RETRY_DELAYS_MS: [60_000, 50],
}));

const buyerUrl = (path: string) => `http://crm.buyer.test:${buyers.port}${path}`;

const EURO = "Header X-Token's value contains a character that cannot be sent (€)";

/** Writes a delivery's header rows (and its ping's) straight into its row, as one saved before they were checked. */
async function storeBadHeaders(id: string, headers: unknown[], on: 'post' | 'ping' = 'post') {
  if (on === 'post')
    await t.database.db
      .update(webhooks)
      .set({ headers: headers as never })
      .where(eq(webhooks.id, id));
  else {
    const [row] = await t.database.db.select().from(webhooks).where(eq(webhooks.id, id));
    await t.database.db
      .update(webhooks)
      .set({ ping: { ...(row?.ping as object), headers } as never })
      .where(eq(webhooks.id, id));
  }
  // The engine keeps the Ping/Post deliveries in memory: it reads them again, as its next refresh would.
  await t.deps.engine.reload();
}

async function buyerWithCampaign(state: string, price: number) {
  const buyer = await createBuyer(t);
  return { buyer, campaignId: await createCampaign(t, buyer._id, { price, states: [state] }) };
}

/** A live Direct delivery of the buyer, accepted when the answer's `ok` is true. */
const liveDelivery = (buyerId: string, path: string) =>
  createDelivery(t, admin.cookie, {
    buyer: buyerId,
    name: `CRM ${path}`,
    url: buyerUrl(path),
    accept: fieldRows({ ok: 'true' }),
    map: fieldRows({ phone: 'Phone' }),
    headers: [{ header: 'X-Token', value: 'fine' }],
    status: 'live',
  });

/** A live Ping/Post delivery pinging `{path}/ping` and posting to `{path}/post`, with a $5 campaign in `state`. */
function pingPostBuyer(state: string, path: string) {
  return createPingPostBuyer(t, admin.cookie, state, {
    name: `Bids ${path}`,
    base: buyerUrl(path),
    map: { phone: 'Phone', buyer_ping_id: 'PingId' },
    pingMap: { service: 'Service', zip: 'Zip' },
    // The longest a ping may wait: on a loaded machine the bidder's answer must not be a timeout.
    ping: { timeout_ms: 3000 },
  });
}

const contact = () => ({ first_name: 'Pat', last_name: 'Lee', phone: uniquePhone(), tcpa_consent: true });

/** Posts a lead in `state` through POST /api/lead: never a 500. */
async function postLead(state: string) {
  const res = await t.sourceApi('/api/lead', source.apiKey, {
    service: 'roofing',
    zip: ZIP_OF_STATE[state],
    ...contact(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ok: boolean; lead_id: string; status?: string; reason?: string };
}

const matchesOf = (leadId: string) => t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, leadId));
const leadRow = async (leadId: string) => (await t.database.db.select().from(leads).where(eq(leads.id, leadId)))[0];

describe("a sale's inline delivery that cannot be sent", () => {
  it.each([
    ['a header value Node refuses (€)', 'CA', [{ header: 'X-Token', value: '10 €' }], EURO],
    ['a control character', 'NY', [{ header: 'X-Token', value: 'a\u0001' }], 'cannot be sent (U+0001)'],
    ['DEL', 'FL', [{ header: 'X-Token', value: 'a\u007f' }], 'cannot be sent (U+007F)'],
    ['a row that makes rendering throw', 'WA', [{ header: null, value: 'x' }], 'The delivery could not be sent'],
  ])('%s: that buyer is Not Accepted, the next buyer buys, the lead is stored', async (_, state, headers, error) => {
    const broken = await buyerWithCampaign(state, 60);
    const next = await buyerWithCampaign(state, 40);
    const path = `/broken-${Math.random().toString(36).slice(2, 8)}`;
    const delivery = await liveDelivery(broken.buyer._id, path);
    await storeBadHeaders(delivery._id, headers);

    const answer = await postLead(state);
    expect(answer).toMatchObject({ ok: true, status: 'sold' });
    expect(hitsOn(path)).toHaveLength(0);
    const matches = await matchesOf(answer.lead_id);
    expect(matches.map((m) => [m.campaignId, m.rejected, m.priceCents]).sort()).toEqual(
      [
        [broken.campaignId, true, 6000],
        [next.campaignId, false, 4000],
      ].sort(),
    );
    expect(await leadRow(answer.lead_id)).toMatchObject({ sold: true, priceCents: 4000 });

    // Logged on the lead: the failed attempt, the last of its chain (a retry would fail alike).
    const rejected = matches.find((m) => m.rejected);
    const attempts = await deliveryAttemptsOf(t.database.db, rejected?.id as string);
    expect(attempts).toEqual([
      expect.objectContaining({
        channel: 'custom',
        target: delivery._id,
        accepted: false,
        last: true,
        statusCode: null,
      }),
    ]);
    expect(attempts[0]?.error).toContain(error);
    const [row] = await t.database.db.select().from(webhooks).where(eq(webhooks.id, delivery._id));
    expect(row?.lastFailure).toContain(error);
  });

  it('a retry job meeting a header Node refuses records the failed attempt and ends its chain, without crashing', async () => {
    const state = 'OH';
    const { buyer } = await buyerWithCampaign(state, 40);
    const path = '/retried';
    const delivery = await liveDelivery(buyer._id, path);
    // The sale's attempt gets a 503: the sale stands and a retry job is queued (a minute away).
    routes.set(path, json({ error: 'busy' }, 503));

    const answer = await postLead(state);
    expect(answer).toMatchObject({ ok: true, status: 'sold' });
    const [match] = await matchesOf(answer.lead_id);
    const id = match?.id as string;
    await eventually(async () => (await notifyJobsOf(t.database.db, id)).length > 0, 10_000, 'the retry job');
    const [job] = await notifyJobsOf(t.database.db, id);
    // Broken in its row before the retry runs; then the retry is let go at once.
    await storeBadHeaders(delivery._id, [{ header: 'X-Token', value: '10 €' }]);
    await t.database.db.execute(sql`update pgboss.job set start_after = now() where id = ${job?.id}::uuid`);

    await eventually(async () => (await deliveryAttemptsOf(t.database.db, id)).length === 2, 10_000, 'the retry');
    await eventually(() => notifyJobsSettled(t.database.db, id), 10_000, 'the retry job to finish');
    const attempts = await deliveryAttemptsOf(t.database.db, id);
    expect(attempts.map((a) => [a.attempt, a.accepted, a.statusCode, a.last])).toEqual([
      [1, false, 503, false],
      [2, false, null, true],
    ]);
    expect(attempts[1]?.error).toBe(EURO);
    // The job completed (it did not throw): no further try is queued, and sales go on.
    expect((await notifyJobsOf(t.database.db, id)).map((j) => [j.channel, j.step, j.state])).toEqual([
      ['custom', 1, 'completed'],
    ]);
    expect(hitsOn(path)).toHaveLength(1);
  });
});

describe("a Ping/Post delivery's ping that cannot be sent", () => {
  it('is no bid for that buyer alone: the ping is answered, the other buyers bid, the post sells to the best of them', async () => {
    const state = 'TX';
    const fixed = await buyerWithCampaign(state, 30);
    const euro = await pingPostBuyer(state, '/euro');
    const throwing = await pingPostBuyer(state, '/throwing');
    const bidder = await pingPostBuyer(state, '/bidder');
    for (const path of ['/euro', '/throwing']) routes.set(`${path}/ping`, json({ ok: true, bid: 90, id: 'NO' }));
    routes.set('/bidder/ping', json({ ok: true, bid: 45, id: 'BID-45' }));
    await storeBadHeaders(euro.delivery._id, [{ header: 'X-Token', value: '10 €' }], 'ping');
    await storeBadHeaders(throwing.delivery._id, [{ header: null, value: 'x' }], 'ping');

    const quote = await t.sourceApi('/api/ping', source.apiKey, { service: 'roofing', zip: ZIP_OF_STATE[state] });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json()).toMatchObject({ ok: true, price: 10 });
    const pingId = quote.json().ping_id as string;
    expect(hitsOn('/euro/ping')).toHaveLength(0);
    expect(hitsOn('/throwing/ping')).toHaveLength(0);
    expect(hitsOn('/bidder/ping')).toHaveLength(1);

    const sold = await t.sourceApi('/api/post', source.apiKey, { ping_id: pingId, ...contact() });
    expect(sold.statusCode, sold.body).toBe(200);
    expect(sold.json()).toMatchObject({ ok: true, status: 'sold' });
    const leadId = sold.json().lead_id as string;
    expect((await matchesOf(leadId)).map((m) => [m.campaignId, m.priceCents])).toEqual([[bidder.campaignId, 4500]]);
    expect(await leadRow(leadId)).toMatchObject({ sold: true });
    expect((await matchesOf(leadId)).some((m) => m.campaignId === fixed.campaignId)).toBe(false);

    // Each failed ping is logged on the lead as an error of its own delivery.
    await t.deps.engine.flush();
    const detail = await t.request({
      method: 'GET',
      url: `/api/lead/${leadId}?includeMatchLog=true`,
      as: admin.cookie,
    });
    expect(detail.statusCode, detail.body).toBe(200);
    const pings = detail.json().pings as { delivery: { _id: string }; outcome: string; error?: string; bid?: number }[];
    const byDelivery = new Map(pings.map((p) => [p.delivery._id, p]));
    expect(byDelivery.get(euro.delivery._id)).toMatchObject({ outcome: 'error', error: EURO });
    expect(byDelivery.get(throwing.delivery._id)).toMatchObject({
      outcome: 'error',
      error: expect.stringContaining('The delivery could not be sent'),
    });
    expect(byDelivery.get(bidder.delivery._id)).toMatchObject({ outcome: 'bid', bid: 45 });
  });
});

import { PING_TIMEOUT_MS } from '@leadex/domain';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, uniquePhone, ZIP_OF_STATE } from '../../test/factories';
import {
  createDelivery,
  createPingPostBuyer,
  eventually,
  fieldRows,
  jsonAnswer as json,
  scriptedNetwork,
  useDeliveryTestApp,
  useRoutedAnsweringServer,
} from '../../test/receivers';
import { leadMatches, leads, pingCalls } from '../db/schema';
import { deriveSigningSecret, verifyWebhook } from '../lib/webhook-signature';
import { pingSchema } from '../modules/source-api/source-api.schema';

/**
 * Ping/Post custom deliveries (DESIGN.md §6) against real local HTTP buyers: a buyer's system bids
 * at the source's ping, the best bid wins, the winner's post runs inline and a refusal falls through
 * to the next bid. The private-address guard stays on: the buyers' systems have public names that
 * the scripted network carries to the local server.
 */

// What the buyers' server answers on each path (`routes`); a path without a route answers `{"ok":true}`.
const { server: buyers, routes, hitsOn } = useRoutedAnsweringServer();
const net = scriptedNetwork({ 'bids.buyer.test': ['93.184.216.41'], 'bids.internal.test': ['10.20.30.41'] });
// Jobs run: a post without an answer is retried. Its first retry waits a second, long after the
// test has written the ping's logged calls (a retry reads the buyer's bid id from them).
const { t, admin, source } = useDeliveryTestApp(net.network, () => ({ DELIVERY_RETRY_DELAYS_MS: [1000, 50] }));

const buyerUrl = (path: string, host = 'bids.buyer.test') => `http://${host}:${buyers.port}${path}`;

/**
 * A buyer whose live Ping/Post delivery pings `{path}/ping` and posts to `{path}/post`, with a campaign in `state`.
 * Its ping waits the longest a buyer may ask (3 s) unless the test sets it: the local buyer answers at once,
 * and a loaded machine must not turn its bid into a timeout (a test of timeouts sets its own).
 */
function pingPostBuyer(state: string, path: string, ping: Record<string, unknown> = {}) {
  return createPingPostBuyer(t, admin.cookie, state, {
    name: `Bids ${path}`,
    base: buyerUrl(path),
    map: { phone: 'Phone', first_name: 'FirstName', buyer_ping_id: 'PingId', price: 'Price' },
    pingMap: { service: 'Service', zip: 'Zip', state: 'State' },
    ping: { timeout_ms: PING_TIMEOUT_MS.max, ...ping },
  });
}

/** A buyer with a fixed-price campaign in `state` and no delivery. */
async function fixedBuyer(state: string, price: number) {
  const buyer = await createBuyer(t);
  return { buyer, campaignId: await createCampaign(t, buyer._id, { price, states: [state] }) };
}

const contact = () => ({ first_name: 'Pat', last_name: 'Lee', phone: uniquePhone(), tcpa_consent: true });

async function ping(state: string) {
  const res = await t.sourceApi('/api/ping', source.apiKey, {
    service: 'roofing',
    zip: ZIP_OF_STATE[state],
    sub_id: 's-1',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ok: boolean; ping_id: string; price: number; reason?: string };
}

async function post(pingId: string, details = contact()) {
  const res = await t.sourceApi('/api/post', source.apiKey, { ping_id: pingId, ...details });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ok: boolean; lead_id: string; price: number; status?: string; reason?: string };
}

async function leadDetail(leadId: string) {
  await t.deps.engine.flush();
  const res = await t.request({
    method: 'GET',
    url: `/api/lead/${leadId}?includeMatchLog=true&includeNotifyLogs=true`,
    as: admin.cookie,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const matchesOf = (leadId: string) => t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, leadId));
const leadRow = async (leadId: string) => (await t.database.db.select().from(leads).where(eq(leads.id, leadId)))[0];

describe('a Ping/Post buyer bids at the ping', () => {
  it('a buyer bidding $40 beats a fixed $30 campaign: the lead sells at $40 and the source is paid its payout', async () => {
    const fixed = await fixedBuyer('TX', 30);
    const bidder = await pingPostBuyer('TX', '/forty');
    routes.set('/forty/ping', json({ ok: true, bid: '40.00', id: 'BID-40' }));
    routes.set('/forty/post', json({ ok: true }));

    const quote = await ping('TX');
    expect(quote).toMatchObject({ ok: true, price: 10 });
    // The ping sends the mapped non-personal fields, signed as the exchange's webhooks are.
    const [sent] = hitsOn('/forty/ping');
    expect(JSON.parse(sent?.body ?? '{}')).toEqual({ Service: 'roofing', Zip: '75201', State: 'TX' });
    const secret = deriveSigningSecret(t.deps.config.LEADEX_SECRET, bidder.buyer._id);
    expect(() => verifyWebhook(secret, sent?.body ?? '', sent?.headers as Record<string, string>)).not.toThrow();

    // Issue 29 item 4: the ping_id carries the round sealed; a source decoding it reads no buyer, bid or delivery.
    for (const reading of [quote.ping_id, ...quote.ping_id.split('.')].map((p) =>
      Buffer.from(p, 'base64url').toString('latin1'),
    ))
      for (const secret of [bidder.buyer._id, bidder.delivery._id, 'BID-40', '4000', source.sourceId])
        expect(reading).not.toContain(secret);

    const sold = await post(quote.ping_id);
    expect(sold).toMatchObject({ ok: true, status: 'sold', price: 10 });
    // The post sells at the bid without pinging again, and echoes the buyer's id of its bid.
    expect(hitsOn('/forty/ping')).toHaveLength(1);
    const [posted] = hitsOn('/forty/post');
    expect(JSON.parse(posted?.body ?? '{}')).toMatchObject({ FirstName: 'Pat', PingId: 'BID-40', Price: 40 });
    expect((await matchesOf(sold.lead_id)).map((m) => [m.campaignId, m.priceCents, m.rejected])).toEqual([
      [bidder.campaignId, 4000, false],
    ]);
    expect(await leadRow(sold.lead_id)).toMatchObject({ priceCents: 4000, costCents: 1000, sold: true });

    const detail = await leadDetail(sold.lead_id);
    expect(detail.pings).toEqual([
      expect.objectContaining({
        buyer: { _id: bidder.buyer._id, name: bidder.buyer.name },
        delivery: { _id: bidder.delivery._id, name: 'Bids /forty' },
        outcome: 'bid',
        bid: 40,
        buyer_ping_id: 'BID-40',
        status_code: 200,
      }),
    ]);
    expect(detail.pings[0].request).toContain('"Zip":"75201"');
    expect(detail.match[0].custom).toEqual([
      expect.objectContaining({ target: bidder.delivery._id, accept: true, status_code: 200 }),
    ]);
    expect(detail.explanation).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ campaign: bidder.campaignId, price: 40, won: true, bid_outcome: 'bid' }),
        expect.objectContaining({ campaign: fixed.campaignId, price: 30, won: false }),
      ]),
    );
  });

  it('a buyer answering after its timeout is ignored: the ping answers in time and sells to the next bid', async () => {
    const fast = await pingPostBuyer('CA', '/fast');
    // A second: time enough for its ping to arrive on a busy machine (PGlite shares the test's event loop).
    const slow = await pingPostBuyer('CA', '/slow', { timeout_ms: 1000 });
    routes.set('/fast/ping', json({ ok: true, bid: 35, id: 'F-1' }));
    // The slow buyer holds its (better) bid until the test lets it go, after the ping has answered.
    let release: (() => void) | undefined;
    const slowClosed = { value: false };
    routes.set('/slow/ping', (res) => {
      res.on('close', () => {
        slowClosed.value = true;
      });
      release = () => json({ ok: true, bid: 90, id: 'S-1' })(res);
    });

    const quote = await ping('CA');
    expect(quote).toMatchObject({ ok: true, price: 10 });
    // The slow buyer had the ping and had not answered when the source got its quote.
    expect(hitsOn('/slow/ping')).toHaveLength(1);
    expect(release).toBeDefined();
    // The exchange hung up on it at its timeout: its answer can no longer arrive.
    await eventually(() => slowClosed.value, 5000, 'the exchange to end the slow ping');
    release?.();

    const sold = await post(quote.ping_id);
    expect(sold).toMatchObject({ ok: true, status: 'sold' });
    expect((await matchesOf(sold.lead_id)).map((m) => [m.campaignId, m.priceCents])).toEqual([[fast.campaignId, 3500]]);
    expect(hitsOn('/slow/post')).toHaveLength(0);
    const detail = await leadDetail(sold.lead_id);
    expect(detail.pings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ buyer: expect.objectContaining({ _id: fast.buyer._id }), outcome: 'bid', bid: 35 }),
        expect.objectContaining({ buyer: expect.objectContaining({ _id: slow.buyer._id }), outcome: 'timeout' }),
      ]),
    );
    expect(detail.explanation).toContainEqual(
      expect.objectContaining({ campaign: slow.campaignId, eligible: false, rule: 'bid', bid_outcome: 'timeout' }),
    );
  });

  it('a winner refusing the post gives the lead to the next bid that covers the payout, before the source is answered', async () => {
    const refuses = await pingPostBuyer('NY', '/refuses');
    const next = await pingPostBuyer('NY', '/next');
    const fixed = await fixedBuyer('NY', 30);
    routes.set('/refuses/ping', json({ ok: true, bid: 50, id: 'R-1' }));
    routes.set('/refuses/post', json({ ok: false, reason: 'duplicate in our CRM' }));
    routes.set('/next/ping', json({ ok: true, bid: 45, id: 'N-1' }));

    const quote = await ping('NY');
    const sold = await post(quote.ping_id);
    expect(sold).toMatchObject({ ok: true, status: 'sold', price: 10 });
    expect(hitsOn('/refuses/post')).toHaveLength(1);
    expect(JSON.parse(hitsOn('/next/post')[0]?.body ?? '{}')).toMatchObject({ PingId: 'N-1', Price: 45 });
    expect((await matchesOf(sold.lead_id)).map((m) => [m.campaignId, m.priceCents, m.rejected]).sort()).toEqual(
      [
        [refuses.campaignId, 5000, true],
        [next.campaignId, 4500, false],
      ].sort(),
    );
    expect((await leadRow(sold.lead_id))?.priceCents).toBe(4500);
    const detail = await leadDetail(sold.lead_id);
    expect(detail.explanation).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ campaign: refuses.campaignId, rule: 'delivery', bid_outcome: 'refused_post' }),
        expect.objectContaining({ campaign: next.campaignId, won: true, price: 45, bid_outcome: 'bid' }),
        expect.objectContaining({ campaign: fixed.campaignId, won: false, price: 30 }),
      ]),
    );
    // Both posts are logged: the refused one on its rejected match.
    const refusedMatch = detail.match.find((m: { campaign: { _id: string } }) => m.campaign._id === refuses.campaignId);
    expect(refusedMatch.custom).toEqual([expect.objectContaining({ accept: false, status_code: 200 })]);
  });

  it('the same ping_id posted twice sells once, at the bid', async () => {
    const bidder = await pingPostBuyer('AZ', '/twice');
    routes.set('/twice/ping', json({ ok: true, bid: 41, id: 'T-1' }));
    const quote = await ping('AZ');
    const details = contact();
    const [first, second] = await Promise.all([post(quote.ping_id, details), post(quote.ping_id, details)]);
    expect(second).toEqual(first);
    expect(first).toMatchObject({ ok: true, status: 'sold' });
    expect(hitsOn('/twice/post')).toHaveLength(1);
    expect(hitsOn('/twice/ping')).toHaveLength(1);
    const sold = await t.database.db.select().from(leadMatches).where(eq(leadMatches.campaignId, bidder.campaignId));
    expect(sold.map((m) => m.priceCents)).toEqual([4100]);
  });

  it('a post without an answer keeps the sale at the bid and is retried as a job, echoing the bid id again', async () => {
    const bidder = await pingPostBuyer('OH', '/retried');
    routes.set('/retried/ping', json({ ok: true, bid: 33, id: 'RT-1' }));
    let posts = 0;
    routes.set('/retried/post', (res) => {
      posts += 1;
      json(posts === 1 ? { error: 'busy' } : { ok: true }, posts === 1 ? 503 : 200)(res);
    });
    const quote = await ping('OH');
    await t.deps.engine.flush();
    const sold = await post(quote.ping_id);
    expect(sold).toMatchObject({ ok: true, status: 'sold' });
    expect((await matchesOf(sold.lead_id)).map((m) => [m.campaignId, m.priceCents, m.rejected])).toEqual([
      [bidder.campaignId, 3300, false],
    ]);
    await eventually(() => hitsOn('/retried/post').length === 2, 15_000, 'the retried post');
    expect(hitsOn('/retried/post').map((h) => JSON.parse(h.body).PingId)).toEqual(['RT-1', 'RT-1']);
  });

  it('no bid, an error or a refused target is no bid: the fixed campaign buys, and each reason is logged', async () => {
    const fixed = await fixedBuyer('FL', 30);
    const noBid = await pingPostBuyer('FL', '/nobid');
    const failing = await pingPostBuyer('FL', '/fails');
    const priceless = await pingPostBuyer('FL', '/priceless');
    const internal = await pingPostBuyer('FL', '/internal', { url: buyerUrl('/internal/ping', 'bids.internal.test') });
    routes.set('/nobid/ping', json({ ok: false }));
    routes.set('/fails/ping', json({ error: 'down' }, 503));
    routes.set('/priceless/ping', json({ ok: true, bid: 0 }));

    const quote = await ping('FL');
    const sold = await post(quote.ping_id);
    expect((await matchesOf(sold.lead_id)).map((m) => [m.campaignId, m.priceCents])).toEqual([
      [fixed.campaignId, 3000],
    ]);
    expect(hitsOn('/internal/ping')).toHaveLength(0);
    const outcomes = new Map(
      ((await leadDetail(sold.lead_id)).pings as { delivery: { _id: string }; outcome: string; error?: string }[]).map(
        (p) => [p.delivery._id, [p.outcome, p.error]],
      ),
    );
    expect(outcomes.get(noBid.delivery._id)).toEqual(['no_bid', 'Not Accepted by the answer rules']);
    expect(outcomes.get(failing.delivery._id)).toEqual(['error', expect.stringMatching(/^HTTP 503/)]);
    expect(outcomes.get(priceless.delivery._id)).toEqual(['no_bid', 'a price of 0.00 is no bid']);
    expect(outcomes.get(internal.delivery._id)).toEqual(['error', expect.stringContaining('refused')]);
  });

  it('POST /api/lead pings and posts in one call: the bid wins and the pings are on the lead', async () => {
    await fixedBuyer('IL', 30);
    const bidder = await pingPostBuyer('IL', '/direct');
    routes.set('/direct/ping', json({ ok: true, bid: 44.5, id: 'D-1' }));
    const res = await t.sourceApi('/api/lead', source.apiKey, {
      service: 'roofing',
      zip: ZIP_OF_STATE.IL,
      ...contact(),
    });
    expect(res.json()).toMatchObject({ ok: true, status: 'sold', price: 10 });
    const leadId = res.json().lead_id as string;
    expect((await matchesOf(leadId)).map((m) => [m.campaignId, m.priceCents])).toEqual([[bidder.campaignId, 4450]]);
    // The ping of a direct lead sends no contact data either.
    expect(JSON.parse(hitsOn('/direct/ping')[0]?.body ?? '{}')).toEqual({
      Service: 'roofing',
      Zip: '60601',
      State: 'IL',
    });
    const detail = await leadDetail(leadId);
    expect(detail.pings).toEqual([expect.objectContaining({ outcome: 'bid', bid: 44.5, buyer_ping_id: 'D-1' })]);
    const [call] = await t.database.db.select().from(pingCalls).where(eq(pingCalls.leadId, leadId));
    expect(call).toMatchObject({ pingId: null, deliveryId: bidder.delivery._id });
  });

  it('a retried POST /api/lead (same Idempotency-Key) replays its answer without pinging the buyers again', async () => {
    // The bidder declines, so the fixed campaign buys: the bidder has not bought this phone, and only the
    // stored answer keeps a retry from asking its system again.
    const fixed = await fixedBuyer('NV', 30);
    await pingPostBuyer('NV', '/retry-key');
    routes.set('/retry-key/ping', json({ ok: false }));
    const details = contact();
    const send = () =>
      t.request({
        method: 'POST',
        url: '/api/lead',
        headers: { authorization: `Bearer ${source.apiKey}`, 'idempotency-key': 'retry-key-1' },
        payload: { service: 'roofing', zip: ZIP_OF_STATE.NV, ...details },
      });
    const first = await send();
    expect(first.json()).toMatchObject({ ok: true, status: 'sold' });
    expect(hitsOn('/retry-key/ping')).toHaveLength(1);
    const again = await send();
    expect(again.statusCode).toBe(first.statusCode);
    expect(again.json()).toEqual(first.json());
    expect(hitsOn('/retry-key/ping')).toHaveLength(1);
    expect((await matchesOf(first.json().lead_id)).map((m) => [m.campaignId, m.priceCents])).toEqual([
      [fixed.campaignId, 3000],
    ]);
  });

  it('a POST /api/lead reusing an Idempotency-Key for another lead is refused before any buyer is pinged (issue 28)', async () => {
    await fixedBuyer('CO', 30);
    await pingPostBuyer('CO', '/reused-key');
    routes.set('/reused-key/ping', json({ ok: false }));
    const send = (details: ReturnType<typeof contact>) =>
      t.request({
        method: 'POST',
        url: '/api/lead',
        headers: { authorization: `Bearer ${source.apiKey}`, 'idempotency-key': 'reused-key-1' },
        payload: { service: 'roofing', zip: ZIP_OF_STATE.CO, ...details },
      });
    expect((await send(contact())).json()).toMatchObject({ ok: true, status: 'sold' });
    expect(hitsOn('/reused-key/ping')).toHaveLength(1);
    const other = contact();
    const refused = await send(other);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ ok: false, reason: 'idempotency_key_reused' });
    expect(hitsOn('/reused-key/ping')).toHaveLength(1);
    expect(await t.database.db.select().from(leads).where(eq(leads.phone, other.phone))).toEqual([]);
  });

  it('a ping without Ping/Post buyers is answered at once, without a promise', async () => {
    await fixedBuyer('GA', 30);
    const answer = t.deps.services.sourceApi.ping(
      pingSchema.parse({ service: 'roofing', zip: ZIP_OF_STATE.GA }),
      source.apiKey,
    );
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer instanceof Promise ? null : answer.body.ok).toBe(true);
  });
});

/**
 * Issue 30 area 5: a buyer with two live Ping/Post deliveries. The rule (bidding.ts `roundOf`, sale.ts
 * `deliveriesOf`): both are pinged; the buyer's bid is the best of its deliveries' bids (a tie goes to
 * the first delivery made); the lead is posted only to the delivery whose ping made that bid, with its
 * bid id and price; the other delivery's post is never called. Each delivery's ping is logged.
 */
describe('a Ping/Post buyer with two live Ping/Post deliveries', () => {
  /** Zips of states no other test of this file buys in. */
  const ZIPS: Record<string, string> = { NC: '27601', VA: '23219', TN: '37201', UT: '84101' };

  async function twoDeliveries(state: string) {
    const first = await pingPostBuyer(state, `/two-${state}-a`);
    const second = await createDelivery(t, admin.cookie, {
      buyer: first.buyer._id,
      name: `Bids /two-${state}-b`,
      url: buyerUrl(`/two-${state}-b/post`),
      status: 'live',
      ping_id: 'ping_post',
      accept: fieldRows({ ok: 'true' }),
      map: fieldRows({ phone: 'Phone', buyer_ping_id: 'PingId', price: 'Price' }),
      ping: {
        url: buyerUrl(`/two-${state}-b/ping`),
        map: fieldRows({ service: 'Service', zip: 'Zip' }),
        accept: fieldRows({ ok: 'true' }),
        price_field: 'bid',
        ping_id_field: 'id',
      },
    });
    return { ...first, deliveries: [first.delivery, second] as const };
  }

  it.each([
    ['the second', 'NC', { ok: true, bid: 35, id: 'A-35' }, { ok: true, bid: 48, id: 'B-48' }, 1, 4800],
    ['the first', 'VA', { ok: true, bid: 48, id: 'A-48' }, { ok: true, bid: 35, id: 'B-35' }, 0, 4800],
    ['the first (a tie)', 'TN', { ok: true, bid: 40, id: 'A-40' }, { ok: true, bid: 40, id: 'B-40' }, 0, 4000],
    ['the second (the first fails)', 'UT', { error: 'down' }, { ok: true, bid: 31, id: 'B-31' }, 1, 3100],
  ])(
    'pings both; the best bid, from %s delivery, is the price and only its delivery is posted to',
    async (_, state, a, b, winner, cents) => {
      const fixed = await fixedBuyer(state, 30);
      const buyer = await twoDeliveries(state);
      const paths = ['a', 'b'].map((x) => `/two-${state}-${x}`);
      routes.set(`${paths[0]}/ping`, json(a, 'error' in a ? 503 : 200));
      routes.set(`${paths[1]}/ping`, json(b));

      const res = await t.sourceApi('/api/ping', source.apiKey, { service: 'roofing', zip: ZIPS[state] });
      const quote = res.json();
      expect(quote).toMatchObject({ ok: true, price: 10 });
      const sold = await post(quote.ping_id);
      expect(sold).toMatchObject({ ok: true, status: 'sold', price: 10 });

      // The deliveries' jobs have run (the sale's accepted post is confirmed by its chain): a losing
      // delivery is never posted to afterwards either.
      await eventually(
        async () => (await matchesOf(sold.lead_id)).every((m) => m.deliveryStatus === 'delivered'),
        10_000,
        'the match delivered',
      );
      // Each delivery was pinged once, at the ping only.
      expect(paths.map((p) => hitsOn(`${p}/ping`).length)).toEqual([1, 1]);
      // Only the winning delivery had the post, with its own bid id and the bid as the price.
      const won = winner === 0 ? a : b;
      expect(paths.map((p) => hitsOn(`${p}/post`).length)).toEqual(winner === 0 ? [1, 0] : [0, 1]);
      expect(JSON.parse(hitsOn(`${paths[winner]}/post`)[0]?.body ?? '{}')).toMatchObject({
        PingId: (won as { id: string }).id,
        Price: cents / 100,
      });
      expect((await matchesOf(sold.lead_id)).map((m) => [m.campaignId, m.priceCents, m.rejected])).toEqual([
        [buyer.campaignId, cents, false],
      ]);
      const detail = await leadDetail(sold.lead_id);
      // Both pings are on the lead, each with its own outcome.
      const pinged = new Map(
        (detail.pings as { delivery: { _id: string }; outcome: string; bid?: number }[]).map((p) => [
          p.delivery._id,
          [p.outcome, p.bid],
        ]),
      );
      expect(buyer.deliveries.map((d) => pinged.get(d._id))).toEqual(
        [a, b].map((x) => ('error' in x ? ['error', undefined] : ['bid', x.bid])),
      );
      expect(detail.match[0].custom).toEqual([
        expect.objectContaining({ target: buyer.deliveries[winner]?._id, accept: true, status_code: 200 }),
      ]);
      expect(detail.explanation).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ campaign: buyer.campaignId, won: true, price: cents / 100, bid_outcome: 'bid' }),
          expect.objectContaining({ campaign: fixed.campaignId, won: false }),
        ]),
      );
    },
  );
});

describe('a Ping/Post delivery (the API)', () => {
  it('answers its ping and type; a ping mapping naming a contact field is refused on that row', async () => {
    const { buyer, delivery } = await pingPostBuyer('WA', '/api-shape', { timeout_ms: 250 });
    const got = await t.request({ method: 'GET', url: `/api/webhook/${delivery._id}`, as: admin.cookie });
    expect(got.json()).toMatchObject({
      ping_id: 'ping_post',
      ping: { url: buyerUrl('/api-shape/ping'), price_field: 'bid', ping_id_field: 'id', timeout_ms: 250 },
    });

    const refused = await t.request({
      method: 'POST',
      url: '/api/webhook',
      as: admin.cookie,
      payload: {
        buyer: buyer._id,
        name: 'Leaky',
        url: buyerUrl('/leaky/post'),
        ping_id: 'ping_post',
        ping: { url: buyerUrl('/leaky/ping'), price_field: 'bid', map: [{ field: 'phone', value: 'Phone' }] },
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors['ping.map.0.field']).toBe(
      "'phone' is contact data: a ping never sends name, phone, email, address or other contact fields",
    );

    // Switched to Direct, the delivery drops its ping; back to Ping/Post, it needs one again.
    const direct = await t.request({
      method: 'PUT',
      url: `/api/webhook/${delivery._id}`,
      as: admin.cookie,
      payload: { ping_id: 'no_ping' },
    });
    expect(direct.json().ping).toBeUndefined();
    const again = await t.request({
      method: 'PUT',
      url: `/api/webhook/${delivery._id}`,
      as: admin.cookie,
      payload: { ping_id: 'ping_post' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors.ping).toBe('A Ping/Post delivery needs its ping: URL and bid price field');
  });

  it('the Test call sends a test ping and a test post that echoes the bid id', async () => {
    const { delivery } = await pingPostBuyer('CO', '/tested');
    routes.set('/tested/ping', json({ ok: true, bid: '$12.34', id: 'TEST-9' }));
    const res = await t.request({
      method: 'POST',
      url: `/api/webhook/${delivery._id}/test`,
      as: admin.cookie,
      payload: { test_zip: '80202', test_phone: '3035552100' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json();
    expect(result.ping).toMatchObject({
      status: 200,
      accept: true,
      outcome: 'bid',
      bid: 12.34,
      buyer_ping_id: 'TEST-9',
      url: buyerUrl('/tested/ping'),
    });
    expect(JSON.parse(result.ping.reqBody)).toEqual({ Service: 'roofing', Zip: '80202', State: 'TX' });
    expect(result).toMatchObject({ status: 200, accept: true, url: buyerUrl('/tested/post') });
    expect(JSON.parse(result.reqBody)).toMatchObject({ Phone: '3035552100', PingId: 'TEST-9' });
  });
});

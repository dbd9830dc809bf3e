import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  atOnce,
  billedCents,
  createBuyer,
  createCampaign,
  uniquePhone,
  ZIP_OF_STATE,
} from '../../../../test/factories';
import {
  createDelivery,
  deliveryAttemptsOf,
  eventually,
  fieldRows,
  notifyJobsOf,
  notifyJobsSettled,
  type Reply,
  scriptedNetwork,
  useDeliveryTestApp,
  useReceivers,
} from '../../../../test/receivers';
import {
  campaigns,
  deliveryAttempts,
  leadMatches,
  leads,
  type NotifyConfig,
  sourceChargebacks,
  webhooks,
} from '../../../db/schema';
import { unpackExplanation } from '../../../distribution/explanation';

/**
 * Live custom deliveries decide the sale (DESIGN.md §6), with real peers: a local HTTP server
 * plays the buyers' systems and a local SMTP server takes the emails. Retries wait milliseconds.
 * The private-address guard is on, as in production: the buyers' systems have public names that the
 * scripted network resolves to public addresses and carries to the local server.
 */

const { http, smtp } = useReceivers();
const net = scriptedNetwork({ 'crm.buyer.test': ['93.184.216.40'], 'crm.internal.test': ['10.20.30.40'] });
const { t, admin, source } = useDeliveryTestApp(net.network, () => ({
  SMTP_URL: smtp.url,
  // Two different retry delays, so a retry chain's waits show which step took which (QUICK_DELIVERIES has 50, 50).
  DELIVERY_RETRY_DELAYS_MS: [50, 120],
}));

/** The receiver's URL for `path` under the buyer system's public name. */
const buyerUrl = (path: string, host = 'crm.buyer.test') => {
  const url = new URL(http.url(path));
  url.hostname = host;
  return url.toString();
};

const NOT_ACCEPTED: Reply = { status: 200, body: JSON.stringify({ ok: false, reason: 'duplicate in our CRM' }) };

/** A live custom delivery of the buyer to `path` on the receiver, accepted when the answer's `ok` is true. */
async function liveDelivery(buyerId: string, path: string, overrides: object = {}) {
  return createDelivery(t, admin.cookie, {
    buyer: buyerId,
    name: `CRM ${path}`,
    url: buyerUrl(path),
    accept: fieldRows({ ok: 'true' }),
    map: fieldRows({ phone: 'Phone', first_name: 'FirstName', zip: 'Zip' }),
    static: fieldRows({ Vendor: 'leadex' }),
    return_id: 'id',
    status: 'live',
    ...overrides,
  });
}

async function buyerWithCampaign(state: string, campaign: Parameters<typeof createCampaign>[2] = {}) {
  const buyer = await createBuyer(t);
  const campaignId = await createCampaign(t, buyer._id, { price: 40, states: [state], ...campaign });
  return { buyer, campaignId };
}

/** Posts a lead in `state` through POST /api/lead and answers the response. */
async function post(state: string) {
  const res = await t.sourceApi('/api/lead', source.apiKey, {
    service: 'roofing',
    zip: ZIP_OF_STATE[state],
    first_name: 'Pat',
    last_name: 'Lee',
    phone: uniquePhone(),
    email: `pat.${Math.random().toString(36).slice(2)}@example.com`,
    tcpa_consent: true,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ok: boolean; lead_id: string; status?: string; reason?: string };
}

const matchesOf = (leadId: string) => t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, leadId));
const attemptsOf = (matchId: string) => deliveryAttemptsOf(t.database.db, matchId);
const statusOf = async (matchId: string) =>
  (await t.database.db.select().from(leadMatches).where(eq(leadMatches.id, matchId)))[0]?.deliveryStatus;
const deliveryRow = async (id: string) => (await t.database.db.select().from(webhooks).where(eq(webhooks.id, id)))[0];

describe('a live custom delivery', () => {
  it('a lead sold to a buyer with two emails, a webhook and a live XML delivery arrives at all four, each attempt logged', async () => {
    const { buyer, campaignId } = await buyerWithCampaign('TX');
    const notify: NotifyConfig = {
      email: ['ops@four.example', 'sales@four.example'],
      sms: [],
      webhook: buyerUrl('/four/hook'),
      broadcast_webhooks: [],
    };
    await t.database.db.update(campaigns).set({ notify }).where(eq(campaigns.id, campaignId));
    http.script('/four/crm', [], {
      status: 200,
      contentType: 'application/xml',
      body: '<?xml version="1.0"?><response><ok>true</ok><id>CRM-981</id></response>',
    });
    const delivery = await liveDelivery(buyer._id, '/four/crm', {
      send_content_type: 'xml',
      return_content_type: 'xml',
      wrap_key: 'Lead',
    });

    const answer = await post('TX');
    expect(answer).toMatchObject({ ok: true, status: 'sold' });
    // The live delivery ran during the sale: the buyer had the lead before the source had its answer.
    const [crm] = http.on('/four/crm');
    expect(crm?.headers['content-type']).toBe('application/xml');
    expect(crm?.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?><Lead><Phone>\d{10}<\/Phone><FirstName>Pat<\/FirstName><Zip>75201<\/Zip><Vendor>leadex<\/Vendor><\/Lead>$/,
    );

    const [match] = await matchesOf(answer.lead_id);
    expect(match).toMatchObject({ rejected: false, buyerLeadId: 'CRM-981' });
    const id = match?.id as string;
    await eventually(async () => (await attemptsOf(id)).length === 4, 10_000, 'four attempts');
    await eventually(async () => (await statusOf(id)) === 'delivered', 10_000, 'delivered');

    const attempts = await attemptsOf(id);
    expect(attempts.map((a) => `${a.channel} ${a.target}`).sort()).toEqual(
      [
        `custom ${delivery._id}`,
        'email ops@four.example',
        'email sales@four.example',
        `webhook ${buyerUrl('/four/hook')}`,
      ].sort(),
    );
    expect(attempts.every((a) => a.accepted)).toBe(true);
    // The sale's own attempt is not repeated by a job.
    expect(http.on('/four/crm')).toHaveLength(1);
    expect(http.on('/four/hook')).toHaveLength(1);
    expect(
      smtp.mails
        .filter((m) => m.to[0]?.endsWith('@four.example'))
        .map((m) => m.to[0])
        .sort(),
    ).toEqual(['ops@four.example', 'sales@four.example']);

    const detail = await t.request({
      method: 'GET',
      url: `/api/lead/${answer.lead_id}?includeNotifyLogs=true`,
      as: admin.cookie,
    });
    const [logged] = detail.json().match;
    expect(logged.email).toHaveLength(2);
    expect(logged.webhook).toEqual([expect.objectContaining({ accept: true, status_code: 200 })]);
    expect(logged.custom).toEqual([
      expect.objectContaining({ target: delivery._id, attempt: 1, accept: true, status_code: 200 }),
    ]);
    expect(logged.custom[0].request).toContain('<Vendor>leadex</Vendor>');
  });

  it('answering Not Accepted rejects the match, unbilled, and the next eligible campaign buys the lead', async () => {
    const first = await buyerWithCampaign('CA', { price: 60, max: { daily: 5 } });
    const next = await buyerWithCampaign('CA', { price: 40 });
    http.script('/refuses', [], NOT_ACCEPTED);
    const delivery = await liveDelivery(first.buyer._id, '/refuses');

    const answer = await post('CA');
    expect(answer).toMatchObject({ ok: true, status: 'sold', price: 10 });
    const matches = await matchesOf(answer.lead_id);
    expect(matches.map((m) => [m.campaignId, m.rejected, m.priceCents]).sort()).toEqual(
      [
        [first.campaignId, true, 6000],
        [next.campaignId, false, 4000],
      ].sort(),
    );
    const [lead] = await t.database.db.select().from(leads).where(eq(leads.id, answer.lead_id));
    expect(lead?.priceCents).toBe(4000);
    expect(lead?.sold).toBe(true);
    expect(await unpackExplanation(t.database.db, lead?.explanation ?? null)).toContainEqual(
      expect.objectContaining({
        campaign: first.campaignId,
        eligible: false,
        rule: 'delivery',
        detail: `Not Accepted by ${delivery.name}`,
      }),
    );
    expect(await unpackExplanation(t.database.db, lead?.explanation ?? null)).toContainEqual(
      expect.objectContaining({ campaign: next.campaignId, won: true }),
    );

    // The refusing campaign's cap slot was given back; its match is never delivered nor billed.
    const counters = await t.database.db.execute(
      sql`select n from cap_counters where campaign_id = ${first.campaignId} and period = 'daily'`,
    );
    expect((counters as unknown as { rows: { n: number }[] }).rows.map((r) => r.n)).toEqual([0]);
    const rejected = matches.find((m) => m.rejected);
    const attempts = await attemptsOf(rejected?.id as string);
    expect(attempts).toEqual([
      expect.objectContaining({ channel: 'custom', accepted: false, last: true, statusCode: 200 }),
    ]);
    expect(attempts[0]?.response).toContain('duplicate in our CRM');
    expect(await billedCents(t, admin.cookie, first.buyer._id)).toBe(0);
    expect(await billedCents(t, admin.cookie, next.buyer._id)).toBe(4000);

    // Its last failure is kept for the buyer's campaigns.
    expect(await deliveryRow(delivery._id)).toMatchObject({ lastFailure: expect.stringContaining('Not Accepted') });
  });

  it('answers no_match when nobody else covers the payout, and keeps the lead and the rejected match', async () => {
    const only = await buyerWithCampaign('NY', { price: 50 });
    http.script('/alone', [], { status: 422, body: '{"error":"zip not served"}' });
    await liveDelivery(only.buyer._id, '/alone');

    const answer = await post('NY');
    expect(answer).toMatchObject({ ok: false, reason: 'no_match' });
    const matches = await matchesOf(answer.lead_id);
    expect(matches).toEqual([expect.objectContaining({ campaignId: only.campaignId, rejected: true })]);
    const [lead] = await t.database.db.select().from(leads).where(eq(leads.id, answer.lead_id));
    expect(lead?.priceCents).toBe(0);
    // Its only buyer refused it: it stands under No Buyer in the leads list.
    expect(lead?.sold).toBe(false);
  });

  it(atOnce('never oversells a cap while live deliveries run: concurrent posts sell exactly the cap'), async () => {
    const { buyer, campaignId } = await buyerWithCampaign('OH', { price: 40, max: { daily: 2 } });
    http.script('/capped-crm', [], 200);
    await liveDelivery(buyer._id, '/capped-crm');

    const answers = await Promise.all(Array.from({ length: 6 }, () => post('OH')));
    expect(answers.filter((a) => a.status === 'sold')).toHaveLength(2);
    expect(answers.filter((a) => a.reason === 'no_match')).toHaveLength(4);
    const sold = await t.database.db.select().from(leadMatches).where(eq(leadMatches.campaignId, campaignId));
    expect(sold.filter((m) => !m.rejected)).toHaveLength(2);
    // Only the buyers' systems of sales that stand were sent the lead.
    expect(http.on('/capped-crm')).toHaveLength(2);
  });

  it('moves a shared sale on without the buyer that refused; the others keep their shares', async () => {
    const refuses = await buyerWithCampaign('WA', { price: 1, shared: 30 });
    const second = await buyerWithCampaign('WA', { price: 1, shared: 25 });
    const third = await buyerWithCampaign('WA', { price: 1, shared: 20 });
    http.script('/shared-no', [], NOT_ACCEPTED);
    http.script('/shared-yes', [], 200);
    await liveDelivery(refuses.buyer._id, '/shared-no');
    await liveDelivery(second.buyer._id, '/shared-yes');

    const answer = await post('WA');
    expect(answer).toMatchObject({ ok: true, status: 'sold' });
    const matches = await matchesOf(answer.lead_id);
    expect(matches.map((m) => [m.campaignId, m.rejected, m.kind, m.priceCents]).sort()).toEqual(
      [
        [refuses.campaignId, true, 'shared', 3000],
        [second.campaignId, false, 'shared', 2500],
        [third.campaignId, false, 'shared', 2000],
      ].sort(),
    );
    // The buyer that said yes got the lead once, even though the auction ran twice.
    expect(http.on('/shared-yes')).toHaveLength(1);
  });
});

describe('a live custom delivery that does not answer in time', () => {
  it('keeps the sale on a 5xx and retries as a job: one accepted delivery, the same webhook-id each time', async () => {
    const { buyer } = await buyerWithCampaign('FL');
    http.script('/flaky-crm', [503], { status: 200, body: '{"ok":true,"id":"B-77"}' });
    const delivery = await liveDelivery(buyer._id, '/flaky-crm');

    const answer = await post('FL');
    expect(answer).toMatchObject({ ok: true, status: 'sold' });
    const [match] = await matchesOf(answer.lead_id);
    expect(match?.rejected).toBe(false);
    const id = match?.id as string;
    expect(await deliveryRow(delivery._id)).toMatchObject({ lastFailure: expect.stringContaining('HTTP 503') });

    await eventually(async () => (await statusOf(id)) === 'delivered', 10_000, 'delivered');
    const attempts = await attemptsOf(id);
    expect(attempts.map((a) => [a.channel, a.attempt, a.accepted, a.statusCode])).toEqual([
      ['custom', 1, false, 503],
      ['custom', 2, true, 200],
    ]);
    const calls = http.on('/flaky-crm');
    expect(calls).toHaveLength(2);
    expect(new Set(calls.map((c) => c.headers['webhook-id'])).size).toBe(1);
    const [after] = await matchesOf(answer.lead_id);
    expect(after?.buyerLeadId).toBe('B-77');
    // A success clears the failure shown on the buyer's campaigns.
    expect(await deliveryRow(delivery._id)).toMatchObject({ lastFailure: null, lastFailureAt: null });
  });

  it('keeps the sale when the buyer does not answer within 3 s', async () => {
    const { buyer } = await buyerWithCampaign('GA');
    http.script('/slow-crm', ['hang'], 200);
    await liveDelivery(buyer._id, '/slow-crm');

    const started = Date.now();
    const answer = await post('GA');
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(answer).toMatchObject({ ok: true, status: 'sold' });
    const [match] = await matchesOf(answer.lead_id);
    const id = match?.id as string;
    await eventually(async () => (await statusOf(id)) === 'delivered', 10_000, 'delivered');
    const attempts = await attemptsOf(id);
    expect(attempts[0]).toMatchObject({ accepted: false, statusCode: null, error: 'No answer within 3 s' });
    expect(attempts.at(-1)).toMatchObject({ accepted: true });
  });

  it('turns a late Not Accepted from a retry into an approved return, never a re-sale', async () => {
    const { buyer } = await buyerWithCampaign('IL');
    http.script('/late-no', [500], NOT_ACCEPTED);
    await liveDelivery(buyer._id, '/late-no');

    const answer = await post('IL');
    expect(answer).toMatchObject({ ok: true, status: 'sold' });
    const [match] = await matchesOf(answer.lead_id);
    const id = match?.id as string;
    await eventually(
      async () => (await matchesOf(answer.lead_id))[0]?.returnStatus === 'approved',
      10_000,
      'an approved return',
    );
    const [after] = await matchesOf(answer.lead_id);
    expect(after).toMatchObject({ rejected: false, returnReason: expect.stringContaining('Not Accepted') });
    // The no ends the chain: once the retry's job has finished, no other job waits or runs (a
    // further try would have been queued before it finished), and the lead stays with this one sale.
    await eventually(() => notifyJobsSettled(t.database.db, id), 10_000, 'the retry job to finish');
    expect((await notifyJobsOf(t.database.db, id)).map((j) => [j.channel, j.step, j.state])).toEqual([
      ['custom', 1, 'completed'],
    ]);
    expect(http.on('/late-no')).toHaveLength(2);
    expect(await attemptsOf(id)).toHaveLength(2);
    expect(await matchesOf(answer.lead_id)).toHaveLength(1);
  });

  // Issue 30 area 5: a timeout and 5xx answers are not a no. Only a final answer (Not Accepted, a 4xx)
  // becomes a return (the test above); these end the chain undelivered, which bills nothing until a
  // resend delivers it (DESIGN.md §6), and never a return, a chargeback or a re-sale.
  it('retries a timeout and 503s per the backoff, never as a return or a chargeback: undelivered, then billed after a resend', async () => {
    const { buyer, campaignId } = await buyerWithCampaign('NV');
    http.script('/down-crm', ['hang', 503], 503);
    await liveDelivery(buyer._id, '/down-crm');

    const answer = await post('NV');
    expect(answer).toMatchObject({ ok: true, status: 'sold' });
    const [match] = await matchesOf(answer.lead_id);
    expect(match).toMatchObject({ campaignId, rejected: false, priceCents: 4000 });
    const id = match?.id as string;

    await eventually(async () => (await statusOf(id)) === 'undelivered', 15_000, 'undelivered');
    await eventually(() => notifyJobsSettled(t.database.db, id), 10_000, 'the retry jobs to finish');
    // The sale's attempt timed out; each retry waited its step of the backoff; only the last ends the chain.
    expect((await attemptsOf(id)).map((a) => [a.channel, a.attempt, a.accepted, a.statusCode, a.last])).toEqual([
      ['custom', 1, false, null, false],
      ['custom', 2, false, 503, false],
      ['custom', 3, false, 503, true],
    ]);
    expect((await attemptsOf(id))[0]?.error).toBe('No answer within 3 s');
    expect((await notifyJobsOf(t.database.db, id)).map((j) => [j.step, j.delayMs, j.state])).toEqual([
      [1, 50, 'completed'],
      [2, 120, 'completed'],
    ]);
    expect(http.on('/down-crm')).toHaveLength(3);

    // No return, no chargeback, no other match: the sale stands, unbilled while undelivered.
    const noReturn = async () => {
      const matches = await matchesOf(answer.lead_id);
      expect(matches.map((m) => [m.id, m.rejected, m.returnStatus, m.returnReason])).toEqual([[id, false, null, null]]);
      expect(await t.database.db.select().from(sourceChargebacks).where(eq(sourceChargebacks.matchId, id))).toEqual([]);
    };
    await noReturn();
    expect(await billedCents(t, admin.cookie, buyer._id)).toBe(0);

    // The buyer's system is back: a resend delivers the lead, and the sale is billed in full.
    http.script('/down-crm', [], { status: 200, body: '{"ok":true,"id":"B-503"}' });
    const resend = await t.request({
      method: 'POST',
      url: `/api/lead/${answer.lead_id}/match/${id}/resend`,
      as: admin.cookie,
    });
    expect(resend.statusCode, resend.body).toBe(200);
    await eventually(async () => (await statusOf(id)) === 'delivered', 10_000, 'delivered after the resend');
    await noReturn();
    expect(await billedCents(t, admin.cookie, buyer._id)).toBe(4000);
  });

  it('runs only live deliveries: a paused one is never called', async () => {
    const { buyer } = await buyerWithCampaign('CO');
    await liveDelivery(buyer._id, '/paused-crm', { status: 'pause' });
    const answer = await post('CO');
    expect(answer).toMatchObject({ ok: true, status: 'sold' });
    const [match] = await matchesOf(answer.lead_id);
    // The dispatcher has decided the match: with no channel and no live delivery it is delivered
    // at once, and no job exists for it that could call the paused delivery later.
    await eventually(async () => (await statusOf(match?.id as string)) === 'delivered', 10_000, 'delivered');
    expect(await notifyJobsOf(t.database.db, match?.id as string)).toEqual([]);
    expect(http.on('/paused-crm')).toHaveLength(0);
    expect(
      await t.database.db
        .select()
        .from(deliveryAttempts)
        .where(and(eq(deliveryAttempts.matchId, match?.id as string), eq(deliveryAttempts.channel, 'custom'))),
    ).toEqual([]);
  });

  it('refuses a buyer system whose name resolves to a private address at the sale, without connecting', async () => {
    const only = await buyerWithCampaign('AZ', { price: 50 });
    http.script('/intranet-crm', [], 200);
    await liveDelivery(only.buyer._id, '/intranet-crm', { url: buyerUrl('/intranet-crm', 'crm.internal.test') });

    const answer = await post('AZ');
    expect(answer).toMatchObject({ ok: false, reason: 'no_match' });
    const [match] = await matchesOf(answer.lead_id);
    expect(match).toMatchObject({ campaignId: only.campaignId, rejected: true });
    const attempts = await attemptsOf(match?.id as string);
    expect(attempts).toEqual([
      expect.objectContaining({ channel: 'custom', accepted: false, last: true, statusCode: null }),
    ]);
    expect(attempts[0]?.error).toContain('resolves to 10.20.30.40, a private address');
    expect(http.on('/intranet-crm')).toHaveLength(0);
    expect(net.dials).not.toContain('10.20.30.40');
  });
});

import { eq, sql } from 'drizzle-orm';
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import {
  billedCents,
  createBuyer,
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  postSoldLead,
  ZIP_OF_STATE,
} from '../../../../test/factories';
import { createTestApp } from '../../../../test/harness';
import {
  deliveryAttemptsOf,
  eventually,
  notifyJobsOf,
  useDeliveryTestApp,
  useReceivers,
} from '../../../../test/receivers';
import { campaigns, deliveryAttempts, leadMatches, type NotifyConfig } from '../../../db/schema';
import { deriveSigningSecret, verifyWebhook } from '../../../lib/webhook-signature';

/**
 * DESIGN.md §6 with real peers: a local SMTP server and a local HTTP server receive the leads the
 * job workers deliver; retries wait milliseconds here instead of minutes.
 */

const { http, smtp } = useReceivers();
const { t, admin, source } = useDeliveryTestApp(undefined, () => ({
  SMTP_URL: smtp.url,
  ALLOW_PRIVATE_DELIVERY_TARGETS: true,
}));

/** A buyer whose one live campaign (in its own state) notifies as given. */
async function buyerWith(notify: NotifyConfig, state: string) {
  const buyer = await createBuyer(t);
  const campaignId = await createCampaign(t, buyer._id, { price: 40, states: [state] });
  await t.database.db.update(campaigns).set({ notify }).where(eq(campaigns.id, campaignId));
  return { buyer, campaignId };
}

/** Sells one lead in `state` through POST /api/lead; answers its id and match. */
const sell = (state: string) => postSoldLead(t, source.apiKey, { zip: ZIP_OF_STATE[state], tcpa_consent: true });

const statusOf = async (matchId: string) =>
  (await t.database.db.select().from(leadMatches).where(eq(leadMatches.id, matchId)))[0]?.deliveryStatus;
// In the order they were made: the test clock stands still, so by attempt number, not time.
const attemptsOf = (matchId: string) => deliveryAttemptsOf(t.database.db, matchId);

describe('notify channels', () => {
  it('delivers a sold lead to two emails and a signed webhook, and logs each attempt', async () => {
    const { buyer } = await buyerWith(
      {
        email: ['ops@buyer.example', 'sales@buyer.example'],
        sms: [],
        webhook: http.url('/hook'),
        broadcast_webhooks: [],
      },
      'TX',
    );
    const { leadId, match } = await sell('TX');

    await eventually(async () => (await statusOf(match.id)) === 'delivered', 10_000, 'delivered');
    await eventually(async () => (await attemptsOf(match.id)).length === 3, 10_000, 'three attempts');

    const mails = smtp.mails.filter((m) => m.to.some((to) => to.endsWith('@buyer.example')));
    expect(mails.map((m) => m.to[0]).sort()).toEqual(['ops@buyer.example', 'sales@buyer.example']);
    expect(mails[0]?.raw).toContain('text/html');
    expect(mails[0]?.raw).toContain(leadId);

    const [hook] = http.on('/hook');
    expect(hook?.headers).toMatchObject({
      'webhook-id': expect.stringMatching(/^msg_/),
      'webhook-timestamp': expect.stringMatching(/^\d+$/),
      'webhook-signature': expect.stringMatching(/^v1,/),
    });
    const secret = deriveSigningSecret(t.deps.config.LEADEX_SECRET, buyer._id);
    expect(verifyWebhook(secret, hook?.body ?? '', hook?.headers as Record<string, string>)).toMatchObject({
      type: 'lead.sold',
      data: { lead_id: leadId, match_id: match.id, price: 40, service: 'roofing', zip: '75201' },
    });

    const res = await t.request({ method: 'GET', url: `/api/lead/${leadId}?includeNotifyLogs=true`, as: admin.cookie });
    expect(res.statusCode).toBe(200);
    const [logged] = res.json().match;
    expect(logged.email).toHaveLength(2);
    expect(logged.email[0]).toMatchObject({ accept: true, status: [{ data: { event: 'delivered' } }] });
    expect(logged.webhook).toEqual([
      expect.objectContaining({ target: http.url('/hook'), attempt: 1, accept: true, status_code: 200 }),
    ]);
    expect(logged.webhook[0].request).toContain(leadId);
    expect(logged.webhook[0].duration_ms).toEqual(expect.any(Number));
  });

  it("falls back to the buyer's default channels when the campaign has none", async () => {
    const buyer = await createBuyer(t, {
      name: 'Fallback Roofing',
      notify: { email: ['default@fallback.example'], sms: ['+15125552100'], broadcast_webhooks: [http.url('/all')] },
    });
    await createCampaign(t, buyer._id, { price: 40, states: ['IL'] });
    const { match } = await sell('IL');
    await eventually(async () => (await attemptsOf(match.id)).length === 3, 10_000, 'three attempts');
    const attempts = await attemptsOf(match.id);
    expect(attempts.map((a) => a.channel).sort()).toEqual(['broadcast', 'email', 'sms']);
    expect(attempts.every((a) => a.accepted)).toBe(true);
    expect(smtp.mails.some((m) => m.to.includes('default@fallback.example'))).toBe(true);
    expect(http.on('/all')).toHaveLength(1);
  });

  it('retries a failing endpoint: it fails twice then succeeds, one accepted delivery and three attempts', async () => {
    http.script('/flaky', [500, 502]);
    const { match } = await buyerWith(
      { email: [], sms: [], webhook: http.url('/flaky'), broadcast_webhooks: [] },
      'CA',
    ).then(async () => sell('CA'));

    await eventually(async () => (await statusOf(match.id)) === 'delivered', 10_000, 'delivered');
    const attempts = await attemptsOf(match.id);
    expect(attempts.map((a) => [a.attempt, a.accepted, a.statusCode])).toEqual([
      [1, false, 500],
      [2, false, 502],
      [3, true, 200],
    ]);
    const calls = http.on('/flaky');
    expect(calls).toHaveLength(3);
    // One message retried: the receiver sees one webhook-id and can drop duplicates by it.
    expect(new Set(calls.map((c) => c.headers['webhook-id'])).size).toBe(1);
  });

  it('marks a match undelivered after the retries, raises an admin message and bills it only after a resend', async () => {
    http.script('/down', [], 503);
    const { buyer } = await buyerWith({ email: [], sms: [], webhook: http.url('/down'), broadcast_webhooks: [] }, 'NY');
    const { leadId, match } = await sell('NY');

    await eventually(async () => (await statusOf(match.id)) === 'undelivered', 10_000, 'undelivered');
    const attempts = await attemptsOf(match.id);
    expect(attempts).toHaveLength(3);
    expect(attempts.every((a) => !a.accepted)).toBe(true);

    // The message is written right after the status: wait for it rather than race it.
    const message = await eventually(
      async () => {
        const messages = await t.request({ method: 'GET', url: '/api/message/admin?days=5', as: admin.cookie });
        expect(messages.statusCode).toBe(200);
        return messages.json().data.find((m: { data?: { match_id?: string } }) => m.data?.match_id === match.id);
      },
      5_000,
      'the admin message',
    );
    expect(message).toMatchObject({
      text: expect.stringContaining(leadId),
      ts: expect.any(Number),
      hidden: false,
      data: { kind: 'undelivered', lead_id: leadId, match_id: match.id, link: `/lead/${leadId}` },
    });

    expect(await billedCents(t, admin.cookie, buyer._id)).toBe(0);

    // The buyer's endpoint is back: an admin resends, the match is delivered and billed.
    http.script('/down', [], 200);
    const resend = await t.request({
      method: 'POST',
      url: `/api/lead/${leadId}/match/${match.id}/resend`,
      as: admin.cookie,
    });
    expect(resend.statusCode).toBe(200);
    expect(resend.json()).toEqual({ queued: 1 });
    await eventually(async () => (await statusOf(match.id)) === 'delivered', 10_000, 'delivered after resend');
    expect((await attemptsOf(match.id)).map((a) => [a.attempt, a.accepted])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [4, true],
    ]);
    expect(await billedCents(t, admin.cookie, buyer._id)).toBe(4000);

    // Nothing is left to resend.
    const again = await t.request({
      method: 'POST',
      url: `/api/lead/${leadId}/match/${match.id}/resend`,
      as: admin.cookie,
    });
    expect(again.statusCode).toBe(400);

    // The admin hides the message.
    const hide = await t.request({
      method: 'PUT',
      url: `/api/message/admin/${message._id}`,
      payload: { hide: true },
      as: admin.cookie,
    });
    expect(hide.statusCode).toBe(200);
    const after = await t.request({ method: 'GET', url: '/api/message/admin?days=5', as: admin.cookie });
    expect(after.json().data.some((m: { _id: string }) => m._id === message._id)).toBe(false);
  });
});

describe('the dispatcher', () => {
  it('queues the jobs again of a match claimed by a dispatcher that crashed before sending them', async () => {
    await buyerWith({ email: [], sms: [], webhook: http.url('/orphan'), broadcast_webhooks: [] }, 'FL');
    await t.deps.jobs.stop();
    const { match } = await sell('FL');
    // The claim happened two hours ago, and the process died before the jobs were inserted.
    await t.database.db.execute(
      sql`update lead_matches set delivery_status = 'queued', delivery_queued_at = now() - interval '2 hours' where id = ${match.id}`,
    );
    await t.deps.jobs.start();
    await eventually(async () => (await statusOf(match.id)) === 'delivered', 10_000, 'delivered');
    expect(http.on('/orphan')).toHaveLength(1);
    // Queued again later, the same job ids insert nothing: the receiver is not called twice.
    await t.database.db.execute(
      sql`update lead_matches set delivery_status = 'queued', delivery_queued_at = now() - interval '2 hours' where id = ${match.id}`,
    );
    // Rounds until one has claimed the match again (its queue time is fresh), then one more: that
    // awaits the claiming round if it is still running, so its jobs' insert has been tried.
    const claimedAgain = async () => {
      const result = await t.database.db.execute(
        sql`select 1 from lead_matches where id = ${match.id} and delivery_queued_at > now() - interval '1 hour'`,
      );
      return (result as unknown as { rows: unknown[] }).rows.length > 0;
    };
    await eventually(
      async () => {
        await t.deps.jobs.dispatch();
        return claimedAgain();
      },
      10_000,
      'the match to be claimed again',
    );
    await t.deps.jobs.dispatch();
    // The queue holds the one job it always had, finished: nothing waits that could call the receiver again.
    expect((await notifyJobsOf(t.database.db, match.id)).map((j) => [j.channel, j.step, j.state])).toEqual([
      ['webhook', 0, 'completed'],
    ]);
    expect(http.on('/orphan')).toHaveLength(1);
  });
});

describe('security', () => {
  it('lets only admins resend and read messages; an unknown match answers 404', async () => {
    const { cookie } = await createBuyerWithLogin(t);
    await buyerWith({ email: [], sms: [], broadcast_webhooks: [] }, 'GA');
    const { leadId, match } = await sell('GA');
    // No channel at all: the buyer reads the lead in its portal, and it is billed as sold.
    await eventually(async () => (await statusOf(match.id)) === 'delivered', 10_000, 'delivered');
    const url = `/api/lead/${leadId}/match/${match.id}/resend`;
    expect((await t.request({ method: 'POST', url, as: cookie })).statusCode).toBe(403);
    expect((await t.request({ method: 'POST', url })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/api/message/admin', as: cookie })).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'POST', url: `/api/lead/${leadId}/match/mat_nope/resend`, as: admin.cookie }))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'PUT',
          url: '/api/message/admin/msg_nope',
          payload: { hide: true },
          as: admin.cookie,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'PUT',
          url: '/api/message/admin/msg_nope',
          payload: { hide: 'yes' },
          as: admin.cookie,
        })
      ).statusCode,
    ).toBe(400);
  });

  it("takes Twilio's signed status callback: delivered marks the text's attempt and the match delivered", async () => {
    const token = 'twilio-test-auth-token';
    const app = await createTestApp({
      PUBLIC_API_RATE_LIMIT: 0,
      TWILIO_ACCOUNT_SID: 'AC0000',
      TWILIO_AUTH_TOKEN: token,
      TWILIO_FROM: '+15125550000',
    });
    try {
      const buyer = await createBuyer(app);
      await createCampaign(app, buyer._id, { price: 40, states: ['TX'] });
      const seller = await createSourceWithKey(app, { maxCost: 10 });
      const { match } = await postSoldLead(app, seller.apiKey, { tcpa_consent: true });
      // What the worker logged when Twilio took the text: not delivered until the callback says so.
      await app.database.db.update(leadMatches).set({ deliveryStatus: 'queued' }).where(eq(leadMatches.id, match.id));
      await app.database.db.insert(deliveryAttempts).values({
        id: 'att_sms1',
        matchId: match.id,
        channel: 'sms',
        target: '+15125552100',
        attempt: 1,
        accepted: false,
        statusCode: 201,
        providerId: 'SM123',
        at: app.clock.now(),
      });
      const params = { MessageSid: 'SM123', MessageStatus: 'delivered' };
      const url = `${app.deps.config.PUBLIC_URL}/api/twilio/status`;
      const post = (signature: string) =>
        app.request({
          method: 'POST',
          url: '/api/twilio/status',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
          payload: new URLSearchParams(params).toString(),
        });
      expect((await post('forged')).statusCode).toBe(403);
      const signed = await post(twilio.getExpectedTwilioSignature(token, url, params));
      expect(signed.statusCode).toBe(204);
      const [attempt] = await app.database.db
        .select()
        .from(deliveryAttempts)
        .where(eq(deliveryAttempts.id, 'att_sms1'));
      expect(attempt).toMatchObject({ accepted: true, response: 'twilio: delivered' });
      const [after] = await app.database.db.select().from(leadMatches).where(eq(leadMatches.id, match.id));
      expect(after?.deliveryStatus).toBe('delivered');
    } finally {
      await app.close();
    }
  });

  it('answers 404 on the Twilio callback when Twilio is not configured', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/twilio/status',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'MessageSid=SM1&MessageStatus=delivered',
    });
    expect(res.statusCode).toBe(404);
  });
});

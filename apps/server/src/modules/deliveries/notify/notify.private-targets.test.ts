import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, postSoldLead } from '../../../../test/factories';
import { useFixture } from '../../../../test/fixtures';
import { useAdminTestApp } from '../../../../test/harness';
import {
  createDelivery,
  deliveryAttemptsOf,
  eventually,
  notifyJobsOf,
  notifyJobsSettled,
  scriptedNetwork,
  useReceivers,
} from '../../../../test/receivers';
import { campaigns, deliveryAttempts, leadMatches, type NotifyConfig, webhooks } from '../../../db/schema';
import { createJobs } from '../../../jobs/index';
import { newId } from '../../../lib/ids';
import { blockedRange } from '../../../lib/outbound-http';
import { createChannels } from './channels';
import { createNotifyHandler } from './notify';

/**
 * DESIGN.md §6 with ALLOW_PRIVATE_DELIVERY_TARGETS off, as in production: every notify channel
 * that makes HTTP calls (the campaign's webhook, its broadcast webhooks, a custom delivery's retry)
 * refuses a loopback or private target and logs the refusal as a failed attempt, and still reaches
 * a public one. The network is scripted (test/receivers.ts `scriptedNetwork`): names resolve as the
 * test says and a public address is carried to the local receiver; the guard between the two is the
 * production one, unchanged.
 */

const { http } = useReceivers();
const net = scriptedNetwork({
  'hook.public.test': ['93.184.216.34'],
  'all.public.test': ['2606:4700:4700::1111'],
  'crm.public.test': ['93.184.216.35'],
  'hook.rebound.test': ['127.0.0.1'],
  'intranet.test': ['10.1.2.3'],
  'crm.internal.test': ['127.0.0.1'],
  'files.internal.test': ['192.168.0.20'],
  'metadata.test': ['169.254.169.254'],
});

const { t, admin } = useAdminTestApp({
  PUBLIC_API_RATE_LIMIT: 0,
  ALLOW_PRIVATE_DELIVERY_TARGETS: false,
  DELIVERY_RETRY_DELAYS_MS: [20, 30],
  JOB_POLL_SECONDS: 0.5,
  // The test drives the dispatcher itself: a match is claimed exactly when the test says.
  DISPATCH_INTERVAL_MS: 3_600_000,
});
// The app's own workers are not started here; these run the same code on the scripted network.
const jobs = useFixture(
  async () => {
    const [db, clock, config] = [t.database.db, t.clock, t.deps.config];
    const channels = createChannels({ db, clock, config, mailer: t.deps.mailer, network: net.network });
    const jobs = createJobs({ db, config, notify: createNotifyHandler({ db, clock, config, channels }) });
    await jobs.start();
    return jobs;
  },
  (jobs) => jobs.stop(),
);
const source = useFixture(() => createSourceWithKey(t, { maxCost: 10 }));

const ZIP_OF: Record<string, string> = { TX: '75201', CA: '90210' };
const port = () => new URL(http.url('/')).port;

/**
 * A buyer whose campaign notifies as given and whose custom delivery posts to `customUrl`; one
 * lead sold to it. The job's retry is what is under test here (the sale's own try of a refused
 * target is in inline.test.ts, where it rejects the match): the delivery is paused during the sale
 * and its first try is written as the sale writes a 503 (retry).
 */
async function soldLead(state: string, notify: NotifyConfig, customUrl: string) {
  const buyer = await createBuyer(t);
  const campaignId = await createCampaign(t, buyer._id, { price: 40, states: [state] });
  await t.database.db.update(campaigns).set({ notify }).where(eq(campaigns.id, campaignId));
  const { _id: deliveryId } = await createDelivery(t, admin.cookie, {
    buyer: buyer._id,
    name: `CRM ${state}`,
    url: customUrl,
    accept: [{ field: 'ok', value: 'true' }],
    map: [{ field: 'phone', value: 'Phone' }],
    return_id: 'id',
    status: 'pause',
  });

  const { match } = await postSoldLead(t, source.apiKey, { zip: ZIP_OF[state], tcpa_consent: true });

  await t.database.db.update(webhooks).set({ status: 'live' }).where(eq(webhooks.id, deliveryId));
  await t.database.db.insert(deliveryAttempts).values({
    id: newId('att'),
    matchId: match.id,
    channel: 'custom',
    target: deliveryId,
    attempt: 1,
    accepted: false,
    statusCode: 503,
    error: 'HTTP 503',
    last: false,
    at: t.clock.now(),
  });
  await jobs.dispatch();
  return { campaignId, deliveryId, matchId: match.id };
}

const attemptsOf = (matchId: string) => deliveryAttemptsOf(t.database.db, matchId, { byTarget: true });
/** The dispatcher has queued the match's jobs and every one of them has ended. */
const chainsEnded = async (matchId: string) =>
  (await notifyJobsOf(t.database.db, matchId)).length > 0 && (await notifyJobsSettled(t.database.db, matchId));
const statusOf = async (matchId: string) =>
  (await t.database.db.select().from(leadMatches).where(eq(leadMatches.id, matchId)))[0]?.deliveryStatus;

describe('notify channels with ALLOW_PRIVATE_DELIVERY_TARGETS off', () => {
  it('refuses loopback, private and metadata targets on the webhook, broadcast and custom channels, logging each refusal', async () => {
    const p = port();
    const webhook = `http://hook.rebound.test:${p}/private/hook`;
    const broadcasts = [
      `http://127.0.0.1:${p}/private/loopback`,
      `http://files.internal.test:${p}/private/files`,
      `http://intranet.test:${p}/private/intranet`,
      `http://metadata.test:${p}/private/metadata`,
    ];
    const custom = `http://crm.internal.test:${p}/private/crm`;
    const { campaignId, deliveryId, matchId } = await soldLead(
      'TX',
      { email: [], sms: [], webhook, broadcast_webhooks: broadcasts },
      custom,
    );

    // Every chain ends refused: the match is undelivered (DESIGN.md §6), after all its retries.
    await eventually(() => chainsEnded(matchId), 15_000, 'every chain to end');
    expect(await statusOf(matchId)).toBe('undelivered');

    const attempts = await attemptsOf(matchId);
    const tried = attempts.filter((a) => a.attempt > 1 || a.channel !== 'custom');
    const refusedBy: Record<string, string> = {
      [webhook]: 'resolves to 127.0.0.1, a loopback address',
      [broadcasts[0] as string]: 'resolves to 127.0.0.1, a loopback address',
      [broadcasts[1] as string]: 'resolves to 192.168.0.20, a private address',
      [broadcasts[2] as string]: 'resolves to 10.1.2.3, a private address',
      [broadcasts[3] as string]: 'resolves to 169.254.169.254, a linkLocal address',
      [deliveryId]: 'resolves to 127.0.0.1, a loopback address',
    };
    // The webhook channels retry a refusal like any failure (three tries each); a custom delivery's
    // refusal is final: its retry is refused once and the chain ends. (Targets in text order.)
    const threeTries = (channel: string, target: string) => [1, 2, 3].map((attempt) => [channel, target, attempt]);
    expect(tried.map((a) => [a.channel, a.target, a.attempt])).toEqual([
      ...broadcasts.flatMap((target) => threeTries('broadcast', target)),
      ['custom', deliveryId, 2],
      ...threeTries('webhook', webhook),
    ]);
    for (const a of tried) {
      expect(a, `${a.channel} ${a.target}`).toMatchObject({ accepted: false, statusCode: null });
      expect(a.error, `${a.channel} ${a.target}`).toContain(refusedBy[a.target]);
      expect(a.error).toMatch(/only public addresses are allowed$/);
    }
    expect(tried.filter((a) => a.last).map((a) => `${a.channel} ${a.attempt}`)).toEqual([
      'broadcast 3',
      'broadcast 3',
      'broadcast 3',
      'broadcast 3',
      'custom 2',
      'webhook 3',
    ]);

    // Nothing was connected to: the names were resolved and refused before any socket was sent on.
    expect(http.received.filter((r) => r.path.startsWith('/private/'))).toEqual([]);
    expect(net.dials.filter((address) => blockedRange(address))).toEqual([]);
    expect(net.lookups).toEqual(expect.arrayContaining(['hook.rebound.test', 'intranet.test', 'crm.internal.test']));

    // The custom delivery's refusal is its last failure, shown on the buyer's campaigns.
    const detail = await t.request({ method: 'GET', url: `/api/match/${campaignId}`, as: admin.cookie });
    expect(detail.json().delivery_failure).toMatchObject({
      delivery_id: deliveryId,
      message: expect.stringContaining('crm.internal.test refused: it resolves to 127.0.0.1'),
    });
  });

  it('attempts a public target on the webhook, broadcast and custom channels', async () => {
    const p = port();
    const webhook = `http://hook.public.test:${p}/public/hook`;
    const broadcast = `http://all.public.test:${p}/public/all`;
    const custom = `http://crm.public.test:${p}/public/crm`;
    http.script('/public/crm', [], { status: 200, body: '{"ok":true,"id":"B-9"}' });
    const { deliveryId, matchId } = await soldLead(
      'CA',
      { email: [], sms: [], webhook, broadcast_webhooks: [broadcast] },
      custom,
    );

    await eventually(() => chainsEnded(matchId), 15_000, 'every chain to end');
    expect(await statusOf(matchId)).toBe('delivered');
    const attempts = (await attemptsOf(matchId)).filter((a) => a.attempt > 1 || a.channel !== 'custom');
    expect(attempts.map((a) => [a.channel, a.target, a.attempt, a.accepted, a.statusCode])).toEqual([
      ['broadcast', broadcast, 1, true, 200],
      ['custom', deliveryId, 2, true, 200],
      ['webhook', webhook, 1, true, 200],
    ]);

    // Each reached the buyer's system under its own name, through the address its name resolved to.
    for (const [path, host] of [
      ['/public/hook', 'hook.public.test'],
      ['/public/all', 'all.public.test'],
      ['/public/crm', 'crm.public.test'],
    ] as const) {
      const calls = http.on(path);
      expect(calls, path).toHaveLength(1);
      expect(calls[0]?.headers.host).toBe(`${host}:${p}`);
    }
    expect(net.dials).toEqual(expect.arrayContaining(['93.184.216.34', '2606:4700:4700::1111', '93.184.216.35']));
    const [match] = await t.database.db.select().from(leadMatches).where(eq(leadMatches.id, matchId));
    expect(match?.buyerLeadId).toBe('B-9');
  });
});

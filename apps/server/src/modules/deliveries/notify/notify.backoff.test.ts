import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, uniquePhone } from '../../../../test/factories';
import { useFixture } from '../../../../test/fixtures';
import { ADMIN, useAdminTestApp } from '../../../../test/harness';
import { createDelivery, eventually, notifyJobsOf, notifyJobsSettled, useReceivers } from '../../../../test/receivers';
import { loadConfig } from '../../../config';
import { campaigns, deliveryAttempts, leadMatches } from '../../../db/schema';

/**
 * The notify channels' backoff (DESIGN.md §6: 10 s, 1 min, 5 min, 15 min, 30 min), measured on the
 * queue itself: each retry is a pg-boss job whose start_after - created_on (one now() of the
 * insert) is the wait it was given. The test then moves the waiting job's start_after to now, so
 * the whole schedule runs in seconds without a sleep and without a clock that could drift.
 */

/** DESIGN.md §6, in milliseconds. */
const DESIGN_SCHEDULE = [10_000, 60_000, 300_000, 900_000, 1_800_000];

describe('the default retry schedule', () => {
  it('is 10 s, 1 min, 5 min, 15 min, 30 min, and DELIVERY_RETRY_DELAYS_MS replaces it', () => {
    const env = { NODE_ENV: 'test', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };
    expect(loadConfig(env).DELIVERY_RETRY_DELAYS_MS).toEqual(DESIGN_SCHEDULE);
    expect(loadConfig({ ...env, DELIVERY_RETRY_DELAYS_MS: '250,1000,4000' }).DELIVERY_RETRY_DELAYS_MS).toEqual([
      250, 1000, 4000,
    ]);
    expect(() => loadConfig({ ...env, DELIVERY_RETRY_DELAYS_MS: '10s,1m' })).toThrow(/DELIVERY_RETRY_DELAYS_MS/);
  });
});

describe('retries follow the schedule, each waiting its own delay', () => {
  const { http } = useReceivers();
  // The default DELIVERY_RETRY_DELAYS_MS: the schedule under test is the production one.
  const { t, admin } = useAdminTestApp(
    {
      PUBLIC_API_RATE_LIMIT: 0,
      ALLOW_PRIVATE_DELIVERY_TARGETS: true,
      JOB_POLL_SECONDS: 0.5,
      // The test drives the dispatcher itself.
      DISPATCH_INTERVAL_MS: 3_600_000,
    },
    { startJobs: true },
  );
  const source = useFixture(() => createSourceWithKey(t, { maxCost: 10 }));

  beforeAll(() => {
    expect(t.deps.config.DELIVERY_RETRY_DELAYS_MS).toEqual(DESIGN_SCHEDULE);
  });

  async function sell(state: string, zip: string) {
    const res = await t.sourceApi('/api/lead', source.apiKey, {
      service: 'roofing',
      zip,
      name: 'Pat Lee',
      phone: uniquePhone(),
      tcpa_consent: true,
    });
    expect(res.json(), state).toMatchObject({ ok: true, status: 'sold' });
    const [match] = await t.database.db.select().from(leadMatches).where(eq(leadMatches.leadId, res.json().lead_id));
    if (!match) throw new Error('no match');
    return match.id;
  }

  /** The job of `step` once the worker has inserted it; then it is made due now. */
  async function waitedThenDue(matchId: string, step: number) {
    const job = await eventually(
      async () => (await notifyJobsOf(t.database.db, matchId)).find((j) => j.step === step),
      10_000,
      `the retry job of step ${step}`,
    );
    if (!job) throw new Error(`no job of step ${step}`);
    await t.database.db.execute(
      sql`update pgboss.job set start_after = now() where id = ${job.id}::uuid and state = 'created'`,
    );
    return job;
  }

  it("spaces a failing webhook's attempts by 10 s, 1 min, 5 min, 15 min and 30 min, then ends the chain", async () => {
    const buyer = await createBuyer(t);
    const campaignId = await createCampaign(t, buyer._id, { price: 40, states: ['TX'] });
    http.script('/down', [], 503);
    await t.database.db
      .update(campaigns)
      .set({ notify: { email: [], sms: [], webhook: http.url('/down'), broadcast_webhooks: [] } })
      .where(eq(campaigns.id, campaignId));
    const matchId = await sell('TX', '75201');
    await t.deps.jobs.dispatch();

    const waits: number[] = [];
    for (let step = 1; step <= DESIGN_SCHEDULE.length; step++) {
      const job = await waitedThenDue(matchId, step);
      waits.push(job.delayMs);
    }
    expect(waits).toEqual(DESIGN_SCHEDULE);

    // The sixth attempt was the last: no seventh job, and the match is undelivered.
    await eventually(
      async () =>
        (await notifyJobsSettled(t.database.db, matchId)) &&
        (await t.database.db.select().from(leadMatches).where(eq(leadMatches.id, matchId)))[0]?.deliveryStatus ===
          'undelivered',
      10_000,
      'the chain to end',
    );
    const jobs = await notifyJobsOf(t.database.db, matchId);
    expect(jobs.map((j) => [j.step, j.state])).toEqual([
      [0, 'completed'],
      ...DESIGN_SCHEDULE.map((_, i) => [i + 1, 'completed']),
    ]);
    const attempts = await t.database.db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.matchId, matchId))
      .orderBy(deliveryAttempts.attempt);
    expect(attempts.map((a) => [a.attempt, a.statusCode, a.last])).toEqual([
      [1, 503, false],
      [2, 503, false],
      [3, 503, false],
      [4, 503, false],
      [5, 503, false],
      [6, 503, true],
    ]);
    expect(http.on('/down')).toHaveLength(6);
  });

  it("continues a custom delivery the sale tried at the first retry, 10 s after the sale's attempt", async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { price: 40, states: ['CA'] });
    // The sale runs the live delivery inline (DESIGN.md §6): a 503 keeps the sale and leaves the
    // delivery to a retry job.
    http.script('/crm', [503], { status: 200, body: '{"ok":true}' });
    const { _id: deliveryId } = await createDelivery(t, admin.cookie, {
      buyer: buyer._id,
      name: 'CRM',
      url: http.url('/crm'),
      accept: [{ field: 'ok', value: 'true' }],
      map: [{ field: 'phone', value: 'Phone' }],
      status: 'live',
    });
    const matchId = await sell('CA', '90210');
    expect(http.on('/crm')).toHaveLength(1);
    await t.deps.jobs.dispatch();

    const first = await waitedThenDue(matchId, 1);
    expect(first).toMatchObject({ channel: 'custom', target: deliveryId, delayMs: DESIGN_SCHEDULE[0] });
    await eventually(
      async () =>
        (await t.database.db.select().from(leadMatches).where(eq(leadMatches.id, matchId)))[0]?.deliveryStatus ===
        'delivered',
      10_000,
      'delivered',
    );
    await eventually(() => notifyJobsSettled(t.database.db, matchId), 10_000, 'the jobs to end');
    // One retry, accepted: the chain ends there.
    expect((await notifyJobsOf(t.database.db, matchId)).map((j) => [j.step, j.state])).toEqual([[1, 'completed']]);
    expect(http.on('/crm')).toHaveLength(2);
  });
});

import { describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, postSoldLead } from '../../test/factories';
import { useFixture } from '../../test/fixtures';
import { type TestApp, useTestApp } from '../../test/harness';
import { eventually, type HttpReceiver, notifyJobsOf, useReceivers } from '../../test/receivers';

/**
 * Issue 28: the notify workers keep up with the sales. pg-boss 10 waits a whole poll interval after
 * every fetch, so one worker delivered at most a batch (10) per JOB_POLL_SECONDS: after a database
 * outage, hundreds of sold leads were still undelivered 30 s after its return. Here the poll interval
 * is a minute, longer than any test waits: whatever is delivered was fetched because the dispatcher
 * woke the workers, or because a full batch made its worker fetch again at once.
 */

const SLOW_POLL = {
  PUBLIC_API_RATE_LIMIT: 0,
  ALLOW_PRIVATE_DELIVERY_TARGETS: true,
  JOB_POLL_SECONDS: 60,
  // The test drives the dispatcher itself.
  DISPATCH_INTERVAL_MS: 3_600_000,
};

/** A describe's exchange with `workers` notify workers (started by its tests), its receivers and a source. */
function useWorkersExchange(workers: number) {
  const { http } = useReceivers();
  const t = useTestApp({ ...SLOW_POLL, DELIVERY_WORKERS: workers });
  const source = useFixture(() => createSourceWithKey(t, { maxCost: 10 }));
  return { http, t, source };
}

/** A buyer whose campaign in `state` posts its leads to the receiver's `path`. */
async function webhookBuyer(t: TestApp, http: HttpReceiver, state: string, path: string) {
  const buyer = await createBuyer(t);
  await createCampaign(t, buyer._id, { price: 40, states: [state], webhook: http.url(path) });
}

const deliveredCount = (http: HttpReceiver, path: string) => new Set(http.on(path).map((r) => r.body)).size;

describe('one notify worker', () => {
  // The workers start in the test, after the sales: a sale's own dispatch would wake them for each lead.
  const { http, t, source } = useWorkersExchange(1);

  it('starts at the dispatch, not at its next poll, and fetches again at once while its batches come full', async () => {
    await webhookBuyer(t, http, 'TX', '/many');
    // A backlog, as after an outage: three full batches of 10 and a last one of 5.
    const sold = 35;
    for (let i = 0; i < sold; i++) await postSoldLead(t, source.apiKey, { zip: '75201' });
    await t.deps.jobs.start();
    await eventually(() => deliveredCount(http, '/many') === sold, 20_000, `the ${sold} deliveries`);
  });

  it("starts on a sale's jobs when the sale's dispatch has sent them", async () => {
    await postSoldLead(t, source.apiKey, { zip: '75201' });
    await eventually(() => deliveredCount(http, '/many') === 36, 20_000, 'the delivery of one more sale');
  });
});

describe('several notify workers', () => {
  // The workers start in the test, once the hanging buyer's leads are sold: their first dispatch
  // hands all ten to one worker (a sale's own dispatch would spread them over both).
  const { http, t, source } = useWorkersExchange(2);

  it("deliver other buyers' leads while one buyer's endpoint hangs", async () => {
    await webhookBuyer(t, http, 'TX', '/hangs');
    await webhookBuyer(t, http, 'FL', '/answers');
    http.script('/hangs', [], 'hang');
    const hanging = [];
    for (let i = 0; i < 10; i++) hanging.push(await postSoldLead(t, source.apiKey, { zip: '75201' }));
    await t.deps.jobs.start();
    // One worker holds the hanging buyer's batch.
    await eventually(() => http.on('/hangs').length === 10, 10_000, "the hanging buyer's 10 requests");

    for (let i = 0; i < 5; i++) await postSoldLead(t, source.apiKey, { zip: '33101' });
    await t.deps.jobs.dispatch();
    await eventually(() => deliveredCount(http, '/answers') === 5, 10_000, "the other buyer's 5 deliveries");
    // Delivered while the hanging batch still runs: another worker took them.
    for (const sale of hanging) {
      expect((await notifyJobsOf(t.database.db, sale.matchId)).map((j) => j.state)).toEqual(['active']);
    }
  });
});

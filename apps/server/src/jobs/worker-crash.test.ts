import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind, testDatabaseUrl } from '../../test/database';
import { createBuyer, createCampaign, createSourceWithKey, postSoldLead } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { type LeadexProcess, startLeadexProcess, stopLeadexProcess } from '../../test/processes';
import { eventually, startHttpReceiver } from '../../test/receivers';
import { deliveryAttempts, leadMatches } from '../db/schema';

/**
 * Issue 6: a worker process killed (SIGKILL) in the middle of a delivery loses nothing: after a
 * restart the job runs again, the delivery completes, and the receiver can drop the duplicate by its
 * webhook-id. A worker is its own OS process on PostgreSQL (LEADEX_ROLE=worker), so on PGlite this
 * is skipped, by name.
 */

const SECRET = 'worker-crash-test-secret-0123456789abcdef';

type Worker = LeadexProcess;

/** Starts `main.ts` as a worker only (no HTTP) on the test database, with test-sized delays. */
function startWorker(databaseUrl: string): Worker {
  return startLeadexProcess('worker', databaseUrl, {
    NODE_ENV: 'development',
    LEADEX_ROLE: 'worker',
    LEADEX_SECRET: SECRET,
    ALLOW_PRIVATE_DELIVERY_TARGETS: 'true',
    DELIVERY_RETRY_DELAYS_MS: '50,50',
    JOB_EXPIRE_SECONDS: '2',
    JOB_POLL_SECONDS: '0.5',
    DISPATCH_INTERVAL_MS: '100',
  });
}

async function waitStarted(worker: Worker, timeoutMs = 45_000) {
  await eventually(
    () => {
      if (worker.child.exitCode !== null)
        throw new Error(`the worker exited with ${worker.child.exitCode}:\n${worker.output.join('')}`);
      return worker.output.join('').includes('Leadex worker started');
    },
    timeoutMs,
    'the worker to start',
  );
}

const stop = (worker: Worker, signal: NodeJS.Signals) => stopLeadexProcess(worker, signal, 10_000);

describe.skipIf(testDatabaseKind !== 'postgres')(
  'a worker process killed in the middle of a delivery (PostgreSQL only)',
  () => {
    let t: TestApp;
    let http: Awaited<ReturnType<typeof startHttpReceiver>>;
    const workers: Worker[] = [];

    beforeAll(async () => {
      http = await startHttpReceiver();
      t = await createTestApp({ PUBLIC_API_RATE_LIMIT: 0, LEADEX_SECRET: SECRET });
    });

    afterAll(async () => {
      for (const w of workers) await stop(w, 'SIGKILL');
      await t?.close();
      await http?.close();
    });

    it('runs the delivery again after a restart; the receiver sees one webhook-id twice', async () => {
      const buyer = await createBuyer(t);
      await createCampaign(t, buyer._id, { price: 40, states: ['TX'], webhook: http.url('/slow') });
      const { apiKey } = await createSourceWithKey(t, { maxCost: 10 });
      // The first request hangs: the worker is killed while it waits for the answer.
      http.script('/slow', ['hang'], 200);

      const url = testDatabaseUrl(t.database);
      const first = startWorker(url);
      workers.push(first);
      await waitStarted(first);

      // This process (jobs not started here) sells; the worker process delivers.
      const { match } = await postSoldLead(t, apiKey, { tcpa_consent: true });

      await eventually(() => http.on('/slow').length === 1, 20_000, 'the first delivery to arrive');
      await stop(first, 'SIGKILL');
      expect(
        (await t.database.db.select().from(leadMatches).where(eq(leadMatches.id, match.id)))[0]?.deliveryStatus,
      ).toBe('queued');

      const second = startWorker(url);
      workers.push(second);
      await waitStarted(second);
      await eventually(
        async () =>
          (await t.database.db.select().from(leadMatches).where(eq(leadMatches.id, match.id)))[0]?.deliveryStatus ===
          'delivered',
        30_000,
        `delivery after the restart:\n${second.output.join('')}`,
      );

      const calls = http.on('/slow');
      expect(calls).toHaveLength(2);
      const ids = calls.map((c) => c.headers['webhook-id']);
      expect(ids[0]).toMatch(/^msg_/);
      expect(ids[1]).toBe(ids[0]);
      const attempts = await t.database.db
        .select()
        .from(deliveryAttempts)
        .where(eq(deliveryAttempts.matchId, match.id));
      expect(attempts.filter((a) => a.accepted)).toHaveLength(1);
      await stop(second, 'SIGTERM');
      expect(second.child.exitCode ?? second.child.signalCode).toBe(0);
    }, 120_000);
  },
);

import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind, testDatabaseUrl } from '../../../test/database';
import { createBuyer, createCampaign, createSourceWithKey, leadInput } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/harness';
import { type LeadexProcess, startLeadexProcess, stopLeadexProcess, waitHealthy } from '../../../test/processes';
import { eventually, startHttpReceiver } from '../../../test/receivers';
import { leadMatches, leads } from '../../db/schema';

/**
 * Group commit (issue 36 item 1) and a crash: a server process (main.ts, jobs included) is killed
 * (SIGKILL) while concurrent posts are being stored in groups. A post is answered only once its
 * group has committed, so every lead answered "sold" is stored with its match (the deliveries'
 * outbox), and a new process delivers every one of them. PGlite runs in the test's own process:
 * skipped there, by name.
 */

const SECRET = 'group-crash-test-secret-0123456789abcdef';
/** Concurrent callers posting directly, in a loop: enough for the sales to be stored in groups. */
const LANES = 24;
/** Sales answered before the kill. */
const SOLD_BEFORE_KILL = 60;
const DELIVERED_WITHIN_MS = 60_000;

describe.skipIf(testDatabaseKind !== 'postgres')(
  'a server killed while it stores sales in groups (PostgreSQL only)',
  () => {
    let t: TestApp;
    let receiver: Awaited<ReturnType<typeof startHttpReceiver>>;
    const processes: LeadexProcess[] = [];
    const deliveredIds = () =>
      new Set(receiver.on('/buyer').map((r) => (JSON.parse(r.body) as { data: { lead_id: string } }).data.lead_id));

    beforeAll(async () => {
      receiver = await startHttpReceiver();
      t = await createTestApp({ PUBLIC_API_RATE_LIMIT: 0, LEADEX_SECRET: SECRET });
    });

    afterAll(async () => {
      for (const p of processes) await stopLeadexProcess(p, 'SIGKILL');
      await t?.close();
      await receiver?.close();
    });

    const start = async (name: string) => {
      const server = startLeadexProcess(name, testDatabaseUrl(t.database), {
        NODE_ENV: 'development',
        LEADEX_SECRET: SECRET,
        ALLOW_PRIVATE_DELIVERY_TARGETS: 'true',
        // Deliveries the killed process had taken are taken again after seconds, not the default minutes.
        JOB_EXPIRE_SECONDS: '2',
        JOB_POLL_SECONDS: '0.5',
        DISPATCH_INTERVAL_MS: '100',
      });
      processes.push(server);
      await waitHealthy(server);
      return server;
    };

    it('delivers every lead answered "sold" before the kill, each stored with its match', async () => {
      const buyer = await createBuyer(t);
      await createCampaign(t, buyer._id, { price: 40, states: ['TX'], webhook: receiver.url('/buyer') });
      const { apiKey } = await createSourceWithKey(t, { maxCost: 10, canPostLead: true });
      const first = await start('first');

      const sold: string[] = [];
      let killed = false;
      const lanes = Array.from({ length: LANES }, async () => {
        while (!killed) {
          try {
            const res = await fetch(`${first.url}/api/lead`, {
              method: 'POST',
              headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
              body: JSON.stringify(leadInput({ tcpa_consent: true })),
            });
            const body = (await res.json()) as { status?: string; lead_id?: string };
            if (res.status === 200 && body.status === 'sold' && body.lead_id) sold.push(body.lead_id);
          } catch {
            // The process was killed with this post in flight: it was never answered "sold".
          }
        }
      });
      await eventually(() => sold.length >= SOLD_BEFORE_KILL, 60_000, `${SOLD_BEFORE_KILL} sales`);
      await stopLeadexProcess(first, 'SIGKILL');
      killed = true;
      await Promise.all(lanes);

      // Every answered sale is stored sold, with its match.
      const stored = await t.database.db
        .select({ id: leads.id, sold: leads.sold })
        .from(leads)
        .where(inArray(leads.id, sold));
      expect(stored.filter((l) => l.sold)).toHaveLength(sold.length);
      const matched = await t.database.db
        .select({ leadId: leadMatches.leadId })
        .from(leadMatches)
        .where(inArray(leadMatches.leadId, sold));
      expect(new Set(matched.map((m) => m.leadId)).size).toBe(sold.length);

      await start('second');
      await eventually(
        () => sold.every((id) => deliveredIds().has(id)),
        DELIVERED_WITHIN_MS,
        'every lead answered "sold" delivered',
      ).catch((error) => {
        const missing = sold.filter((id) => !deliveredIds().has(id));
        const output = processes.map((p) => p.output.join('').slice(-2000)).join('\n');
        throw new Error(`${String(error)}: ${missing.length} of ${sold.length} not delivered\n${output}`);
      });
    }, 180_000);
  },
);

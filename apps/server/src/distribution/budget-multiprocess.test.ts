import { DEFAULT_EXCHANGE_ZONE as DEFAULT_ZONE } from '@leadex/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind, testDatabaseUrl } from '../../test/database';
import { createBuyer, createCampaign, createSourceWithKey } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { call, contactsOf, type LeadexProcess, startServers, stopServers } from '../../test/processes';
import { budgetCounters, campaigns, leadMatches, leads } from '../db/schema';
import { currentPeriods } from '../lib/time';
import { bumpEngineVersion } from './engine-version';

/**
 * Issue 33 item 4, its Must show: budget caps are atomic across processes like the lead caps. Two
 * real server processes on the test file's own PostgreSQL database race 300 pings and their posts
 * against a $500 daily budget at $25 a lead: exactly 20 sell to that campaign, the rest to the next
 * buyer. PGlite is one process, so there it is skipped (visibly, by name).
 */
const SECRET = 'budget-multiprocess-secret-0123456789abcdef';
const ZIP = '75201';

let t: TestApp;
let servers: LeadexProcess[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const contact = contactsOf('Pat Budget', 3_000_000, 'budget');

function spread<T>(n: number, request: (server: LeadexProcess, i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => request(servers[i % servers.length] as LeadexProcess, i)));
}

describe.skipIf(testDatabaseKind !== 'postgres')(
  'budget caps across two server processes (PostgreSQL only: PGlite is one process)',
  () => {
    beforeAll(async () => {
      t = await createTestApp({ PUBLIC_API_RATE_LIMIT: 0, LEADEX_SECRET: SECRET });
      const env = { NODE_ENV: 'production', LEADEX_SECRET: SECRET };
      const url = testDatabaseUrl(t.database);
      servers = await startServers(url, env);
    }, 60_000);

    afterAll(async () => {
      await stopServers(servers);
      await t?.close();
    }, 30_000);

    it('300 pings and posts over both processes against a $500 daily budget at $25 sell exactly 20 to it', async () => {
      // The processes count on the system clock: the race must not straddle midnight in the exchange zone.
      const now = Date.now();
      const next = currentPeriods(DEFAULT_ZONE, new Date(now + 60_000)).daily.getTime();
      if (next !== currentPeriods(DEFAULT_ZONE, new Date(now)).daily.getTime()) await sleep(next - now + 100);

      const service = 'roofing';
      const budgeted = await createCampaign(t, (await createBuyer(t))._id, {
        services: [service],
        states: ['TX'],
        price: 25,
      });
      const fallback = await createCampaign(t, (await createBuyer(t))._id, {
        services: [service],
        states: ['TX'],
        price: 15,
      });
      const { sourceId, apiKey } = await createSourceWithKey(t, { maxCost: 10, canPostLead: true });
      await t.database.db.transaction(async (tx) => {
        await tx.update(campaigns).set({ budgetDailyCents: 50_000 }).where(eq(campaigns.id, budgeted));
        await bumpEngineVersion(tx, 'campaigns');
        await bumpEngineVersion(tx, 'sources');
      });
      // Both processes have loaded the source (and so the budget, in the same snapshot) once a ping is quoted.
      for (const server of servers)
        for (let i = 0; ; i += 1) {
          const a = await call(server, '/api/ping', apiKey, { service, zip: ZIP });
          if (a.body.ok === true) break;
          if (i > 1200) throw new Error(`${server.name} never quoted: ${JSON.stringify(a.body)}`);
          await sleep(25);
        }

      const pings = await spread(300, (server) => call(server, '/api/ping', apiKey, { service, zip: ZIP }));
      for (const p of pings) expect(p.body, JSON.stringify(p.body)).toMatchObject({ ok: true });
      // Each ping signed by one process is posted to the other.
      const answers = await spread(300, (_server, i) =>
        call(servers[(i + 1) % servers.length] as LeadexProcess, '/api/post', apiKey, {
          ping_id: pings[i]?.body.ping_id,
          ...contact(),
        }),
      );
      for (const a of answers) expect(a.status, JSON.stringify(a.body)).toBe(200);

      const db = t.database.db;
      const leadRows = await db.select({ id: leads.id }).from(leads).where(eq(leads.sourceId, sourceId));
      expect(leadRows.length).toBe(300);
      const toBudgeted = await db.select().from(leadMatches).where(eq(leadMatches.campaignId, budgeted));
      const toFallback = await db.select().from(leadMatches).where(eq(leadMatches.campaignId, fallback));
      expect(toBudgeted.length).toBe(20);
      // The rest went to the next buyer (a lead is sold once: no lead in both).
      const sold = answers.filter((a) => a.body.ok === true).length;
      expect(toFallback.length).toBe(sold - 20);
      expect(sold).toBe(300);
      const ids = new Set(toBudgeted.map((m) => m.leadId));
      expect(toFallback.some((m) => ids.has(m.leadId))).toBe(false);
      const [counter] = await db.select().from(budgetCounters).where(eq(budgetCounters.ownerId, budgeted));
      expect(counter).toMatchObject({ period: 'daily', spentCents: 50_000 });
    }, 180_000);
  },
);

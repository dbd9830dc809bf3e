/**
 * The server under test, in a process of its own so the load generator does not share its event
 * loop: the real app (createDeps + buildApp) plus two baseline routes on the same Fastify
 * instance. Started by bench/run.ts with BENCH_DB_URL and BENCH_SECRET; talks over IPC.
 */

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { createDeps } from '../apps/server/src/deps';
import { systemClock } from '../apps/server/src/lib/clock';
import { newId } from '../apps/server/src/lib/ids';
import { createProfiler } from './profile';

/** The baseline INSERT's table, created by bench/run.ts. */
const benchRows = pgTable('bench_rows', {
  id: text('id').primaryKey(),
  payload: jsonb('payload').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** About the size of a ping's answer (a signed ping_id of ~300 characters, a price, an expiry). */
const CONSTANT = {
  ok: true,
  ping_id: `${'eyJpZCI6InBuZ18wMWpmMDAwMDAwMDAwMDAwMDAwMDAwMDAwMCIsInNvdXJjZUlkIjoic3JjXzAxamYw'.repeat(3)}.${'x'.repeat(43)}`,
  price: 10,
  expires: 1_767_225_600,
};

export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
}

/** The server's memory after a forced full collection (bytes), for the soak (bench/soak.ts). */
export interface HeapSample {
  heapUsed: number;
  heapTotal: number;
  rss: number;
  external: number;
  arrayBuffers: number;
}

export type ServerMessage =
  | { type: 'ready'; port: number; poolSize: number }
  | { type: 'heap'; heap: HeapSample }
  | { type: 'snapshot'; file: string }
  | { type: 'loop'; delay: LoopDelay }
  | { type: 'profile'; profile: ReturnType<ReturnType<typeof createProfiler>['take']> };
export type ParentMessage =
  | { type: 'stop' }
  | { type: 'profile-start' }
  | { type: 'profile' }
  | { type: 'loop-start' }
  | { type: 'loop' }
  | { type: 'heap' }
  | { type: 'snapshot'; file: string };

/**
 * The heap after a forced full collection (the server runs with --expose-gc for the soak): what is
 * still reachable, not what the collector has yet to free. Twice, so objects with finalizers and weak
 * references cleared by the first pass are gone too.
 */
function collectedHeap(): HeapSample {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the bench server needs --expose-gc to measure its heap');
  gc();
  gc();
  const { heapUsed, heapTotal, rss, external, arrayBuffers } = process.memoryUsage();
  return { heapUsed, heapTotal, rss, external, arrayBuffers };
}

async function main() {
  const url = process.env.BENCH_DB_URL;
  if (!url || !process.send) throw new Error('bench/server.ts is started by bench/run.ts');
  const profiler = createProfiler(pg);
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: url,
    LEADEX_SECRET: process.env.BENCH_SECRET,
    LOG_LEVEL: 'silent',
    PUBLIC_API_RATE_LIMIT: '0',
    PUBLIC_URL: 'http://127.0.0.1',
    SEED_DEMO: 'false',
    // The scale-out runs `api` processes (HTTP only) as production would behind a load balancer.
    LEADEX_ROLE: process.env.LEADEX_ROLE === 'api' ? 'api' : 'all',
    ...(process.env.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE } : {}),
    // The Ping/Post scenario's buyers are local HTTP servers (bench/pingpost.ts).
    ...(process.env.BENCH_ALLOW_PRIVATE_DELIVERY_TARGETS === 'true' ? { ALLOW_PRIVATE_DELIVERY_TARGETS: 'true' } : {}),
  });
  const database = await openDatabase({ url, poolSize: config.DATABASE_POOL_SIZE });
  const deps = createDeps(config, database.db, systemClock);
  const app = await buildApp(deps);

  // Baselines, on the same instance (same hooks, helmet headers, request ids) and the same pool.
  app.get('/bench/constant', async () => CONSTANT);
  app.post('/bench/insert', async (request) => {
    const id = newId('lead');
    await deps.db.insert(benchRows).values({ id, payload: request.body ?? {}, createdAt: new Date() });
    return { ok: true, id };
  });

  await app.listen({ host: '127.0.0.1', port: 0 });
  // The job workers too, as a production process runs them beside the server (the soak: all its state).
  const jobs = process.env.BENCH_JOBS === 'true';
  if (jobs) await database.withStartupLock(() => deps.jobs.start());
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  // How long callbacks wait for the event loop (ms): high when one process does too much at once.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'loop-start') {
      loop.reset();
    } else if (message.type === 'loop') {
      const delay = { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 };
      process.send?.({ type: 'loop', delay } satisfies ServerMessage);
    } else if (message.type === 'heap') {
      process.send?.({ type: 'heap', heap: collectedHeap() } satisfies ServerMessage);
    } else if (message.type === 'snapshot') {
      // Blocks the event loop for seconds on a big heap: a diagnostic run's tool, not the soak's verdict.
      process.send?.({ type: 'snapshot', file: writeHeapSnapshot(message.file) } satisfies ServerMessage);
    } else if (message.type === 'profile-start') {
      profiler.enable();
    } else if (message.type === 'profile') {
      process.send?.({ type: 'profile', profile: profiler.take() } satisfies ServerMessage);
    } else if (message.type === 'stop') {
      void (jobs ? deps.jobs.stop() : Promise.resolve())
        .then(() => app.close())
        .then(() => database.close())
        .finally(() => process.exit(0));
    }
  });
  // The parent died: do not linger.
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', port, poolSize: config.DATABASE_POOL_SIZE } satisfies ServerMessage);
}

main().catch((error) => {
  console.error('bench server:', error);
  process.exit(1);
});

/**
 * `npm run bench`: the public source API under load on PostgreSQL, reported as ratios against
 * baselines measured in the same run (DESIGN.md §9, issue 4 item 10):
 *   (a) GET /bench/constant: a constant JSON answer, the ceiling for a ping
 *   (b) POST /bench/insert: one INSERT per request, the ceiling for a post
 *   (c) POST /api/ping over random (service, ZIP) pairs of a seeded exchange
 *   (d) POST /api/post following pings made beforehand
 * Env: BENCH_DATABASE_URL (a server where a database may be created), BENCH_SECONDS (10),
 * BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (50), BENCH_OUTPUT (docs/benchmarks.md),
 * BENCH_SERVER_ARGS (extra node flags for the server process, e.g. `--cpu-prof`), BENCH_KEEP_DB (keep the
 * database afterwards, to look into it), BENCH_ONLY (`engine`, `leads`, `pingpost` or `scaleout`: one part alone;
 * the leads lists at 1,000,000 leads run after the engine's scenarios, see bench/leads.ts, then pings with Ping/Post
 * buyers, see bench/pingpost.ts, then 1, 2 and 4 API processes, see bench/scaleout.ts), BENCH_SUPPRESSION (load a
 * 1,000,000-entry global list and 100,000-entry buyer lists first, see bench/suppression.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openDatabase } from '../apps/server/src/db/client';
import { startBenchServer, stopBenchServer } from './child';
import { ADMIN_URL, benchDatabase, dropBenchDatabase } from './database';
import { positive } from './env';
import { runLeadsBench } from './leads';
import { collectPings, JSON_HEADERS, type PooledPing, pingBodies, postBody, runLoad } from './load';
import { cpuWindow, processCpuMs, sampleActivity } from './machine';
import { runPingPostBench } from './pingpost';
import {
  type Check,
  earlierRunsOf,
  renderMarkdown,
  renderTable,
  type Scenario,
  SOAK_SECTION,
  sectionOf,
  writeSection,
} from './report';
import { runScaleOutBench } from './scaleout';
import { type BenchExchange, prng, seedBenchDatabase } from './seed';
import type { ParentMessage, ServerMessage } from './server';
import { seedSuppressionLists, suppressionBenchSize } from './suppression';

const SECONDS = positive('BENCH_SECONDS', 10);
const WARMUP_SECONDS = positive('BENCH_WARMUP_SECONDS', 2);
const CONNECTIONS = positive('BENCH_CONNECTIONS', 50);
const PROFILE_SECONDS = 3;
/** Connections of the informational light-load runs (c') and (d'). */
const LIGHT_CONNECTIONS = 5;
const OUTPUT = process.env.BENCH_OUTPUT ?? fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
/** Ping tokens live 300 s: the pool is pinged right before the posts and must be used up well within that. */
const TOKEN_BUDGET_SECONDS = 280;

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
const log = (message: string) => console.log(`[bench] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Connects to the PostgreSQL server the bench creates its database on, or explains why it cannot. */
async function connectAdmin(): Promise<{ admin: pg.Client; version: string }> {
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
    const { rows } = await admin.query<{ server_version: string }>('show server_version');
    return { admin, version: rows[0]?.server_version ?? 'unknown' };
  } catch (error) {
    await admin.end().catch(() => {});
    console.error(
      `\nnpm run bench needs a reachable PostgreSQL server (it measures the engine on PostgreSQL, not PGlite).\n` +
        `Could not connect to ${redact(ADMIN_URL)}: ${error instanceof Error ? error.message : String(error)}\n` +
        'Start PostgreSQL, or set BENCH_DATABASE_URL=postgres://user:password@host:port/database ' +
        '(a role that may CREATE DATABASE; the bench creates and drops its own leadex_bench_* database).\n',
    );
    process.exit(1);
  }
}

/** Starts the server under test (BENCH_SERVER_ARGS: extra node flags, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`). */
const startServer = (url: string, secret: string) =>
  startBenchServer(url, secret, { nodeArgs: process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? [] });

function send(child: ChildProcess, message: ParentMessage) {
  child.send(message);
}

/** Asks the server for something and waits for the answer of that type. */
function ask<T extends ServerMessage['type']>(
  child: ChildProcess,
  type: T & ParentMessage['type'],
): Promise<Extract<ServerMessage, { type: T }>> {
  return new Promise((resolve) => {
    const onMessage = (message: ServerMessage) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message as Extract<ServerMessage, { type: T }>);
    };
    child.on('message', onMessage);
    send(child, { type } as ParentMessage);
  });
}

const stopServer = stopBenchServer;

async function rowsOf<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await database.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

async function count(database: Database, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await rowsOf<{ n: string | number }>(database, query);
  return Number(row?.n ?? 0);
}

async function main() {
  const started = new Date();
  const loadBefore = os.loadavg();
  const { admin, version } = await connectAdmin();
  const { name: dbName, url: benchUrl, secret } = benchDatabase('leadex_bench');

  let database: Database | null = null;
  let child: ChildProcess | null = null;
  let created = false;
  let cleaning: Promise<void> | null = null;
  const cleanup = () => {
    cleaning ??= (async () => {
      if (child) await stopServer(child).catch(() => {});
      if (database) await database.close().catch(() => {});
      if (created && process.env.BENCH_KEEP_DB) log(`kept database ${dbName} (BENCH_KEEP_DB)`);
      else if (created) {
        await dropBenchDatabase(admin, dbName)
          .then(() => log(`dropped database ${dbName}`))
          .catch((error) => console.error(`[bench] could not drop database ${dbName}:`, error));
      }
      await admin.end().catch(() => {});
    })();
    return cleaning;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`\n[bench] ${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    await admin.query(`create database "${dbName}"`);
    created = true;
    log(`PostgreSQL ${version} at ${redact(ADMIN_URL)}: created database ${dbName}`);

    database = await openDatabase({ url: benchUrl, poolSize: 4 });
    await database.migrate();
    const exchange = await seedBenchDatabase(database.db, secret);
    const suppression = suppressionBenchSize();
    if (suppression) {
      const ms = await seedSuppressionLists(database.db, secret, suppression);
      log(
        `loaded suppression lists: ${suppression.global} global phones, ${suppression.perBuyer} emails for each of ${suppression.buyers} buyers (${Math.round(ms / 1000)} s)`,
      );
    }
    await database.db.execute(
      sql`create table bench_rows (id text primary key, payload jsonb not null, created_at timestamptz not null)`,
    );
    log(
      `seeded ${exchange.summary.buyers} buyers, ${exchange.summary.campaigns} live campaigns over ${exchange.zipCount} ZIPs ` +
        `(${exchange.matching.length} bought service/ZIP pairs), 2 sources`,
    );

    const server = await startServer(benchUrl, secret);
    child = server.child;
    const url = `http://127.0.0.1:${server.port}`;
    log(`server listening on ${url} (pool ${server.poolSize}); ${CONNECTIONS} connections, ${SECONDS} s per run`);

    const result = await runScenarios(url, exchange, admin, dbName, server.child, database);
    const machine = {
      date: started.toISOString(),
      nproc: os.cpus().length,
      cpu: os.cpus()[0]?.model ?? 'unknown',
      memoryGb: Math.round(os.totalmem() / 1e9),
      node: process.version,
      postgres: version,
      loadBefore,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      connections: CONNECTIONS,
      poolSize: server.poolSize,
    };
    console.log(`\n${renderTable(result.scenarios, result.checks)}`);
    const earlier = earlierRunsOf(OUTPUT);
    // The hour's soak is not re-run by the bench: its section stays.
    const soak = sectionOf(OUTPUT, SOAK_SECTION);
    writeFileSync(
      OUTPUT,
      `${renderMarkdown({ machine, exchange: exchange.summary, ...result }).trimEnd()}\n${earlier}`,
    );
    if (soak) writeSection(OUTPUT, SOAK_SECTION, soak);
    log(`wrote ${OUTPUT}`);
    if (result.checks.some((c) => !c.ok)) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

async function runScenarios(
  url: string,
  exchange: BenchExchange,
  admin: pg.Client,
  dbName: string,
  child: ChildProcess,
  database: Database,
) {
  const rnd = prng(42);
  const options = { url, connections: CONNECTIONS, seconds: SECONDS };
  const warm = { ...options, seconds: WARMUP_SECONDS };
  const keys = exchange.keys.map((key, i) => ({ key, sourceId: exchange.sourceIds[i] as string }));
  const auth = (i: number) => `Bearer ${(keys[i % keys.length] as { key: string }).key}`;
  const tag = randomBytes(3).toString('hex');
  const scenarios: Scenario[] = [];

  /**
   * Warm-up (discarded), then the timed run with CPU and PostgreSQL activity accounting. `light`
   * runs the (already warm) scenario again with a few connections: its latency below saturation.
   */
  async function measure(
    id: Scenario['id'],
    name: string,
    request: () => autocannon.Request,
    light?: { connections: number },
  ) {
    if (!light) {
      log(`${id}) ${name}: warm-up ${WARMUP_SECONDS} s`);
      await runLoad(warm, request());
      await sleep(500);
    }
    log(`${id}) ${name}: ${SECONDS} s`);
    const stopCpu = await cpuWindow(admin, dbName);
    const stopActivity = sampleActivity(admin, dbName);
    send(child, { type: 'loop-start' });
    const serverCpuBefore = child.pid ? processCpuMs(child.pid) : null;
    const result = await runLoad({ ...options, connections: light?.connections ?? CONNECTIONS }, request());
    const serverCpuAfter = child.pid ? processCpuMs(child.pid) : null;
    const { delay } = await ask(child, 'loop');
    const activity = await stopActivity();
    const cpu = await stopCpu();
    const scenario: Scenario = {
      id,
      name,
      result,
      light: light !== undefined,
      machineBusy: cpu.machineBusy,
      activity,
      loopDelay: delay,
      postgresMsPerRequest: result.requests.total > 0 ? cpu.postgresMs / result.requests.total : 0,
      serverMsPerRequest:
        serverCpuBefore !== null && serverCpuAfter !== null && result.requests.total > 0
          ? (serverCpuAfter - serverCpuBefore) / result.requests.total
          : null,
    };
    scenarios.push(scenario);
    log(
      `${id}) ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
        `non-2xx ${result.non2xx}, errors ${result.errors}`,
    );
    await sleep(1000);
    return scenario;
  }

  // (a) constant JSON
  await measure('a', 'baseline: constant JSON (GET /bench/constant)', () => ({
    method: 'GET',
    path: '/bench/constant',
  }));

  // (b) one INSERT per request, with a post-sized body
  const fakeToken = `${'eyJpZCI6InBuZ18wMWpm'.repeat(16)}.${'s'.repeat(43)}`;
  const insertBodies = Array.from({ length: 5000 }, (_, i) => postBody(fakeToken, 1_000_000 + i, tag));
  /** POSTs of the bodies in turn, each with the next source's key, as a source's system sends them. */
  const postsOf = (sendBodies: string[]) => {
    let sent = 0;
    return (request: autocannon.Request) => {
      const i = sent++;
      request.headers = { ...JSON_HEADERS, authorization: auth(i) };
      request.body = sendBodies[i % sendBodies.length] as string;
      return request;
    };
  };
  await measure('b', 'baseline: one INSERT (POST /bench/insert)', () => ({
    method: 'POST',
    path: '/bench/insert',
    setupRequest: postsOf(insertBodies),
  }));

  // (c) pings over random (service, ZIP) pairs: 95 % bought by some campaign, 5 % not
  const bodies = pingBodies(exchange.matching, exchange.unmatched, 50_000, rnd);
  const pingTally = { quoted: 0, noMatch: 0, other: 0 };
  const nextPing = postsOf(bodies);
  const pingRequest = (): autocannon.Request => ({
    method: 'POST',
    path: '/api/ping',
    setupRequest: nextPing,
    onResponse(status, body) {
      if (status !== 200) pingTally.other += 1;
      else if (body.startsWith('{"ok":true')) pingTally.quoted += 1;
      else if (body.includes('"no_match"')) pingTally.noMatch += 1;
      else pingTally.other += 1;
    },
  });
  const c = await measure('c', 'POST /api/ping', pingRequest);
  // (c') the same pings from a few connections: latency below saturation (informational).
  await measure("c'", `POST /api/ping, ${LIGHT_CONNECTIONS} connections`, pingRequest, {
    connections: LIGHT_CONNECTIONS,
  });

  // (d) posts following pings made just before (outside the timed part), each ping_id posted once
  const expectedPostRate = 2000;
  const wanted = Math.max(30_000, Math.ceil((2 * SECONDS + WARMUP_SECONDS + PROFILE_SECONDS) * expectedPostRate));
  log(`pinging ${wanted} matching pairs for the posts (not timed)`);
  const pingStart = Date.now();
  const matchingBodies = pingBodies(exchange.matching, [], 50_000, rnd, 0);
  const collected = await collectPings({ url, connections: CONNECTIONS }, keys, matchingBodies, wanted);
  const pool: PooledPing[] = collected.pool;
  log(`${pool.length} ping_ids in ${((Date.now() - pingStart) / 1000).toFixed(1)} s (${collected.refused} refused)`);
  if ((Date.now() - pingStart) / 1000 + 2 * SECONDS + WARMUP_SECONDS + PROFILE_SECONDS > TOKEN_BUDGET_SECONDS)
    log('warning: the ping pool may expire before the posts use it (tokens live 300 s); lower BENCH_SECONDS');

  const postTally = { sold: 0, noMatch: 0, otherOk200: 0, non2xx: 0, reused: 0 };
  /** The lead ids answered `sold`, to find each one in the database afterwards. */
  const soldIds: string[] = [];
  let next = 0;
  const postRequest = (): autocannon.Request => ({
    method: 'POST',
    path: '/api/post',
    setupRequest(request) {
      const i = next++;
      if (i >= pool.length) postTally.reused += 1;
      const ping = pool[i % pool.length] as PooledPing;
      request.headers = { ...JSON_HEADERS, authorization: `Bearer ${ping.key}` };
      request.body = postBody(ping.token, i, tag);
      return request;
    },
    onResponse(status, body) {
      if (status !== 200) postTally.non2xx += 1;
      else if (body.includes('"status":"sold"')) {
        postTally.sold += 1;
        const at = body.indexOf('"lead_id":"');
        if (at >= 0) soldIds.push(body.slice(at + 11, body.indexOf('"', at + 11)));
      } else if (body.includes('"no_match"')) postTally.noMatch += 1;
      else postTally.otherOk200 += 1;
    },
  });
  const d = await measure('d', 'POST /api/post (after a ping)', postRequest);
  // (d') the same posts from a few connections: a sale's latency below saturation (informational).
  await measure("d'", `POST /api/post, ${LIGHT_CONNECTIONS} connections`, postRequest, {
    connections: LIGHT_CONNECTIONS,
  });

  // Where a post's time goes: a short pass with the server timing each statement (not in the table).
  send(child, { type: 'profile-start' });
  const profiled = await runLoad({ ...options, seconds: PROFILE_SECONDS }, postRequest());
  const postProfile = { profile: (await ask(child, 'profile')).profile, requests: profiled.requests.total };

  // Correctness after the posts. autocannon stops with requests in flight (sent, never seen
  // answered), so first wait until the server has finished them, then read one snapshot.
  const postsSent = next;
  let leadsBefore = -1;
  for (let i = 0; i < 60; i++) {
    const n = await count(database, sql`select count(*) as n from leads`);
    if (n === leadsBefore) break;
    leadsBefore = n;
    await sleep(500);
  }
  const [stored] = await rowsOf<{ total: string; sold: string; pings: string; matched: string; at_loss: string }>(
    database,
    sql`select count(*) as total,
               count(*) filter (where answer->>'status' = 'sold') as sold,
               count(distinct ping_id) as pings,
               (select count(distinct lead_id) from lead_matches) as matched,
               count(*) filter (where answer->>'status' = 'sold' and price_cents < cost_cents) as at_loss
        from leads`,
  );
  const leadsStored = Number(stored?.total ?? 0);
  const soldLeads = Number(stored?.sold ?? 0);
  const matchedLeads = Number(stored?.matched ?? 0);
  const distinctPings = Number(stored?.pings ?? 0);
  const atLoss = Number(stored?.at_loss ?? 0);
  const foundSold = await count(
    database,
    sql`select count(*) as n from leads l
        where l.id = any(${sql.param(soldIds)}::text[]) and l.answer->>'status' = 'sold'
          and exists (select 1 from lead_matches m where m.lead_id = l.id)`,
  );
  const buyerTwice = await count(
    database,
    sql`select count(*) as n from (select lead_id, buyer_id from lead_matches group by 1, 2 having count(*) > 1) x`,
  );
  const capMismatch = await count(
    database,
    sql`select count(*) as n from (
          select c.campaign_id, c.period, sum(c.n) as counted,
                 (select count(*) from lead_matches m where m.campaign_id = c.campaign_id) as sold
          from cap_counters c group by 1, 2) x
        where counted <> sold`,
  );
  const answered = postTally.sold + postTally.noMatch + postTally.otherOk200;
  const checks: Check[] = [
    {
      name: 'every post answered 2xx, no connection errors or timeouts',
      ok: postTally.non2xx === 0 && d.result.errors === 0 && d.result.timeouts === 0,
      detail: `${postTally.non2xx} non-2xx, ${d.result.errors} errors, ${d.result.timeouts} timeouts`,
    },
    {
      name: 'leads stored as sold = leads with lead_matches',
      ok: soldLeads === matchedLeads,
      detail: `${soldLeads} stored as sold, ${matchedLeads} with lead_matches`,
    },
    {
      name: 'every post answered sold is stored sold, with its matches',
      ok: foundSold === postTally.sold && soldIds.length === postTally.sold,
      detail: `${postTally.sold} answered sold, ${foundSold} of them found sold with matches`,
    },
    {
      name: 'one lead per ping_id, every answered post stored',
      ok:
        leadsStored === distinctPings && leadsStored >= answered && leadsStored <= postsSent && postTally.reused === 0,
      detail:
        `${leadsStored} leads for ${distinctPings} ping_ids; ${answered} posts answered 200 of ${postsSent} sent ` +
        `(the rest were in flight when a run stopped)${postTally.reused ? `; ${postTally.reused} ping_ids reused: pool too small` : ''}`,
    },
    {
      name: 'posts following a quoted ping sold (caps out of reach)',
      ok: postTally.noMatch === 0 && postTally.otherOk200 === 0,
      detail: `${postTally.sold} sold, ${postTally.noMatch} no_match, ${postTally.otherOk200} other`,
    },
    { name: 'no lead sold below its payout', ok: atLoss === 0, detail: `${atLoss} at a loss` },
    { name: 'no buyer got the same lead twice', ok: buyerTwice === 0, detail: `${buyerTwice} repeats` },
    {
      name: 'cap counters = sales of each capped campaign',
      ok: capMismatch === 0,
      detail: `${capMismatch} (campaign, period) counters differ`,
    },
    {
      name: 'pings: no errors, most quoted',
      ok: pingTally.other === 0 && c.result.errors === 0 && pingTally.quoted > pingTally.noMatch * 5,
      detail: `${pingTally.quoted} quoted, ${pingTally.noMatch} no_match, ${pingTally.other} other`,
    },
  ];
  return { scenarios, checks, postProfile, pingTally, postTally, poolSize: pool.length };
}

/**
 * BENCH_ONLY picks one part: `engine` (this file's scenarios), `leads` (the leads lists, bench/leads.ts),
 * `pingpost` (pings with Ping/Post buyers, bench/pingpost.ts) or `scaleout` (1, 2 and 4 API processes,
 * bench/scaleout.ts); without it all four run in turn.
 */
async function all() {
  const only = process.env.BENCH_ONLY;
  if (only === undefined || only === '' || only === 'engine') await main();
  if ((only === undefined || only === '' || only === 'leads') && !(await runLeadsBench())) process.exitCode = 1;
  if ((only === undefined || only === '' || only === 'pingpost') && !(await runPingPostBench())) process.exitCode = 1;
  if ((only === undefined || only === '' || only === 'scaleout') && !(await runScaleOutBench())) process.exitCode = 1;
}

all().catch((error) => {
  console.error('[bench] failed:', error);
  process.exit(1);
});

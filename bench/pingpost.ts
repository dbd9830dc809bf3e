/**
 * Ping/Post (issue 16), run by `npm run bench` after the leads lists, or alone with
 * BENCH_ONLY=pingpost. The bench exchange (50 buyers, 200 fixed-price campaigns) gets 5 more buyers
 * whose live Ping/Post deliveries ping local HTTP servers answering a bid after 20-80 ms (uniform),
 * each delivery under a 100 ms timeout, and whose campaigns buy every service and state of the
 * exchange: every ping asks all 5. Timed: POST /api/ping one at a time and with 50 connections
 * (p99, throughput). Target: p99 at most the slowest buyer's timeout + 20 ms.
 * Env: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2), BENCH_PINGPOST_TIMEOUT_MS (100), BENCH_OUTPUT.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { webhookPingSchema } from '@leadex/domain';
import type autocannon from 'autocannon';
import pg from 'pg';
import { type Database, openDatabase } from '../apps/server/src/db/client';
import { buyers, campaigns, webhooks } from '../apps/server/src/db/schema';
import { newId } from '../apps/server/src/lib/ids';
import { startBenchServer, stopBenchServer } from './child';
import { ADMIN_URL, benchDatabase, dropBenchDatabase } from './database';
import { JSON_HEADERS, pingBodies, runLoad } from './load';
import { markdownTable, writeSection } from './report';
import { benchBuyerRow, prng, SERVICES, STATES, seedBenchDatabase } from './seed';

const OUTPUT = process.env.BENCH_OUTPUT ?? fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const SECTION = '## Ping/Post: pings with 5 bidding buyers (issue 16)';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const TIMEOUT_MS = Number(process.env.BENCH_PINGPOST_TIMEOUT_MS ?? 100);
const BIDDERS = 5;
/** How long a buyer's system takes to answer: uniform between these (ms). */
const ANSWER_MS = [20, 80] as const;
/** The target: a ping answers within the slowest buyer's timeout and this much more. */
const SLACK_MS = 20;
const CONNECTIONS = [1, 50] as const;

const log = (message: string) => console.log(`[bench pingpost] ${message}`);

/** A buyer's system: answers each ping with a bid after 20-80 ms; counts what it got. */
async function startBidder(seed: number) {
  const rnd = prng(seed);
  const tally = { pings: 0, posts: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/post') {
        tally.posts += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        return;
      }
      tally.pings += 1;
      const delay = ANSWER_MS[0] + rnd() * (ANSWER_MS[1] - ANSWER_MS[0]);
      const bid = (30 + Math.floor(rnd() * 3000) / 100).toFixed(2);
      setTimeout(() => {
        if (res.destroyed) return;
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(`{"ok":true,"bid":${bid},"id":"b${tally.pings}"}`);
      }, delay);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tally,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The 5 bidding buyers: a buyer, a campaign buying every service in every state, a live Ping/Post delivery. */
async function addBidders(database: Database, urls: string[]) {
  const now = new Date();
  for (const [i, url] of urls.entries()) {
    const buyerId = newId('buy');
    await database.db.insert(buyers).values(benchBuyerRow(buyerId, 'bidder', i + 1, now));
    await database.db.insert(campaigns).values({
      id: newId('cmp'),
      buyerId,
      name: `Bidder ${i + 1} everywhere`,
      fixedId: `BID-${i + 1}`,
      priceCents: 500,
      services: SERVICES,
      location: 'state',
      states: STATES,
      status: 'live',
      createdAt: now,
      updatedAt: now,
    });
    await database.db.insert(webhooks).values({
      id: newId('whk'),
      buyerId,
      name: `Bidder ${i + 1} system`,
      url: `${url}/post`,
      accept: [{ field: 'ok', value: 'true' }],
      map: [{ field: 'phone', value: 'phone' }],
      pingId: 'ping_post',
      // The schema fills in the rest as the API does: POST, JSON both ways, no headers.
      ping: webhookPingSchema.parse({
        url: `${url}/ping`,
        map: ['service', 'zip', 'state'].map((field) => ({ field, value: field })),
        accept: [{ field: 'ok', value: 'true' }],
        price_field: 'bid',
        ping_id_field: 'id',
        timeout_ms: TIMEOUT_MS,
      }),
      status: 'live',
      createdAt: now,
      updatedAt: now,
    });
  }
}

interface Run {
  connections: number;
  result: autocannon.Result;
  quoted: number;
  noMatch: number;
  other: number;
}

/** Pings over random bought (service, ZIP) pairs, with `connections` at once; tallies the answers. */
async function pings(url: string, keys: string[], bodies: string[], connections: number, seconds: number) {
  let n = 0;
  const tally = { quoted: 0, noMatch: 0, other: 0 };
  const result = await runLoad(
    { url, connections, seconds },
    {
      method: 'POST',
      path: '/api/ping',
      setupRequest(request) {
        const i = n++;
        request.headers = { ...JSON_HEADERS, authorization: `Bearer ${keys[i % keys.length]}` };
        request.body = bodies[i % bodies.length] as string;
        return request;
      },
      onResponse(status, body) {
        const answer = status === 200 ? (JSON.parse(body) as { ok?: boolean; reason?: string }) : null;
        if (answer?.ok) tally.quoted += 1;
        else if (answer?.reason === 'no_match') tally.noMatch += 1;
        else tally.other += 1;
      },
    },
  );
  return { connections, result, ...tally };
}

function section(runs: Run[], machine: { loadBefore: number[]; loadAfter: number[]; date: string }, pinged: number) {
  const target = TIMEOUT_MS + SLACK_MS;
  const rows = runs.map((r) => [
    String(r.connections),
    String(Math.round(r.result.requests.average)),
    String(r.result.latency.p50),
    String(r.result.latency.p99),
    String(r.result.latency.max),
    `${r.result.latency.p99 <= target ? 'met' : 'missed'} (≤ ${target} ms)`,
    `${r.quoted} / ${r.noMatch} / ${r.other + r.result.errors + r.result.non2xx}`,
  ]);
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  return [
    SECTION,
    '',
    `Run ${machine.date} on ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; ` +
      `load average before ${load(machine.loadBefore)}, after ${load(machine.loadAfter)} (the machine is shared: ` +
      'other work ran beside it).',
    '',
    `The bench exchange (50 buyers, 200 fixed-price campaigns on PostgreSQL) plus ${BIDDERS} Ping/Post buyers whose ` +
      `campaigns buy every service and state: every ping asks all ${BIDDERS} at once. Each buyer is a local HTTP server ` +
      `answering a bid after ${ANSWER_MS[0]}-${ANSWER_MS[1]} ms (uniform); each delivery's timeout is ${TIMEOUT_MS} ms. ` +
      `${SECONDS} s per run after a ${WARMUP_SECONDS} s warm-up; \`BENCH_ONLY=pingpost npm run bench\`.`,
    '',
    markdownTable(
      [
        'connections',
        'pings/s',
        'p50 ms',
        'p99 ms',
        'max ms',
        `p99 target (timeout + ${SLACK_MS} ms)`,
        'quoted / no_match / other',
      ],
      rows,
    ),
    '',
    `The buyers' servers got ${pinged} pings in all. A ping waits for its slowest buyer (up to ${ANSWER_MS[1]} ms), ` +
      `each buyer's call ended by its own AbortSignal at ${TIMEOUT_MS} ms; what a ping takes beyond that is the ` +
      'CPU: the server, PostgreSQL, autocannon and the buyers (in the bench process) share the machine.',
    '',
  ].join('\n');
}

export async function runPingPostBench(): Promise<boolean> {
  const loadBefore = os.loadavg();
  const date = new Date().toISOString();
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  await admin.connect();
  const { name: dbName, url, secret } = benchDatabase('leadex_bench_pp');
  let database: Database | null = null;
  let child: Awaited<ReturnType<typeof startBenchServer>>['child'] | null = null;
  const bidders: Awaited<ReturnType<typeof startBidder>>[] = [];
  try {
    await admin.query(`create database "${dbName}"`);
    database = await openDatabase({ url: url, poolSize: 4 });
    await database.migrate();
    const exchange = await seedBenchDatabase(database.db, secret);
    for (let i = 0; i < BIDDERS; i++) bidders.push(await startBidder(1000 + i));
    await addBidders(
      database,
      bidders.map((b) => b.url),
    );
    log(`database ${dbName}: the bench exchange and ${BIDDERS} Ping/Post buyers (timeout ${TIMEOUT_MS} ms)`);

    const server = await startBenchServer(url, secret, {
      env: { BENCH_ALLOW_PRIVATE_DELIVERY_TARGETS: 'true' },
    });
    child = server.child;
    const base = `http://127.0.0.1:${server.port}`;
    const bodies = pingBodies(exchange.matching, [], 5000, prng(16), 0);
    await pings(base, exchange.keys, bodies, 50, WARMUP_SECONDS);
    const runs: Run[] = [];
    for (const connections of CONNECTIONS) {
      const run = await pings(base, exchange.keys, bodies, connections, SECONDS);
      log(
        `${connections} connection(s): ${Math.round(run.result.requests.average)} pings/s, p50 ${run.result.latency.p50} ms, ` +
          `p99 ${run.result.latency.p99} ms, max ${run.result.latency.max} ms; ${run.quoted} quoted, ${run.other} other`,
      );
      runs.push(run);
    }
    const pinged = bidders.reduce((n, b) => n + b.tally.pings, 0);
    writeSection(OUTPUT, SECTION, section(runs, { loadBefore, loadAfter: os.loadavg(), date }, pinged));
    log(`wrote ${OUTPUT}`);
    return runs.every(
      (r) => r.result.latency.p99 <= TIMEOUT_MS + SLACK_MS && r.result.errors === 0 && r.result.non2xx === 0,
    );
  } finally {
    if (child) await stopBenchServer(child).catch(() => {});
    for (const b of bidders) await b.close();
    if (database) await database.close().catch(() => {});
    await dropBenchDatabase(admin, dbName).catch(() => {});
    await admin.end().catch(() => {});
  }
}

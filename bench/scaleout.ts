/**
 * The scale-out (issue 36 item 3), run by `npm run bench` after Ping/Post, or alone with
 * BENCH_ONLY=scaleout: 1, 2 and 4 API processes (`LEADEX_ROLE=api`, each the real app with its own
 * pool) against one PostgreSQL and the bench exchange. For each count, the same four runs as the
 * engine's table, the baselines included, all spread over the processes: autocannon opens its
 * connections to the processes in turn, as a load balancer hands them out.
 * Env: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (2), BENCH_CONNECTIONS (48: a multiple of 1, 2 and
 * 4, so each process gets as many), BENCH_SCALEOUT_PROCESSES ("1,2,4"), BENCH_OUTPUT.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openDatabase } from '../apps/server/src/db/client';
import { startBenchServer, stopBenchServer } from './child';
import { ADMIN_URL, benchDatabase, dropBenchDatabase } from './database';
import { positive } from './env';
import { collectPings, JSON_HEADERS, type PooledPing, pingBodies, postBody, runLoad } from './load';
import { processCpuMs } from './machine';
import { markdownTable, writeSection } from './report';
import { prng, seedBenchDatabase } from './seed';

const OUTPUT = process.env.BENCH_OUTPUT ?? fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
export const SCALEOUT_SECTION = '## Scale-out: 1, 2 and 4 API processes on one PostgreSQL (issue 36)';
const SECONDS = positive('BENCH_SECONDS', 10);
const WARMUP_SECONDS = positive('BENCH_WARMUP_SECONDS', 2);
const CONNECTIONS = positive('BENCH_CONNECTIONS', 48);

/** The process counts to measure, from BENCH_SCALEOUT_PROCESSES ("1,2,4"). */
export function processCounts(raw = process.env.BENCH_SCALEOUT_PROCESSES): number[] {
  if (raw === undefined || raw.trim() === '') return [1, 2, 4];
  const counts = raw.split(',').map((x) => Number(x.trim()));
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 16))
    throw new Error(`BENCH_SCALEOUT_PROCESSES must list whole numbers from 1 to 16, not '${raw}'`);
  return counts;
}

const log = (message: string) => console.log(`[bench scaleout] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One count's four runs and what its processes spent. */
export interface ScaleOutRow {
  processes: number;
  constant: autocannon.Result;
  insert: autocannon.Result;
  ping: autocannon.Result;
  post: autocannon.Result;
  /** Posts answered `sold`, and posts answered anything but 200 or not sold. */
  sold: number;
  postFailures: number;
  pingFailures: number;
  /** The API processes' CPU (ms) per post, summed over the processes. */
  serverMsPerPost: number | null;
}

const rate = (r: autocannon.Result) => Math.round(r.requests.average);
const ratio = (a: autocannon.Result, b: autocannon.Result) =>
  b.requests.average > 0 ? (a.requests.average / b.requests.average).toFixed(2) : '-';

/** The section of docs/benchmarks.md: one row per process count, and whether each row's posts were all sold. */
export function renderScaleOut(
  rows: ScaleOutRow[],
  machine: { date: string; loadBefore: number[]; loadAfter: number[]; poolSize: number },
): string {
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const first = rows[0];
  const body = rows.map((r) => [
    String(r.processes),
    String(rate(r.constant)),
    String(rate(r.insert)),
    String(rate(r.ping)),
    String(rate(r.post)),
    ratio(r.ping, r.constant),
    ratio(r.post, r.insert),
    first ? `${ratio(r.ping, first.ping)} / ${ratio(r.post, first.post)}` : '-',
    `${r.ping.latency.p99} / ${r.post.latency.p99}`,
    r.serverMsPerPost === null ? '-' : r.serverMsPerPost.toFixed(2),
    r.postFailures === 0 && r.pingFailures === 0
      ? `yes (${r.sold} sold)`
      : `no: ${r.postFailures} posts, ${r.pingFailures} pings failed`,
  ]);
  return [
    SCALEOUT_SECTION,
    '',
    `Run ${machine.date} on ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 1e9)} GB, ` +
      `Node ${process.version}; load average before ${load(machine.loadBefore)}, after ${load(machine.loadAfter)}.`,
    '',
    `The bench exchange (50 buyers, 200 campaigns) on one PostgreSQL; N processes of the real app with ` +
      `\`LEADEX_ROLE=api\`, each with its own pool of ${machine.poolSize}; ${CONNECTIONS} connections spread over them ` +
      `in turn (a multiple of every N, so each process gets as many), ${SECONDS} s per run after a ${WARMUP_SECONDS} s ` +
      'warm-up. The baselines run the same way: (a) a constant JSON answer and (b) one INSERT per request, over the same N ' +
      'processes. `BENCH_ONLY=scaleout npm run bench`.',
    '',
    markdownTable(
      [
        'processes',
        '(a) constant req/s',
        '(b) INSERT req/s',
        '(c) ping req/s',
        '(d) post req/s',
        'c/a',
        'd/b',
        'ping / post vs 1 process',
        'p99 ms ping / post',
        'API CPU ms per post',
        'every post sold, no errors',
      ],
      body,
    ),
    '',
  ].join('\n');
}

/** The pings and posts of one process count, spread over `urls`. */
async function measureCount(
  urls: string[],
  exchange: Awaited<ReturnType<typeof seedBenchDatabase>>,
  pids: number[],
  tag: string,
  offset: number,
): Promise<Omit<ScaleOutRow, 'processes'>> {
  const options = { url: urls, connections: CONNECTIONS, seconds: SECONDS };
  const keys = exchange.keys.map((key, i) => ({ key, sourceId: exchange.sourceIds[i] as string }));
  const auth = (i: number) => `Bearer ${(keys[i % keys.length] as { key: string }).key}`;
  const timed = async (request: () => autocannon.Request) => {
    await runLoad({ ...options, seconds: WARMUP_SECONDS }, request());
    await sleep(500);
    return runLoad(options, request());
  };
  /** POSTs to `path` taking `bodies` in turn, each with the next source's key (the turn runs on from the warm-up). */
  const inTurn = (path: string, bodies: readonly string[], onResponse?: autocannon.Request['onResponse']) => {
    let sent = 0;
    return (): autocannon.Request => ({
      method: 'POST',
      path,
      setupRequest(request) {
        const i = sent++;
        request.headers = { ...JSON_HEADERS, authorization: auth(i) };
        request.body = bodies[i % bodies.length] as string;
        return request;
      },
      ...(onResponse && { onResponse }),
    });
  };

  const constant = await timed(() => ({ method: 'GET', path: '/bench/constant' }));
  const fakeToken = `${'eyJpZCI6InBuZ18wMWpm'.repeat(16)}.${'s'.repeat(43)}`;
  const insertBodies = Array.from({ length: 5000 }, (_, i) => postBody(fakeToken, offset + i, tag));
  const insert = await timed(inTurn('/bench/insert', insertBodies));

  const bodies = pingBodies(exchange.matching, [], 50_000, prng(offset), 0);
  let pingFailures = 0;
  const ping = await timed(
    inTurn('/api/ping', bodies, (status, body) => {
      if (status !== 200 || !body.startsWith('{"ok":true')) pingFailures += 1;
    }),
  );

  // The posts follow pings made just before (not timed), each ping_id posted once.
  const wanted = Math.max(20_000, Math.ceil(rate(insert) * (SECONDS + WARMUP_SECONDS) * 2));
  const collected = await collectPings({ url: urls, connections: CONNECTIONS }, keys, bodies, wanted);
  const pool: PooledPing[] = collected.pool;
  let next = 0;
  let sold = 0;
  let postFailures = 0;
  const cpuBefore = pids.map((pid) => processCpuMs(pid));
  const post = await timed(() => ({
    method: 'POST',
    path: '/api/post',
    setupRequest(request) {
      const i = next++;
      const pooled = pool[i % pool.length] as PooledPing;
      if (i >= pool.length) postFailures += 1;
      request.headers = { ...JSON_HEADERS, authorization: `Bearer ${pooled.key}` };
      request.body = postBody(pooled.token, offset + i, tag);
      return request;
    },
    onResponse(status, body) {
      if (status === 200 && body.includes('"status":"sold"')) sold += 1;
      else postFailures += 1;
    },
  }));
  const cpuAfter = pids.map((pid) => processCpuMs(pid));
  const spent =
    cpuAfter.every((x) => x !== null) && cpuBefore.every((x) => x !== null)
      ? cpuAfter.reduce<number>((n, x, i) => n + (x as number) - (cpuBefore[i] as number), 0)
      : null;
  return {
    constant,
    insert,
    ping,
    post,
    sold,
    postFailures: postFailures + post.errors + post.timeouts,
    pingFailures: pingFailures + ping.errors + ping.timeouts,
    serverMsPerPost: spent !== null && next > 0 ? spent / next : null,
  };
}

export async function runScaleOutBench(): Promise<boolean> {
  const counts = processCounts();
  const loadBefore = os.loadavg();
  const date = new Date().toISOString();
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  await admin.connect();
  const { name: dbName, url, secret } = benchDatabase('leadex_bench_so');
  const tag = randomBytes(3).toString('hex');
  let database: Database | null = null;
  let children: Awaited<ReturnType<typeof startBenchServer>>[] = [];
  try {
    await admin.query(`create database "${dbName}"`);
    database = await openDatabase({ url: url, poolSize: 4 });
    await database.migrate();
    const exchange = await seedBenchDatabase(database.db, secret);
    await database.db.execute(
      sql`create table bench_rows (id text primary key, payload jsonb not null, created_at timestamptz not null)`,
    );
    log(`database ${dbName}: the bench exchange; processes ${counts.join(', ')}; ${CONNECTIONS} connections`);
    const rows: ScaleOutRow[] = [];
    let poolSize = 0;
    for (const [n, processes] of counts.entries()) {
      children = await Promise.all(
        Array.from({ length: processes }, () => startBenchServer(url, secret, { env: { LEADEX_ROLE: 'api' } })),
      );
      poolSize = children[0]?.poolSize ?? 0;
      const urls = children.map((c) => `http://127.0.0.1:${c.port}`);
      const pids = children.map((c) => c.child.pid ?? 0);
      const row = { processes, ...(await measureCount(urls, exchange, pids, tag, (n + 1) * 10_000_000)) };
      log(
        `${processes} process(es): constant ${rate(row.constant)}, INSERT ${rate(row.insert)}, ping ${rate(row.ping)}, ` +
          `post ${rate(row.post)} req/s; ${row.sold} sold, ${row.postFailures} post failures, ${row.pingFailures} ping failures`,
      );
      rows.push(row);
      await Promise.all(children.map((c) => stopBenchServer(c.child)));
      children = [];
    }
    writeSection(
      OUTPUT,
      SCALEOUT_SECTION,
      renderScaleOut(rows, { date, loadBefore, loadAfter: os.loadavg(), poolSize }),
    );
    log(`wrote ${OUTPUT}`);
    return rows.every((r) => r.postFailures === 0 && r.pingFailures === 0);
  } finally {
    await Promise.all(children.map((c) => stopBenchServer(c.child).catch(() => {})));
    if (database) await database.close().catch(() => {});
    await dropBenchDatabase(admin, dbName).catch(() => {});
    await admin.end().catch(() => {});
  }
}

/**
 * `npm run soak` (issue 28 item 6): steady ping + post on PostgreSQL in production mode for an hour, at
 * a fixed rate, to show the server's memory levels off (the server runs its job workers too, as
 * production does). Each sale is a ping over a bought (service, ZIP) pair and the post of its
 * ping_id, from the source that pinged. The server runs with
 * --expose-gc; its heap used after a forced full collection is sampled every SOAK_SAMPLE_SECONDS,
 * and the verdict compares the last sample with the one after SOAK_BASELINE_MINUTES (the first
 * minutes fill the engine's caches, the pools and the JIT). Passes when the final heap is within 10 %
 * of that level, every answer was 2xx and the posts kept up with the rate (95 %: a machine too busy
 * to serve it has not shown the hour); writes the "Soak" section of docs/benchmarks.md.
 * Env: SOAK_MINUTES (60), SOAK_RATE (sales a second, 100), SOAK_CONNECTIONS (20),
 * SOAK_BASELINE_MINUTES (5), SOAK_SAMPLE_SECONDS (60), SOAK_SNAPSHOT_DIR (heap snapshots of the
 * server at the baseline and the end, to compare in Chrome DevTools; each stalls the server for
 * seconds, so not in a measured run), BENCH_DATABASE_URL, BENCH_OUTPUT.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { type Database, openDatabase } from '../apps/server/src/db/client';
import { startBenchServer, stopBenchServer } from './child';
import { ADMIN_URL, benchDatabase, dropBenchDatabase } from './database';
import { positive } from './env';
import { JSON_HEADERS, pingBodies, postBody } from './load';
import { markdownTable, SOAK_SECTION as SECTION, writeSection } from './report';
import { prng, seedBenchDatabase } from './seed';
import type { HeapSample, ParentMessage, ServerMessage } from './server';

const OUTPUT = process.env.BENCH_OUTPUT ?? fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const MINUTES = positive('SOAK_MINUTES', 60);
const RATE = positive('SOAK_RATE', 100);
const CONNECTIONS = positive('SOAK_CONNECTIONS', 20);
const BASELINE_MINUTES = positive('SOAK_BASELINE_MINUTES', 5);
const SAMPLE_SECONDS = positive('SOAK_SAMPLE_SECONDS', 60);
const SNAPSHOT_DIR = process.env.SOAK_SNAPSHOT_DIR;
/** The verdict: the final heap within this share of the baseline's. */
const TOLERANCE = 0.1;
/** The verdict: the posts answered a second at least this share of SOAK_RATE (a starved machine falls behind). */
const RATE_SHARE = 0.95;

const log = (message: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${message}`);
const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);

/** Asks the server for one answer of a type and waits for it. */
function ask<T extends ServerMessage['type']>(
  child: ChildProcess,
  message: ParentMessage & { type: T },
): Promise<Extract<ServerMessage, { type: T }>> {
  return new Promise((resolve) => {
    const onMessage = (answer: ServerMessage) => {
      if (answer.type !== message.type) return;
      child.off('message', onMessage);
      resolve(answer as Extract<ServerMessage, { type: T }>);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

interface Sample {
  minute: number;
  heap: HeapSample;
  sales: number;
  load: number;
}

interface Tally {
  pings: number;
  quoted: number;
  sold: number;
  noMatch: number;
  otherPost: number;
  non2xx: Record<string, number>;
}

/** The run's verdict from its samples and answers. */
export function soakVerdict(heap: { baseline: number; final: number }, tally: Tally, errors: number, seconds: number) {
  const growth = (heap.final - heap.baseline) / heap.baseline;
  const non2xx = Object.values(tally.non2xx).reduce((a, b) => a + b, 0);
  const rate = (tally.sold + tally.noMatch + tally.otherPost) / seconds;
  const checks = {
    heap: Math.abs(growth) <= TOLERANCE,
    answers: non2xx === 0 && errors === 0,
    rate: rate >= RATE * RATE_SHARE,
  };
  return { growth, non2xx, rate, checks, ok: checks.heap && checks.answers && checks.rate };
}

function section(report: {
  date: string;
  postgres: string;
  loadBefore: number[];
  loadAfter: number[];
  samples: Sample[];
  baseline: Sample;
  final: Sample;
  tally: Tally;
  result: autocannon.Result;
  seconds: number;
}): string {
  const { baseline, final, tally, result } = report;
  const verdict = soakVerdict(
    { baseline: baseline.heap.heapUsed, final: final.heap.heapUsed },
    tally,
    result.errors + result.timeouts,
    report.seconds,
  );
  const failed = Object.entries(verdict.checks)
    .filter(([, ok]) => !ok)
    .map(([name]) => name);
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
  const maxRss = Math.max(...report.samples.map((s) => s.heap.rss));
  const rows = report.samples.map((s) => [
    String(s.minute),
    mb(s.heap.heapUsed),
    mb(s.heap.heapTotal),
    mb(s.heap.rss),
    mb(s.heap.external),
    String(s.sales),
    s.load.toFixed(2),
  ]);
  const codes = Object.entries(tally.non2xx)
    .map(([code, n]) => `${n} × ${code}`)
    .join(', ');
  return [
    SECTION,
    '',
    `Run ${report.date} on ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ` +
      `${Math.round(os.totalmem() / 1e9)} GB, Node ${process.version}, PostgreSQL ${report.postgres}; load average ` +
      `before ${load(report.loadBefore)}, after ${load(report.loadAfter)} (the machine is shared with other ` +
      "engineers' test runs: the load column below shows them; a machine too busy falls behind the rate).",
    '',
    `The bench exchange (50 buyers, 200 campaigns, 2 sources) on a fresh PostgreSQL database; the server in ` +
      `production mode in its own process, with its job workers and --expose-gc. ${(report.seconds / 60).toFixed(0)} minutes of ` +
      `${RATE} sales a second asked (a ping, then the post of its ping_id) from ${CONNECTIONS} connections, ` +
      `${verdict.rate.toFixed(1)} a second answered; ` +
      `\`npm run soak\` (SOAK_MINUTES, SOAK_RATE). Heap used is measured after a forced full collection.`,
    '',
    `**${verdict.ok ? 'Passed' : `Failed (${failed.join(', ')})`}.** Heap used after ${BASELINE_MINUTES} minutes ${mb(baseline.heap.heapUsed)} MB, ` +
      `at the end ${mb(final.heap.heapUsed)} MB: ${verdict.growth >= 0 ? '+' : ''}${(verdict.growth * 100).toFixed(1)} % ` +
      `(target within ±${TOLERANCE * 100} %). Resident memory peaked at ${mb(maxRss)} MB (sampled after each collection). ` +
      `${tally.sold + tally.noMatch + tally.otherPost} posts (${tally.sold} sold, ${tally.noMatch} no_match, ` +
      `${tally.otherPost} other 200) after ${tally.pings} pings (${tally.quoted} quoted); ` +
      `${verdict.non2xx === 0 ? 'every answer 2xx' : `not 2xx: ${codes}`}, ${result.errors} connection errors, ` +
      `${result.timeouts} timeouts; latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `max ${result.latency.max} ms.`,
    '',
    markdownTable(
      ['minute', 'heap used MB', 'heap total MB', 'RSS MB', 'external MB', 'posts so far', 'load 1 min'],
      rows,
    ),
    '',
  ].join('\n');
}

async function main() {
  const date = new Date().toISOString();
  const loadBefore = os.loadavg();
  const admin = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  await admin.connect();
  const { rows } = await admin.query<{ server_version: string }>('show server_version');
  const postgres = rows[0]?.server_version ?? 'unknown';
  const { name: dbName, url, secret } = benchDatabase('leadex_soak');
  let database: Database | null = null;
  let child: ChildProcess | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () => {
    cleaning ??= (async () => {
      if (child) await stopBenchServer(child).catch(() => {});
      if (database) await database.close().catch(() => {});
      await dropBenchDatabase(admin, dbName).catch(() => {});
      await admin.end().catch(() => {});
    })();
    return cleaning;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void cleanup().finally(() => process.exit(130)));
  }
  try {
    await admin.query(`create database "${dbName}"`);
    database = await openDatabase({ url: url, poolSize: 4 });
    await database.migrate();
    const exchange = await seedBenchDatabase(database.db, secret);
    const server = await startBenchServer(url, secret, {
      nodeArgs: ['--expose-gc'],
      env: { BENCH_JOBS: 'true' },
    });
    child = server.child;
    const serverChild = child;
    const base = `http://127.0.0.1:${server.port}`;
    log(`database ${dbName}; server on ${base}; ${MINUTES} min at ${RATE} sales/s, ${CONNECTIONS} connections`);

    const keyOf = new Map(exchange.sourceIds.map((id, i) => [id, exchange.keys[i] as string]));
    const bodies = pingBodies(exchange.matching, [], 20_000, prng(28), 0);
    const tally: Tally = { pings: 0, quoted: 0, sold: 0, noMatch: 0, otherPost: 0, non2xx: {} };
    const bad = (status: number) => {
      tally.non2xx[status] = (tally.non2xx[status] ?? 0) + 1;
    };
    // A run-unique tag and counter make every lead's phone and email new: no duplicate refusals.
    const tag = randomBytes(3).toString('hex');
    let n = 0;
    const sourceIds = exchange.sourceIds;

    const samples: Sample[] = [];
    const started = Date.now();
    let lastAt = 0;
    const measure = async (): Promise<Sample> => {
      const { heap } = await ask(serverChild, { type: 'heap' });
      const s = {
        minute: Math.round((Date.now() - started) / 6000) / 10,
        heap,
        sales: tally.sold + tally.noMatch + tally.otherPost,
        load: os.loadavg()[0] ?? 0,
      };
      samples.push(s);
      lastAt = Date.now();
      log(
        `minute ${s.minute}: heap used ${mb(heap.heapUsed)} MB, rss ${mb(heap.rss)} MB, ${s.sales} posts, ` +
          `not 2xx ${JSON.stringify(tally.non2xx)}`,
      );
      return s;
    };
    // Two asks at once (the baseline or the end on a periodic sample's minute) share one measurement.
    let pending: Promise<Sample> | null = null;
    const sample = (): Promise<Sample> => {
      if (pending) return pending;
      const last = samples.at(-1);
      if (last && Date.now() - lastAt < 2000) return Promise.resolve(last);
      pending = measure().finally(() => {
        pending = null;
      });
      return pending;
    };
    await sample();
    let baseline: Sample | null = null;
    const snapshot = async (name: string) => {
      if (!SNAPSHOT_DIR) return;
      const { file } = await ask(serverChild, { type: 'snapshot', file: join(SNAPSHOT_DIR, `${name}.heapsnapshot`) });
      log(`heap snapshot ${file}`);
    };
    const baselineTimer = setTimeout(() => {
      void sample().then(async (s) => {
        baseline = s;
        await snapshot('baseline');
      });
    }, BASELINE_MINUTES * 60_000);
    const sampler = setInterval(() => void sample(), SAMPLE_SECONDS * 1000);

    const result = await autocannon({
      url: base,
      connections: CONNECTIONS,
      // A ping and a post per sale.
      overallRate: RATE * 2,
      duration: MINUTES * 60,
      timeout: 10,
      requests: [
        {
          method: 'POST',
          path: '/api/ping',
          setupRequest(request, context) {
            const i = n++;
            const sourceId = sourceIds[i % sourceIds.length] as string;
            context.key = keyOf.get(sourceId);
            context.i = i;
            context.token = undefined;
            request.headers = { ...JSON_HEADERS, authorization: `Bearer ${context.key}` };
            request.body = bodies[i % bodies.length] as string;
            return request;
          },
          onResponse(status, body, context) {
            tally.pings += 1;
            if (status < 200 || status > 299) return bad(status);
            const answer = JSON.parse(body) as { ok?: boolean; ping_id?: string };
            if (answer.ok && answer.ping_id) {
              tally.quoted += 1;
              context.token = answer.ping_id;
            }
          },
        },
        {
          method: 'POST',
          path: '/api/post',
          setupRequest(request, context) {
            // A ping nobody priced has nothing to post: start the next sale.
            if (typeof context.token !== 'string') return null;
            request.headers = { ...JSON_HEADERS, authorization: `Bearer ${context.key}` };
            request.body = postBody(context.token, context.i as number, tag);
            return request;
          },
          onResponse(status, body) {
            if (status < 200 || status > 299) return bad(status);
            if (body.includes('"status":"sold"')) tally.sold += 1;
            else if (body.includes('"no_match"')) tally.noMatch += 1;
            else tally.otherPost += 1;
          },
        },
      ],
    });
    clearInterval(sampler);
    clearTimeout(baselineTimer);
    const final = await sample();
    await snapshot('final');
    const seconds = (Date.now() - started) / 1000;
    const chosen: Sample = baseline ?? (samples[0] as Sample);
    const verdict = soakVerdict(
      { baseline: chosen.heap.heapUsed, final: final.heap.heapUsed },
      tally,
      result.errors + result.timeouts,
      seconds,
    );
    log(
      `baseline ${mb(chosen.heap.heapUsed)} MB, final ${mb(final.heap.heapUsed)} MB (${(verdict.growth * 100).toFixed(1)} %); ` +
        `${tally.sold} sold, ${tally.noMatch} no_match, ${tally.otherPost} other; not 2xx ${verdict.non2xx}; ` +
        `errors ${result.errors}, timeouts ${result.timeouts}; ${verdict.rate.toFixed(1)} posts/s: ` +
        `${verdict.ok ? 'PASSED' : `FAILED ${JSON.stringify(verdict.checks)}`}`,
    );
    if (process.env.SOAK_WRITE !== 'false') {
      writeSection(
        OUTPUT,
        SECTION,
        section({
          date,
          postgres,
          loadBefore,
          loadAfter: os.loadavg(),
          samples,
          baseline: chosen,
          final,
          tally,
          result,
          seconds,
        }),
      );
      log(`wrote ${OUTPUT}`);
    }
    if (!verdict.ok) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

main().catch((error) => {
  console.error('soak:', error);
  process.exit(1);
});

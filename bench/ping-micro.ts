/**
 * The ping's CPU cost in microseconds, in one process, without sockets: `app.inject` in a loop
 * (issue 36 item 2, issue 33's fields). Two bench exchanges on PostgreSQL, one plain and one with
 * BENCH_FIELDS' 10 fields per service and 5 rules per campaign; the same app as bench/server.ts on
 * each. Rounds alternate constant JSON, plain pings and pings with fields, so a busy machine slows
 * them alike; the report is the CPU µs per request of the rounds (their minimum and lower quartile: on a
 * shared machine a round is only ever slowed by others, so the fastest rounds are the work's own), and the ratios.
 * `npx tsx bench/ping-micro.ts`. Env: PING_MICRO_N (requests a round, 500), PING_MICRO_ROUNDS (40),
 * PING_MICRO_PROF (a directory: a CPU profile of each kind's requests is written there, one
 * `.cpuprofile` each; summarize with `npx tsx bench/profile-top.ts FILE`), PING_MICRO_KEEP (a file: the
 * databases are kept and named there, and a later run with the same file reuses them; drop them by hand),
 * BENCH_DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { type Database, openDatabase } from '../apps/server/src/db/client';
import { loadZipsIfEmpty } from '../apps/server/src/db/zips';
import { seedReferenceData } from '../apps/server/src/demo/seed';
import { createDeps } from '../apps/server/src/deps';
import { systemClock } from '../apps/server/src/lib/clock';
import { positive } from './env';
import { PING_FIELDS } from './fields';
import { type BenchExchange, prng, seedExchange } from './seed';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const N = positive('PING_MICRO_N', 500);
const ROUNDS = positive('PING_MICRO_ROUNDS', 40);
const PROF = process.env.PING_MICRO_PROF;
const KEEP = process.env.PING_MICRO_KEEP;

interface KeptRun {
  secret: string;
  names: string[];
  exchanges: BenchExchange[];
}
const log = (message: string) => console.log(`[ping-micro] ${message}`);

/** Same as bench/server.ts's. */
const CONSTANT = {
  ok: true,
  ping_id: `${'eyJpZCI6InBuZ18wMWpmMDAwMDAwMDAwMDAwMDAwMDAwMDAwMCIsInNvdXJjZUlkIjoic3JjXzAxamYw'.repeat(3)}.${'x'.repeat(43)}`,
  price: 10,
  expires: 1_767_225_600,
};

type Built = Awaited<ReturnType<typeof buildApp>>;

async function appOn(url: string, secret: string): Promise<{ app: Built; database: Database }> {
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: url,
    LEADEX_SECRET: secret,
    LOG_LEVEL: 'silent',
    PUBLIC_API_RATE_LIMIT: '0',
    PUBLIC_URL: 'http://127.0.0.1',
    SEED_DEMO: 'false',
  });
  const database = await openDatabase({ url, poolSize: 4 });
  const app = await buildApp(createDeps(config, database.db, systemClock));
  app.get('/bench/constant', async () => CONSTANT);
  await app.ready();
  return { app, database };
}

/** Random pairs, 95 % bought, as bench/load.ts's pingBodies, with or without the ping's fields. */
function bodiesOf(exchange: BenchExchange, withFields: boolean): string[] {
  const rnd = prng(42);
  return Array.from({ length: 5000 }, () => {
    const list = rnd() < 0.05 && exchange.unmatched.length > 0 ? exchange.unmatched : exchange.matching;
    const pair = list[Math.floor(rnd() * list.length)] as { service: string; zip: string };
    return JSON.stringify({ service: pair.service, zip: pair.zip, ...(withFields ? PING_FIELDS : {}) });
  });
}

interface Kind {
  name: string;
  app: Built;
  request: (i: number) => InjectOptions;
  check: (status: number, body: string) => void;
}

const tally = new Map<string, { quoted: number; noMatch: number; other: number }>();
function pingKind(name: string, app: Built, exchange: BenchExchange, withFields: boolean): Kind {
  const bodies = bodiesOf(exchange, withFields);
  const counts = { quoted: 0, noMatch: 0, other: 0 };
  tally.set(name, counts);
  return {
    name,
    app,
    request: (i) => ({
      method: 'POST',
      url: '/api/ping',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${exchange.keys[i % exchange.keys.length]}`,
      },
      payload: bodies[i % bodies.length] as string,
    }),
    check(status, body) {
      if (status !== 200) counts.other += 1;
      else if (body.startsWith('{"ok":true')) counts.quoted += 1;
      else if (body.includes('"no_match"')) counts.noMatch += 1;
      else counts.other += 1;
    },
  };
}

/** µs of this process's CPU (user + system) and of wall time per request over `n` requests in turn. */
async function round(kind: Kind, n: number, offset: number): Promise<{ cpu: number; wall: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const response = await kind.app.inject(kind.request(offset + i));
    kind.check(response.statusCode, response.body);
  }
  const wall = Number(process.hrtime.bigint() - t0) / 1000 / n;
  const used = process.cpuUsage(cpu0);
  return { cpu: (used.user + used.system) / n, wall };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) * q)] as number;
};

async function main() {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  // PING_MICRO_KEEP: the databases stay (and are reused by the next run naming the same file), so
  // two trees (before and after a change) can be measured in turn on the same exchanges.
  const kept = KEEP && existsSync(KEEP) ? (JSON.parse(readFileSync(KEEP, 'utf8')) as KeptRun) : null;
  const secret = kept?.secret ?? randomBytes(32).toString('base64url');
  const names: string[] = kept?.names ?? [0, 1].map(() => `leadex_pingmicro_${randomBytes(4).toString('hex')}`);
  const opened: { app: Built; database: Database }[] = [];
  try {
    const exchanges: BenchExchange[] = kept?.exchanges ?? [];
    for (const [i, name] of names.entries()) {
      const url = new URL(ADMIN_URL);
      url.pathname = `/${name}`;
      if (!kept) {
        await admin.query(`create database "${name}"`);
        const database = await openDatabase({ url: url.toString(), poolSize: 4 });
        await database.migrate();
        // The same exchange (same seed) on both, the second with the fields and rules.
        await loadZipsIfEmpty(database.db);
        await seedReferenceData({ db: database.db });
        exchanges.push(await seedExchange(database.db, secret, undefined, i === 1));
        await database.close();
      }
      opened.push(await appOn(url.toString(), secret));
    }
    if (KEEP && !kept) writeFileSync(KEEP, JSON.stringify({ secret, names, exchanges } satisfies KeptRun));
    const [plain, fields] = opened as unknown as [{ app: Built }, { app: Built }];
    const kinds: Kind[] = [
      {
        name: 'constant',
        app: plain.app,
        request: () => ({ method: 'GET', url: '/bench/constant' }),
        check: () => {},
      },
      pingKind('ping', plain.app, exchanges[0] as BenchExchange, false),
      pingKind('ping+fields', fields.app, exchanges[1] as BenchExchange, true),
    ];
    log(`warm-up: ${N} of each`);
    for (const kind of kinds) await round(kind, N, 0);
    const results = new Map<string, { cpu: number[]; wall: number[] }>(
      kinds.map((k) => [k.name, { cpu: [], wall: [] }]),
    );
    for (let r = 0; r < ROUNDS; r++) {
      for (const kind of kinds) {
        const { cpu, wall } = await round(kind, N, (r + 1) * N);
        results.get(kind.name)?.cpu.push(cpu);
        results.get(kind.name)?.wall.push(wall);
      }
    }
    const table = kinds.map((k) => {
      const r = results.get(k.name) as { cpu: number[]; wall: number[] };
      return {
        name: k.name,
        q1: quantile(r.cpu, 0.25),
        min: quantile(r.cpu, 0),
        median: quantile(r.cpu, 0.5),
        wall: quantile(r.wall, 0.5),
      };
    });
    const [constant, ping, withFields] = table as [(typeof table)[0], (typeof table)[0], (typeof table)[0]];
    for (const row of table)
      log(
        `${row.name.padEnd(12)} CPU µs/req: min ${row.min.toFixed(1)}, lower quartile ${row.q1.toFixed(1)}, median ${row.median.toFixed(1)}; wall median ${row.wall.toFixed(1)} µs`,
      );
    log(
      `lower quartiles: ping/constant ${(ping.q1 / constant.q1).toFixed(2)}; ping+fields/ping ${(withFields.q1 / ping.q1).toFixed(2)}`,
    );
    for (const [name, t] of tally) log(`${name}: ${t.quoted} quoted, ${t.noMatch} no_match, ${t.other} other`);

    if (PROF) {
      const session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      for (const kind of kinds.slice(1)) {
        await session.post('Profiler.start');
        await round(kind, N * 2, 100_000);
        const { profile } = await session.post('Profiler.stop');
        const file = path.join(PROF, `${kind.name.replace('+', '-')}.cpuprofile`);
        writeFileSync(file, JSON.stringify(profile));
        log(`profile of ${kind.name}: ${file}`);
      }
      session.disconnect();
    }
  } finally {
    for (const { app, database } of opened) {
      await app.close().catch(() => {});
      await database.close().catch(() => {});
    }
    if (!KEEP)
      for (const name of names) await admin.query(`drop database if exists "${name}" with (force)`).catch(() => {});
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

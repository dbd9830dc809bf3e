/**
 * Where a post's CPU goes (issue 36): a small, repeatable measurement on a scratch database, cheaper
 * than `npm run bench`. Seeds the bench exchange, starts the bench server, makes pings (not timed),
 * then for each variant runs the one-INSERT baseline and the posts for a few seconds and reports CPU
 * ms per request of the server process and of PostgreSQL's backends: the steadier figure on a shared
 * machine. Variants switch the leads' triggers off in the scratch database (never in an app's):
 * `all` (as deployed), `no-consent`, `no-drop`, `none`.
 * Env: BENCH_DATABASE_URL, POST_PROFILE_SECONDS (5), POST_PROFILE_CONNECTIONS (50),
 * POST_PROFILE_VARIANTS (all,no-consent,no-drop,none), BENCH_SERVER_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`),
 * POST_PROFILE_LEADS (leads stored beforehand, without their triggers' rows: a table of a real size; 0),
 * POST_PROFILE_0039 (the DROP hashes' functions as migration 0039 made them, to compare with today's (0040)),
 * POST_PROFILE_EXPLAIN (a sample rate: plans of that share of statements in PostgreSQL's log).
 * `npx tsx bench/post-profile.ts`
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client';
import { startBenchServer, stopBenchServer } from './child';
import { positive } from './env';
import { collectPings, JSON_HEADERS, type PooledPing, pingBodies, postBody, runLoad } from './load';
import { cpuWindow, processCpuMs } from './machine';
import { prng, seedBenchDatabase } from './seed';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SECONDS = positive('POST_PROFILE_SECONDS', 5);
const CONNECTIONS = positive('POST_PROFILE_CONNECTIONS', 50);
const VARIANTS = (process.env.POST_PROFILE_VARIANTS ?? 'all,no-consent,no-drop,none').split(',');
const TRIGGERS: Record<string, string[]> = {
  all: [],
  'no-consent': ['leads_consent_evidence'],
  'no-drop': ['leads_drop_hashes'],
  none: ['leads_consent_evidence', 'leads_drop_hashes'],
};

const log = (message: string) => console.log(`[post-profile] ${message}`);

async function main() {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const dbName = `leadex_postprof_${randomBytes(4).toString('hex')}`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  const secret = randomBytes(32).toString('base64url');
  await admin.query(`create database "${dbName}"`);
  const database = await openDatabase({ url: url.toString(), poolSize: 2 });
  let child: Awaited<ReturnType<typeof startBenchServer>>['child'] | null = null;
  try {
    await database.migrate();
    const exchange = await seedBenchDatabase(database.db, secret);
    if (process.env.POST_PROFILE_0039) {
      const migration = readFileSync(
        new URL('../apps/server/drizzle/0039_sealed_evidence_drop.sql', import.meta.url),
        'utf8',
      );
      for (const name of ['leadex_drop_phone', 'leadex_drop_hash', 'leads_drop_hashes']) {
        const statement = migration
          .split('--> statement-breakpoint')
          .find((s) => s.includes(`CREATE FUNCTION "${name}"(`));
        if (statement)
          await database.db.execute(sql.raw(statement.replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION')));
      }
    }
    const preload = Number(process.env.POST_PROFILE_LEADS ?? 0);
    if (preload > 0) {
      // Older leads of the bench's sources, stored without their triggers (as a restore would): only their size counts.
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(sql`
          insert into leads (id, source_id, api_key_id, service, zip, phone, email, ping_id, created_at, answer)
          select 'lead_old_' || g, ${exchange.sourceIds[0] as string}, 'key_old', 'roofing', '75201',
            (4000000000 + g)::text, 'old' || g || '@bench-leads.com', 'png_old_' || g,
            now() - interval '40 days' + g * interval '1 second', '{}'::jsonb
          from generate_series(1, ${preload}::int) g`);
      });
      await database.db.execute(sql`analyze leads`);
    }
    await database.db.execute(
      sql`create table bench_rows (id text primary key, payload jsonb not null, created_at timestamptz not null)`,
    );
    // Trigger functions' own time (pg_stat_user_functions) and, on request, sampled plans of every
    // statement with its triggers' times in PostgreSQL's log (auto_explain): this database only.
    await admin.query(`alter database "${dbName}" set track_functions = 'all'`);
    if (process.env.POST_PROFILE_EXPLAIN) {
      for (const setting of [
        "session_preload_libraries = 'auto_explain'",
        'auto_explain.log_min_duration = 0',
        'auto_explain.log_analyze = on',
        'auto_explain.log_buffers = on',
        'auto_explain.log_triggers = on',
        'auto_explain.log_nested_statements = on',
        `auto_explain.sample_rate = ${process.env.POST_PROFILE_EXPLAIN}`,
      ])
        await admin.query(`alter database "${dbName}" set ${setting}`);
    }
    const server = await startBenchServer(url.toString(), secret, {
      nodeArgs: process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? [],
    });
    child = server.child;
    const base = `http://127.0.0.1:${server.port}`;
    const keys = exchange.keys.map((key, i) => ({ key, sourceId: exchange.sourceIds[i] as string }));
    const tag = randomBytes(3).toString('hex');
    const rnd = prng(7);
    const matching = pingBodies(exchange.matching, [], 20_000, rnd, 0);
    const fakeToken = `${'eyJpZCI6InBuZ18wMWpm'.repeat(16)}.${'s'.repeat(43)}`;
    let inserted = 0;
    const results: string[] = [];

    async function timed(label: string, request: autocannon.Request) {
      const stopCpu = await cpuWindow(admin, dbName);
      const before = processCpuMs(server.child.pid as number) ?? 0;
      const result = await runLoad({ url: base, connections: CONNECTIONS, seconds: SECONDS }, request);
      const after = processCpuMs(server.child.pid as number) ?? 0;
      const cpu = await stopCpu();
      const n = result.requests.total;
      const line =
        `${label}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, ` +
        `server ${((after - before) / n).toFixed(3)} ms/req, PostgreSQL ${(cpu.postgresMs / n).toFixed(3)} ms/req, ` +
        `machine busy ${Math.round((cpu.machineBusy ?? 0) * 100)}% (n=${n})`;
      log(line);
      results.push(line);
      const functions = await database.db.execute(
        sql`select funcname, calls, round(total_time::numeric, 1) as total_ms, round(self_time::numeric, 1) as self_ms
            from pg_stat_user_functions order by total_time desc limit 8`,
      );
      for (const f of (functions as unknown as { rows: Record<string, unknown>[] }).rows)
        results.push(`  ${f.funcname}: ${f.calls} calls, ${f.total_ms} ms total, ${f.self_ms} ms self`);
      await database.db.execute(sql`select pg_stat_reset()`);
    }

    for (const variant of VARIANTS) {
      for (const name of ['leads_consent_evidence', 'leads_drop_hashes'])
        await database.db.execute(
          sql.raw(`alter table leads ${TRIGGERS[variant]?.includes(name) ? 'disable' : 'enable'} trigger ${name}`),
        );
      const wanted = Math.ceil(SECONDS * 3000);
      const { pool } = await collectPings({ url: base, connections: CONNECTIONS }, keys, matching, wanted);
      let next = 0;
      await timed(`${variant} b) insert`, {
        method: 'POST',
        path: '/bench/insert',
        setupRequest(request) {
          const i = inserted++;
          request.headers = { ...JSON_HEADERS, authorization: `Bearer ${keys[i % keys.length]?.key}` };
          request.body = postBody(fakeToken, 1_000_000 + i, tag);
          return request;
        },
      });
      await timed(`${variant} d) post`, {
        method: 'POST',
        path: '/api/post',
        setupRequest(request) {
          const i = next++;
          const ping = pool[i % pool.length] as PooledPing;
          request.headers = { ...JSON_HEADERS, authorization: `Bearer ${ping.key}` };
          request.body = postBody(
            ping.token,
            i + variant.length * 100_000 + VARIANTS.indexOf(variant) * 1_000_000,
            tag,
          );
          return request;
        },
      });
    }
    console.log(results.join('\n'));
  } finally {
    if (child) await stopBenchServer(child).catch(() => {});
    await database.close().catch(() => {});
    if (process.env.BENCH_KEEP_DB) log(`kept ${dbName}`);
    else await admin.query(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
  }
}

await main();

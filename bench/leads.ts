/**
 * The leads lists at 1,000,000 leads (issue 12, "Speed"), run by `npm run bench` after the engine's
 * scenarios, or alone with BENCH_ONLY=leads. A fresh database gets the bench exchange (50 buyers,
 * 200 campaigns), 5 sources, and a million leads over 12 months loaded by SQL (INSERT … SELECT
 * generate_series), ~60 % sold with their lead_matches. A server process answers the admin's,
 * a buyer's and a source's lists and the lead detail; each scenario is timed one request at a time,
 * then 10 at once (p95 of each request's wall time); the CSV export of ~100,000 leads is timed with
 * the server's RSS sampled. The slowest queries' plans are recorded (EXPLAIN (ANALYZE, BUFFERS)).
 * Env: BENCH_LEADS (1,000,000), BENCH_LEADS_DB (an already loaded database on the same server:
 * reused, migrated, not dropped), BENCH_KEEP_DB, BENCH_OUTPUT.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { hashPassword } from 'better-auth/crypto';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type Db, openDatabase } from '../apps/server/src/db/client';
import * as schema from '../apps/server/src/db/schema';
import { sources } from '../apps/server/src/db/schema';
import { newId } from '../apps/server/src/lib/ids';
import { leadDateSpan } from '../apps/server/src/modules/leads/date-range';
import { type LeadListFilter, type LeadScope, leadsRepo } from '../apps/server/src/modules/leads/leads.repo';
import { statsRollup } from '../apps/server/src/modules/stats/stats-rollup';
import { usersRepo } from '../apps/server/src/modules/users/users.repo';
import { startBenchServer, stopBenchServer } from './child';
import { ADMIN_URL, benchDatabase, dropBenchDatabase } from './database';
import { markdownTable, writeSection } from './report';
import { seedBenchDatabase } from './seed';

const OUTPUT = process.env.BENCH_OUTPUT ?? fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url));
const BEFORE = fileURLToPath(new URL('./leads-before.md', import.meta.url));
const LEAD_COUNT = Number(process.env.BENCH_LEADS ?? 1_000_000);
const SECTION = '## Leads lists at 1,000,000 leads (issue 12)';
const ORIGIN = 'http://127.0.0.1';
const PASSWORD = 'bench-password-1';
/** Issue 12's targets: p95 of the lists and of the lead detail, the export's time. */
const LIST_P95_MS = 50;
const DETAIL_P95_MS = 30;
const EXPORT_MS = 3000;
/** Issue 14's target: the dashboard and its reports, p95. */
const REPORT_P95_MS = 200;
const EXPORT_ROWS = 100_000;
/** Requests per scenario: warm-up (discarded), one at a time, then 10 at once. */
const WARMUP = 5;
const SERIAL = 40;
const CONCURRENT = 200;
const CONCURRENCY = 10;
const SERVICES = ['roofing', 'solar', 'hvac', 'windows', 'plumbing', 'siding', 'pest_control'];

const log = (message: string) => console.log(`[bench leads] ${message}`);

// ---------------------------------------------------------------------------------------------
// Loading

interface Loaded {
  buyerIds: string[];
  sourceIds: string[];
  zips: string[];
  leadCount: number;
  matchCount: number;
  loadSeconds: number;
}

/** The exchange, 3 more sources, and the leads with their matches, all through SQL. */
async function load(db: Db, secret: string): Promise<Loaded> {
  const exchange = await seedBenchDatabase(db, secret);
  const now = new Date();
  for (let i = 3; i <= 5; i++) {
    const id = newId('src');
    await db.insert(sources).values({
      id,
      name: `Bench Source ${i}`,
      email: `source${i}@bench.example`,
      phone: '2145550199',
      maxCostCents: 1000 + 250 * i,
      canPostLead: true,
      approvedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    exchange.sourceIds.push(id);
  }
  const zips = [...new Set([...exchange.matching, ...exchange.unmatched].map((p) => p.zip))].sort();
  const started = Date.now();
  // Lookup tables for the generator: campaigns (with their buyer and price), sources, ZIPs (with their state).
  await db.execute(sql`create unlogged table g_campaign as
    select row_number() over (order by b.name, c.fixed_id) - 1 as n, c.id, c.buyer_id, c.price_cents,
           c.shared_price_cents
    from campaigns c join buyers b on b.id = c.buyer_id`);
  await db.execute(sql`create unlogged table g_source as
    select row_number() over (order by name) - 1 as n, id, coalesce(max_cost_cents, 1000) as payout from sources`);
  await db.execute(sql`create unlogged table g_zip as
    select row_number() over (order by z.zip) - 1 as n, z.zip, z.state
    from zips z where z.zip = any(${sql.param(zips)}::text[])`);
  const [campaignCount, sourceCount, zipCount] = await Promise.all(
    ['g_campaign', 'g_source', 'g_zip'].map(async (t) => {
      const r = (await db.execute(sql.raw(`select count(*)::int as n from ${t}`))) as unknown as {
        rows: { n: number }[];
      };
      return r.rows[0]?.n ?? 0;
    }),
  );
  const chunk = 100_000;
  for (let from = 1; from <= LEAD_COUNT; from += chunk) {
    const to = Math.min(LEAD_COUNT, from + chunk - 1);
    // Per lead: u1..u5 uniform draws. Sold when u1 < 0.6; the campaign: 10 % go to the first buyer
    // (the heaviest, whose user the buyer scenarios sign in as), the rest uniform.
    await db.execute(sql`
      insert into leads (id, source_id, channel, service, zip, state, city, name, first_name, last_name, address,
        phone, email, tcpa_consent, tcpa_language, trusted_form, jornaya, ip, user_agent, pub_id, sub_id, homeowner,
        metadata, tags, cost_cents, price_cents, ping_id, test, answer, explanation, created_at, sold)
      select 'lead_b' || lpad(i::text, 8, '0'), s.id,
        case when u4 < 0.5 then 'web' when u4 < 0.7 then 'facebook' else null end,
        (${sql.param(SERVICES)}::text[])[1 + case when u2 < 0.28 then 0 when u2 < 0.5 then 1 when u2 < 0.65 then 2 when u2 < 0.77 then 3
                     when u2 < 0.87 then 4 when u2 < 0.95 then 5 else 6 end],
        z.zip, z.state, 'Springfield',
        f.first || ' ' || l.last, f.first, l.last, (100 + i % 9000) || ' Main St',
        (201 + i % 700)::text || (200 + (i / 700) % 800)::text || lpad(((i / 560000) % 10000)::text, 4, '0'),
        lower(f.first || '.' || l.last || i || '@example.com'),
        u3 < 0.9, case when u3 < 0.9 then 'I agree to be contacted by up to 3 companies.' end,
        case when u3 < 0.7 then 'https://cert.trustedform.com/' || md5(i::text) end,
        case when u4 < 0.5 then md5(i::text || 'j') end,
        '203.0.113.' || (i % 250), 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)',
        case when u4 < 0.3 then 'pub' || (i % 40) end, case when u4 < 0.2 then 'sub' || (i % 90) end,
        u5 < 0.7,
        case when u5 < 0.2 then jsonb_build_object('utm_source', 'google', 'landing', 'roof-quote') end,
        case when u5 < 0.03 then array['vip'] else '{}'::text[] end,
        case when sold then s.payout else 0 end,
        case when sold then c.price_cents else 0 end,
        case when u4 < 0.3 then 'no_ping' else 'png_b' || i end,
        false,
        jsonb_build_object('status', case when sold then 'sold' else 'no_match' end),
        case when sold then jsonb_build_array(jsonb_build_array(c.id, c.price_cents / 100, 1),
                                              jsonb_build_array(jsonb_build_array(c2.id), 'location', 'Not buying in ' || z.state))
             when u5 < 0.5 then jsonb_build_array(jsonb_build_array(c2.id, 'service', 'Does not buy this service')) end,
        now() - interval '365 days' * power((${LEAD_COUNT}::int - i + u6) / ${LEAD_COUNT}::float8, 1.2),
        -- 2 % of sales were refused by the buyer's delivery (a rejected match): not sold.
        sold and u7 >= 0.02
      from (
        select i, random() as u1, random() as u2, random() as u3, random() as u4, random() as u5,
               -- Leads arrive in time order (heap and ids follow time, as ULIDs do); a little more in
               -- recent months (power 1.2): the exchange grows.
               random() as u6, random() as u7,
               random() < 0.6 as sold, random() as uc, random() as uz
        from generate_series(${from}::int, ${to}::int) i
      ) g
      join g_source s on s.n = i % ${sourceCount}
      join g_zip z on z.n = floor(uz * ${zipCount})
      join g_campaign c on c.n = case when uc < 0.1 then floor(uc * 40)::int else floor(uc * ${campaignCount})::int end
      join g_campaign c2 on c2.n = (c.n + 7) % ${campaignCount}
      join (select n, first from unnest(array['James','Mary','Robert','Patricia','John','Jennifer','Michael','Linda',
              'David','Elizabeth','William','Barbara','Richard','Susan','Joseph','Jessica','Thomas','Sarah','Carlos',
              'Karen','Daniel','Nancy','Matthew','Lisa','Anthony','Betty','Mark','Sandra','Donald','Ashley','Steven',
              'Kimberly','Paul','Emily','Andrew','Donna','Joshua','Michelle','Kenneth','Carol']) with ordinality
              as x(first, n)) f on f.n = 1 + (i * 7) % 40
      join (select n, last from unnest(array['Smith','Johnson','Williams','Brown','Jones','Garcia','Miller','Davis',
              'Rodriguez','Martinez','Hernandez','Lopez','Gonzalez','Wilson','Anderson','Thomas','Taylor','Moore',
              'Jackson','Martin','Lee','Perez','Thompson','White','Harris','Sanchez','Clark','Ramirez','Lewis',
              'Robinson','Walker','Young','Allen','King','Wright','Scott','Torres','Nguyen','Hill','Flores','Green',
              'Adams','Nelson','Baker','Hall','Rivera','Campbell','Mitchell','Carter','Roberts','Gomez','Phillips',
              'Evans','Turner','Diaz','Parker','Cruz','Edwards','Collins','Reyes','Stewart','Morris','Morales',
              'Murphy','Cook','Rogers','Gutierrez','Ortiz','Morgan','Cooper','Peterson','Bailey','Reed','Kelly',
              'Howard','Ramos','Kim','Cox','Ward','Richardson','Watson','Brooks','Chavez','Wood','James','Bennett',
              'Gray','Mendoza','Ruiz','Hughes','Price','Alvarez','Castillo','Sanders','Patel','Myers','Long',
              'Ross','Foster','Kowalczyk']) with ordinality as y(last, n)) l on l.n = 1 + (i * 13 + i / 40) % 100
      order by i
    `);
    // The sale of each sold lead (its price > 0): the campaign is read back from the explanation's winning entry.
    await db.execute(sql`
      insert into lead_matches (id, lead_id, campaign_id, buyer_id, kind, price_cents, rejected, return_status,
        return_reason, return_requested_at, delivery_status, created_at, service, name)
      select 'lm_b' || substr(l.id, 7), l.id, c.id, c.buyer_id,
             case when c.shared_price_cents is null then 'exclusive' else 'shared' end,
             l.price_cents, not l.sold, case when r < 0.01 and l.sold then 'requested' end,
             case when r < 0.01 and l.sold then 'Wrong number' end, case when r < 0.01 and l.sold then l.created_at end,
             'delivered', l.created_at, l.service, l.name
      from leads l
      join g_campaign c on c.id = l.explanation -> 0 ->> 0
      cross join lateral (select random() as r) rr
      where l.id between ${`lead_b${String(from).padStart(8, '0')}`} and ${`lead_b${String(to).padStart(8, '0')}`}
        and l.price_cents > 0
    `);
    log(`loaded leads ${from.toLocaleString('en-US')}-${to.toLocaleString('en-US')}`);
  }
  // A delivery log on some matches (the detail's includeNotifyLogs).
  await db.execute(sql`
    insert into delivery_attempts (id, match_id, channel, target, attempt, accepted, status_code, request, response,
      duration_ms, at)
    select 'da_' || m.id || '_' || a, m.id, case when a = 1 then 'webhook' else 'email' end,
           case when a = 1 then 'https://buyer.example/leads' else 'leads@buyer.example' end, 1, true, 200,
           '{"name":"…"}', '{"ok":true}', 120, m.created_at
    from lead_matches m cross join generate_series(1, 2) a
    where m.id like 'lm_b%5'`);
  await db.execute(sql`drop table g_campaign, g_source, g_zip`);
  await db.execute(sql`vacuum analyze leads`);
  await db.execute(sql`vacuum analyze lead_matches`);
  await db.execute(sql`vacuum analyze delivery_attempts`);
  const leadCount = await countRows(db, 'leads');
  const matchCount = await countRows(db, 'lead_matches');
  const buyerIds = (
    (await db.execute(sql`select id from buyers order by name`)) as unknown as { rows: { id: string }[] }
  ).rows.map((r) => r.id);
  const loadSeconds = (Date.now() - started) / 1000;
  // Kept with the data, for a later run on this database (BENCH_LEADS_DB).
  await db.execute(sql`create table bench_leads_loaded as select ${loadSeconds}::float8 as seconds`);
  return { buyerIds, sourceIds: await idsOf(db, 'sources'), zips, leadCount, matchCount, loadSeconds };
}

async function countRows(db: Db, table: string): Promise<number> {
  const r = (await db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
    rows: { n: number }[];
  };
  return r.rows[0]?.n ?? 0;
}

async function idsOf(db: Db, table: 'sources' | 'buyers'): Promise<string[]> {
  const r = (await db.execute(sql.raw(`select id from ${table} order by name`))) as unknown as {
    rows: { id: string }[];
  };
  return r.rows.map((x) => x.id);
}

/** Reads what a loaded database holds (BENCH_LEADS_DB). */
async function describe(db: Db): Promise<Loaded> {
  const zips = (
    (await db.execute(sql`select distinct zip from leads where created_at > now() - interval '3 days'`)) as unknown as {
      rows: { zip: string }[];
    }
  ).rows
    .map((r) => r.zip)
    .sort();
  return {
    buyerIds: await idsOf(db, 'buyers'),
    sourceIds: await idsOf(db, 'sources'),
    zips,
    leadCount: await countRows(db, 'leads'),
    matchCount: await countRows(db, 'lead_matches'),
    loadSeconds: await (
      db.execute(sql`select seconds from bench_leads_loaded`) as unknown as Promise<{
        rows: { seconds: number }[];
      }>
    ).then(
      (r) => r.rows[0]?.seconds ?? 0,
      () => 0,
    ),
  };
}

/** A user of the role with a password (rows written as the users service and better-auth do). */
async function createUser(db: Db, role: 'admin' | 'buyer' | 'source', roleId: string | null): Promise<string> {
  const email = `${role}.${randomBytes(3).toString('hex')}@bench.example`;
  const now = new Date();
  const user = await usersRepo.insert(db, {
    id: newId('usr'),
    name: `Bench ${role}`,
    email,
    username: null,
    displayUsername: null,
    role,
    roleId,
    emailVerified: true,
    welcome: false,
    createdAt: now,
    updatedAt: now,
  });
  await usersRepo.insertPassword(db, user.id, await hashPassword(PASSWORD), now);
  return email;
}

// ---------------------------------------------------------------------------------------------
// The server and HTTP

const startServer = (url: string, secret: string) =>
  startBenchServer(url, secret, {
    // BENCH_LEADS_CPU_PROF: a CPU profile of the server (`--cpu-prof-dir`), written when it stops.
    nodeArgs: process.env.BENCH_LEADS_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_LEADS_CPU_PROF}`]
      : [],
  });
const stopServer = stopBenchServer;

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

interface Answer {
  status: number;
  ms: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

function request(
  port: number,
  path: string,
  options: { cookie?: string; method?: string; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        agent,
        headers: {
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...(options.body ? { 'content-type': 'application/json', origin: ORIGIN } : {}),
        },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: Number(process.hrtime.bigint() - start) / 1e6,
            body: Buffer.concat(parts).toString('utf8'),
            headers: res.headers,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

async function signIn(port: number, email: string): Promise<string> {
  const res = await request(port, '/api/auth/sign-in/email', {
    method: 'POST',
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${email} answered ${res.status}: ${res.body}`);
  const raw = res.headers['set-cookie'] ?? [];
  const cookie = raw.map((c) => c.split(';')[0] ?? '').find((c) => c.split('=')[0]?.endsWith('session_token'));
  if (!cookie) throw new Error(`no session cookie for ${email}`);
  return cookie;
}

// ---------------------------------------------------------------------------------------------
// Scenarios

type Role = 'admin' | 'buyer' | 'source';

interface Spec {
  name: string;
  role: Role;
  /** Paths tried in turn (varied values of the scenario's filters). */
  paths: string[];
  target: number;
  /** What leadsRepo runs for it (for EXPLAIN), when it is a list. */
  explain?: { scope: LeadScope; filter: LeadListFilter };
}

interface Timing {
  p50: number;
  p95: number;
  max: number;
  n: number;
  failed: number;
}

interface Measured {
  spec: Spec;
  serial: Timing;
  concurrent: Timing;
  total: string;
  /** CPU time per request while 10 ran at once: the server process's, PostgreSQL's backends', the client's. */
  cpu: CpuPerRequest;
}

interface CpuPerRequest {
  server: number;
  postgres: number;
  client: number;
}

/** User + system CPU milliseconds a process has used (/proc/{pid}/stat), 0 once it is gone. */
function cpuMsOfPid(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th (clock ticks).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** Linux's USER_HZ, the unit of /proc/{pid}/stat's times, on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Where a scenario's CPU goes: the server process, the PostgreSQL backends of the bench's database (by
 * pid, from pg_stat_activity) and this process (the load generator). On a shared two-core machine the
 * wall time at 10 connections queues behind all three; the CPU per request is the steadier figure.
 */
interface CpuMeter {
  snapshot(): Promise<{ server: number; postgres: Map<number, number>; client: number }>;
}

function cpuMeter(serverPid: number, admin: pg.Client, dbName: string): CpuMeter {
  return {
    async snapshot() {
      const { rows } = await admin.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [dbName],
      );
      const usage = process.cpuUsage();
      return {
        server: cpuMsOfPid(serverPid),
        postgres: new Map(rows.map((r) => [r.pid, cpuMsOfPid(r.pid)])),
        client: (usage.user + usage.system) / 1000,
      };
    },
  };
}

function cpuPerRequest(
  before: Awaited<ReturnType<CpuMeter['snapshot']>>,
  after: Awaited<ReturnType<CpuMeter['snapshot']>>,
  requests: number,
): CpuPerRequest {
  let postgres = 0;
  for (const [pid, ms] of after.postgres) postgres += ms - (before.postgres.get(pid) ?? 0);
  return {
    server: (after.server - before.server) / requests,
    postgres: postgres / requests,
    client: (after.client - before.client) / requests,
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function timing(ms: number[], failed: number): Timing {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? 0, n: ms.length, failed };
}

async function measure(port: number, cookie: string, spec: Spec, meter: CpuMeter): Promise<Measured> {
  let next = 0;
  const path = () => spec.paths[next++ % spec.paths.length] as string;
  let total = '';
  for (let i = 0; i < WARMUP; i++) {
    const res = await request(port, path(), { cookie });
    if (res.status !== 200) throw new Error(`${spec.name}: ${res.status} ${res.body.slice(0, 300)}`);
    const page = JSON.parse(res.body) as { total?: number; more?: boolean };
    if (page.total !== undefined) total = `${page.total.toLocaleString('en-US')}${page.more ? '+' : ''}`;
  }
  const serialMs: number[] = [];
  const slowest = new Map<string, number>();
  let serialFailed = 0;
  for (let i = 0; i < SERIAL; i++) {
    const at = path();
    const res = await request(port, at, { cookie });
    slowest.set(at, Math.max(slowest.get(at) ?? 0, res.ms));
    if (res.status === 200) serialMs.push(res.ms);
    else serialFailed += 1;
  }
  // BENCH_LEADS_VERBOSE: which of a scenario's paths is slow, one request at a time.
  if (process.env.BENCH_LEADS_VERBOSE)
    for (const [at, ms] of slowest) log(`  slowest ${ms.toFixed(1).padStart(7)} ms  ${at}`);
  const concurrentMs: number[] = [];
  let concurrentFailed = 0;
  let left = CONCURRENT;
  const cpuBefore = await meter.snapshot();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left-- > 0) {
        const res = await request(port, path(), { cookie });
        if (res.status === 200) concurrentMs.push(res.ms);
        else concurrentFailed += 1;
      }
    }),
  );
  const cpu = cpuPerRequest(cpuBefore, await meter.snapshot(), CONCURRENT);
  const m = {
    spec,
    serial: timing(serialMs, serialFailed),
    concurrent: timing(concurrentMs, concurrentFailed),
    total,
    cpu,
  };
  log(
    `${spec.name.padEnd(44)} p95 ${m.serial.p95.toFixed(1).padStart(6)} ms / ${m.concurrent.p95.toFixed(1).padStart(6)} ms ` +
      `(10 at once)  total ${total}  cpu/req server ${f1(cpu.server)} pg ${f1(cpu.postgres)} client ${f1(cpu.client)} ms`,
  );
  return m;
}

const RANGES = ['today', 'last30d', 'mtd', 'ytd', 'range'] as const;
type Range = (typeof RANGES)[number];

/** A custom range: the 45 days ending 20 days ago, in New York dates. */
function customRange(now: Date): { begin: string; end: string } {
  const day = (d: number) =>
    new Date(now.getTime() - d * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'America/New_York' });
  return { begin: day(65), end: day(20) };
}

function listPath(range: Range, params: Record<string, string>, custom: { begin: string; end: string }): string {
  const q = new URLSearchParams({ ...params, pageSize: '15' });
  if (range === 'range') {
    q.set('begin', custom.begin);
    q.set('end', custom.end);
  }
  return `/api/lead/date/${range}?${q}`;
}

function specs(loaded: Loaded, ids: { buyerId: string; sourceId: string }, leadIds: string[], now: Date): Spec[] {
  const custom = customRange(now);
  const out: Spec[] = [];
  const light = loaded.buyerIds.slice(10, 20);
  const names = ['smi', 'garcia', 'ann', 'Kowal', 'lee', 'zzq'];
  const zips = loaded.zips.filter((_, i) => i % 97 === 0).slice(0, 12);
  const services = ['roofing', 'solar', 'hvac', 'plumbing', 'pest_control'];
  /** Filters alone and combined; each a list of query variants. */
  const filters: { name: string; variants: Record<string, string>[] }[] = [
    { name: 'no filter', variants: [{}, { page: '2' }, { sort: 'service' }, { page: '3' }] },
    { name: 'name contains', variants: names.map((name) => ({ name })) },
    { name: 'buyer (heaviest)', variants: [{ buyer: ids.buyerId }] },
    { name: 'buyer (others)', variants: light.map((buyer) => ({ buyer })) },
    { name: 'buyer=none', variants: [{ buyer: 'none' }, { buyer: 'none', page: '2' }] },
    { name: 'service', variants: services.map((service) => ({ service })) },
    { name: 'zip', variants: zips.map((zip) => ({ zip })) },
    {
      name: 'combined (buyer+service+name)',
      variants: services.map((service, i) => ({ buyer: ids.buyerId, service, name: names[i % 3] as string })),
    },
    {
      name: 'combined (none+service+zip)',
      variants: zips.map((zip, i) => ({ buyer: 'none', service: services[i % 3] as string, zip })),
    },
  ];
  for (const range of RANGES) {
    for (const f of filters) {
      const first = f.variants[0] ?? {};
      out.push({
        name: `admin ${range} ${f.name}`,
        role: 'admin',
        paths: f.variants.map((v) => listPath(range, v, custom)),
        target: LIST_P95_MS,
        explain: {
          scope: { role: 'admin' },
          filter: {
            span: leadDateSpan(range, now, custom),
            name: first.name,
            buyer: first.buyer,
            service: first.service,
            zip: first.zip,
          },
        },
      });
    }
  }
  for (const role of ['buyer', 'source'] as const) {
    const scope: LeadScope =
      role === 'buyer' ? { role: 'buyer', buyerId: ids.buyerId } : { role: 'source', sourceId: ids.sourceId };
    for (const range of RANGES) {
      for (const f of [
        { name: 'no filter', variants: [{}, { page: '2' }, { sort: 'service' }] as Record<string, string>[] },
        { name: 'name contains', variants: names.map((name) => ({ name })) },
        { name: 'service', variants: services.map((service) => ({ service })) },
        { name: 'zip', variants: zips.map((zip) => ({ zip })) },
      ]) {
        if (f.name !== 'no filter' && range !== 'ytd' && range !== 'today') continue;
        const first: Record<string, string | undefined> = f.variants[0] ?? {};
        out.push({
          name: `${role} ${range} ${f.name}`,
          role,
          paths: f.variants.map((v) => listPath(range, v, custom)),
          target: LIST_P95_MS,
          explain: {
            scope,
            filter: {
              span: leadDateSpan(range, now, custom),
              name: first.name,
              service: first.service,
              zip: first.zip,
            },
          },
        });
      }
    }
  }
  // Issue 14: the dashboard's figures, its chart and the reports per source and buyer.
  out.push({ name: 'admin dashboard stats', role: 'admin', paths: ['/api/stats/'], target: REPORT_P95_MS });
  out.push({ name: 'admin dashboard by day', role: 'admin', paths: ['/api/stats/daily'], target: REPORT_P95_MS });
  for (const report of ['sources', 'buyers'] as const)
    for (const range of ['today', 'last30d', 'mtd', 'ytd'] as const)
      out.push({
        name: `admin report ${report} ${range}`,
        role: 'admin',
        paths: [`/api/stats/${report}?dateq=${range}`],
        target: REPORT_P95_MS,
      });
  out.push({
    name: 'admin lead detail (match log, notify logs)',
    role: 'admin',
    paths: leadIds.map((id) => `/api/lead/${id}?includeMatchLog=true&includeNotifyLogs=true`),
    target: DETAIL_P95_MS,
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Plans

/** The SQL leadsRepo sends for a scenario (list and count), captured by a drizzle logger. */
async function planOf(pool: pg.Pool, spec: Spec): Promise<string> {
  if (!spec.explain) return '';
  const captured: { query: string; params: unknown[] }[] = [];
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (query, params) => captured.push({ query, params }) },
  }) as unknown as Db;
  const { scope, filter } = spec.explain;
  await leadsRepo.list(db, scope, filter, { sort: 'date', order: 'desc' }, { limit: 15, offset: 0 });
  await leadsRepo.count(db, scope, filter, 10_001);
  const out: string[] = [];
  for (const [i, q] of captured.entries()) {
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers, costs off) ${q.query}`,
      q.params as unknown[],
    );
    out.push(`-- ${i === 0 ? 'page' : 'count'}`, ...rows.map((r) => r['QUERY PLAN']));
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Export

interface ExportResult {
  rows: number;
  bytes: number;
  ms: number;
  status: number;
  rssMb: number[];
  path: string;
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

async function exportCsv(port: number, cookie: string, pid: number, path: string): Promise<ExportResult> {
  const samples: number[] = [rssMb(pid)];
  const timer = setInterval(() => samples.push(rssMb(pid)), 100);
  const start = process.hrtime.bigint();
  const result = await new Promise<{ status: number; rows: number; bytes: number }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent, headers: { cookie } }, (res) => {
      let rows = 0;
      let bytes = 0;
      res.on('data', (d: Buffer) => {
        bytes += d.length;
        for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) rows += 1;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rows: rows - 1, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  clearInterval(timer);
  samples.push(rssMb(pid));
  return { ...result, ms, rssMb: samples, path };
}

// ---------------------------------------------------------------------------------------------
// Report

const f1 = (n: number) => n.toFixed(1);

function render(r: {
  date: string;
  loadBefore: number[];
  loadAfter: number[];
  postgres: string;
  loaded: Loaded;
  measured: Measured[];
  exported: ExportResult;
  exportedRows: number;
  plans: { name: string; plan: string }[];
}): string {
  const worst = Math.max(...r.measured.map((m) => Math.max(m.serial.p95, m.concurrent.p95)));
  const missed = r.measured.filter((m) => m.serial.p95 > m.spec.target || m.concurrent.p95 > m.spec.target);
  const missedSerial = r.measured.filter((m) => m.serial.p95 > m.spec.target);
  const missedConcurrent = r.measured.filter((m) => m.concurrent.p95 > m.spec.target);
  const rss = r.exported.rssMb;
  const exportOk = r.exported.status === 200 && r.exported.ms < EXPORT_MS && r.exported.rows === r.exportedRows;
  let before = '';
  try {
    before = readFileSync(BEFORE, 'utf8').trim();
  } catch {
    before = '';
  }
  return [
    SECTION,
    '',
    `Written by \`npm run bench\` (bench/leads.ts; alone: \`BENCH_ONLY=leads npm run bench\`) on ${r.date}.`,
    '',
    `- Machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), shared; load average ` +
      `${r.loadBefore.map((x) => x.toFixed(2)).join(' / ')} before, ${r.loadAfter.map((x) => x.toFixed(2)).join(' / ')} after. ` +
      `PostgreSQL ${r.postgres} on loopback (default settings), the server in its own process (pool of 10).`,
    `- Data: ${r.loaded.leadCount.toLocaleString('en-US')} leads over the 12 months before the run, ` +
      `${r.loaded.matchCount.toLocaleString('en-US')} lead_matches (~60 % sold; 10 % of sales to the first buyer, the rest ` +
      `spread over ${r.loaded.buyerIds.length} buyers), ${r.loaded.sourceIds.length} sources, 7 services, ` +
      `${r.loaded.zips.length.toLocaleString('en-US')} ZIPs; loaded in time order (as leads arrive: the heap and the ids ` +
      'follow time, as ULIDs do) by INSERT … SELECT generate_series' +
      `${r.loaded.loadSeconds ? ` in ${Math.round(r.loaded.loadSeconds)} s` : ''}, then VACUUM ANALYZE.`,
    `- Each scenario: ${WARMUP} warm-up requests, ${SERIAL} one at a time, then ${CONCURRENT} from ${CONCURRENCY} ` +
      'connections at once; p95 of each request\'s wall time at the client (HTTP keep-alive), page size 15. The "buyer" ' +
      'scenarios sign in as the heaviest buyer\'s user, the "source" ones as the first source\'s. Filters cycle through ' +
      'several values (names `smi`, `garcia`, `ann`, `Kowal`, `lee`, `zzq`; 5 services; 12 ZIPs; 10 buyers).',
    '',
    `Targets: lists p95 <= ${LIST_P95_MS} ms, lead detail p95 <= ${DETAIL_P95_MS} ms, at 1 and at 10 connections. ` +
      (missed.length === 0
        ? `**All met** (worst p95 ${f1(worst)} ms).`
        : `At 1 connection ${r.measured.length - missedSerial.length} of ${r.measured.length} met` +
          (missedSerial.length ? ` (missed: ${missedSerial.map((m) => m.spec.name).join(', ')})` : '') +
          `; at 10 connections ${r.measured.length - missedConcurrent.length} of ${r.measured.length}.`),
    '',
    markdownTable(
      [
        'scenario',
        'total',
        'p95 ms, 1 conn',
        'p95 ms, 10 conn',
        'p50 ms, 1 conn',
        'p50 ms, 10 conn',
        'max ms, 10',
        'CPU ms/req: server + pg + client',
        '',
      ],
      r.measured.map((m) => [
        m.spec.name,
        m.total || '-',
        f1(m.serial.p95),
        f1(m.concurrent.p95),
        f1(m.serial.p50),
        f1(m.concurrent.p50),
        f1(m.concurrent.max),
        `${f1(m.cpu.server)} + ${f1(m.cpu.postgres)} + ${f1(m.cpu.client)}`,
        m.serial.p95 <= m.spec.target &&
        m.concurrent.p95 <= m.spec.target &&
        m.serial.failed + m.concurrent.failed === 0
          ? 'ok'
          : '**missed**',
      ]),
    ),
    '',
    '### What made them fast',
    '',
    "- Migration 0007: `pg_trgm` and a trigram GIN index on `leads.name` (name contains: `ILIKE '%x%'` read from the " +
      "index instead of every lead of the range); `leads (created_at, id)` in place of `leads (created_at)` (the lists' order, " +
      "and counts from the index alone); `leads (source_id, service, created_at)` (a source's list by service); on " +
      "`lead_matches`, `(buyer_id, created_at, lead_id) where not rejected` (a buyer's sales by date, from the index " +
      'alone) and `(lead_id) where not rejected` (No Buyer: whether a lead sold, from the index alone).',
    "- leads.repo.ts: the admin's buyer filter reads that buyer's sales by date and joins their leads (it was an EXISTS " +
      "probed for every lead of the range, then sorted), as the buyer's own list does; a sale is dated as its lead (one " +
      'time for both in the engine) and a buyer buys a lead once, so the rows and their order are the same. A count of ' +
      "a buyer's sales with no filter on the lead's fields counts the buyer's matches alone (index-only).",
    '- `leads (service, created_at, id)` in place of `leads (service, created_at)`, and `leads (service, created_at desc, ' +
      'id desc)`: the service sort (service, then the newest first) reads its page from an index in either direction ' +
      "instead of sorting the range; under a service sort the date is the lead's (the sale's instant), so a buyer's " +
      'list sorted by service uses them too.',
    "- `lead_matches (created_at) where not rejected`: the engine's recent-sales refresh (every second, in every server " +
      'process) read the sales since its last one with a parallel sequential scan of lead_matches (600,000 rows), about ' +
      'a core of the two in the first runs; now an index range of the new rows.',
    '- Migration 0008: `leads.sold`, written by the sale with the lead, and `leads (created_at, id) where not sold`: ' +
      'No Buyer counts unsold leads from their own index instead of probing the matches of every lead of the range. ' +
      "The service sort's newest-first index is `DESC NULLS FIRST`, the order `ORDER BY … DESC` asks for (with `NULLS " +
      'LAST` the planner sorted the whole service).',
    "- Migration 0009: `lead_matches.service`, the lead's service copied by the sale, and `(buyer_id, service, " +
      "created_at, lead_id) where not rejected`: a buyer's list by service is counted from the buyer's own index.",
    "- `random_page_cost = 1.1` on the exchange's connections (db/client.ts): with the default 4 the planner walked " +
      "every buyer's sales by date (they follow the heap) instead of the buyer's own index.",
    "- Migration 0010: `leads.name` sampled with 1,000 values for the planner's statistics: name searches take " +
      'the date walk or the trigrams combined with the date range as their share calls for.',
    '- modules/auth/session-reader.ts: a signed-in request reads its session with its user in one query instead ' +
      "of better-auth's two and its endpoint machinery (about 1 ms of server CPU per request).",
    "- Migration 0017: `lead_matches.name`, the lead's name copied by the sale, with `(buyer_id, name " +
      'gin_trgm_ops) where not rejected`, and `leads (source_id, name gin_trgm_ops)` in place of `leads (name ' +
      "gin_trgm_ops)` (btree_gin): a buyer's or a source's name search reads its own candidates from the index; a " +
      'name search counts to 1,000.',
    "- Migration 0019: the lead's UTC week (`date_trunc('week', created_at at time zone 'UTC')`) joins the source " +
      'and the trigrams in `leads_source_week_name_trgm_idx`; a name search over at most 26 weeks names its weeks ' +
      "(leadsRepo), so the index gives the range's candidates itself instead of being ANDed with a bitmap of every " +
      "lead of the range from `leads (created_at, id)` (a month's name count 16 ms -> 3.6 ms; beyond about 30 weeks " +
      'the scans per week cost more than the dates checked on the rows).',
    "- An admin's name count walks the range's UTC weeks from the newest, one index scan each with a limit of its " +
      "own, and stops at 1,001 (it read every candidate of the range in table order, oldest first: This Year's " +
      "count read the weeks before January 1 first); an admin's page names its weeks only for a day (with a " +
      "month's named, the planner read and sorted every candidate instead of walking the dates); the weeks " +
      'counted in milliseconds instead of through a UTC TZDate (~3 ms of server CPU per year-long name search).',
    "- A list read from a buyer's sales tests the name on the sale's copy alone (a second test on the lead's " +
      'name made the page join every candidate before taking 15). Migration 0020: `leads (zip, created_at, id)` ' +
      'and `lead_matches (lead_id, buyer_id, created_at) where not rejected` in place of `leads (zip)` and ' +
      '`lead_matches (lead_id) where not rejected`: a count by ZIP from the indexes alone.',
    '',
    '### Export',
    '',
    `\`GET ${r.exported.path.replace(/\?.*/, '?…')}\` as the admin, ${r.exportedRows.toLocaleString('en-US')} leads: ` +
      `answered ${r.exported.status}, ${r.exported.rows.toLocaleString('en-US')} rows, ` +
      `${(r.exported.bytes / 1e6).toFixed(1)} MB in **${(r.exported.ms / 1000).toFixed(2)} s** (target < ${EXPORT_MS / 1000} s: ` +
      `${exportOk ? 'met' : '**not met**'}). Server RSS sampled every 100 ms: ${rss[0]} MB before, max ` +
      `${Math.max(...rss)} MB, ${rss.at(-1)} MB after (${rss.length} samples: ${rss.join(', ')}).`,
    '',
    '### Plans',
    '',
    'EXPLAIN (ANALYZE, BUFFERS) of the page and count queries leadsRepo sends, for the slowest scenarios of this run:',
    '',
    ...r.plans.flatMap((p) => [`#### ${p.name}`, '', '```', p.plan, '```', '']),
    ...(before ? [before, ''] : []),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------

export async function runLeadsBench(): Promise<boolean> {
  const date = new Date().toISOString();
  const loadBefore = os.loadavg();
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const postgres = (await admin.query<{ server_version: string }>('show server_version')).rows[0]?.server_version ?? '';
  const reuse = process.env.BENCH_LEADS_DB;
  const { name: dbName, url, secret } = benchDatabase('leadex_bench_leads', reuse);
  let child: ChildProcess | null = null;
  const database = await (async () => {
    if (!reuse) await admin.query(`create database "${dbName}"`);
    return openDatabase({ url: url, poolSize: 4 });
  })();
  const cleanup = async () => {
    if (child) await stopServer(child).catch(() => {});
    await database.close().catch(() => {});
    if (!reuse && !process.env.BENCH_KEEP_DB) await dropBenchDatabase(admin, dbName);
    else log(`kept database ${dbName}`);
    await admin.end().catch(() => {});
    agent.destroy();
  };
  try {
    await database.migrate();
    log(`${reuse ? 'reusing' : 'created'} database ${dbName}`);
    const loaded = reuse ? await describe(database.db) : await load(database.db, secret);
    log(
      `${loaded.leadCount.toLocaleString('en-US')} leads, ${loaded.matchCount.toLocaleString('en-US')} matches` +
        (loaded.loadSeconds ? ` loaded in ${Math.round(loaded.loadSeconds)} s` : ''),
    );
    // The reports' rollup as the hourly job leaves it: every closed day rolled, today read live.
    const rollStarted = Date.now();
    await statsRollup.clear(database.db);
    const rolled = await statsRollup.roll(database.db, new Date());
    log(`stats rollup through ${rolled.through} in ${((Date.now() - rollStarted) / 1000).toFixed(1)} s`);
    const buyerId = loaded.buyerIds[0] as string;
    const sourceId = loaded.sourceIds[0] as string;
    const emails = {
      admin: await createUser(database.db, 'admin', null),
      buyer: await createUser(database.db, 'buyer', buyerId),
      source: await createUser(database.db, 'source', sourceId),
    };
    const leadIds = (
      (await database.db.execute(
        sql`select l.id from leads l tablesample system (1) where exists (select 1 from lead_matches m where m.lead_id = l.id) limit 50`,
      )) as unknown as { rows: { id: string }[] }
    ).rows.map((r) => r.id);

    const server = await startServer(url, secret);
    child = server.child;
    const port = server.port;
    const cookies: Record<Role, string> = {
      admin: await signIn(port, emails.admin),
      buyer: await signIn(port, emails.buyer),
      source: await signIn(port, emails.source),
    };
    const now = new Date();
    const meter = cpuMeter(child.pid as number, admin, dbName);
    const measured: Measured[] = [];
    const only = process.env.BENCH_LEADS_ONLY ? new RegExp(process.env.BENCH_LEADS_ONLY) : null;
    for (const spec of specs(loaded, { buyerId, sourceId }, leadIds, now)) {
      if (only && !only.test(spec.name)) continue;
      measured.push(await measure(port, cookies[spec.role], spec, meter));
    }
    if (process.env.BENCH_LEADS_CPU_PROF) {
      // A profile of the lists alone: the server stops (and writes it) without the export.
      log(`CPU profile of the server in ${process.env.BENCH_LEADS_CPU_PROF}; nothing written to ${OUTPUT}`);
      return true;
    }

    // The export: the newest ~100,000 leads, as a custom range of whole New York days.
    const found = (
      (await database.db.execute(sql`
        select to_char((created_at at time zone 'America/New_York')::date, 'YYYY-MM-DD') as day
        from leads order by created_at desc offset ${EXPORT_ROWS - 1} limit 1`)) as unknown as {
        rows: { day: string }[];
      }
    ).rows[0]?.day as string;
    const today = now.toLocaleDateString('en-CA', { timeZone: 'America/New_York' });
    const span = leadDateSpan('range', now, { begin: found, end: today });
    // The first whole day that keeps the export at or under ~100,000 leads.
    const dayAfter = new Date(new Date(`${found}T12:00:00Z`).getTime() + 86_400_000).toISOString().slice(0, 10);
    const exportSpan = leadDateSpan('range', now, { begin: dayAfter, end: today });
    const countIn = async (s: typeof span) =>
      Number(
        (
          (await database.db.execute(
            sql`select count(*)::int as n from leads where created_at >= ${s.from.toISOString()} and created_at < ${s.to.toISOString()}`,
          )) as unknown as { rows: { n: number }[] }
        ).rows[0]?.n ?? 0,
      );
    const [withFound, withAfter] = [await countIn(span), await countIn(exportSpan)];
    const useFound = Math.abs(withFound - EXPORT_ROWS) < Math.abs(withAfter - EXPORT_ROWS);
    const begin = useFound ? found : dayAfter;
    const exportedRows = useFound ? withFound : withAfter;
    const exportPath = `/api/lead/date/range/export.csv?begin=${begin}&end=${today}`;
    log(`export ${exportPath} (${exportedRows.toLocaleString('en-US')} leads)`);
    await exportCsv(port, cookies.admin, child.pid as number, exportPath.replace(begin, today)); // warm
    const exported = await exportCsv(port, cookies.admin, child.pid as number, exportPath);
    log(
      `export: ${exported.status}, ${exported.rows} rows in ${(exported.ms / 1000).toFixed(2)} s, RSS ${exported.rssMb.join(' ')} MB`,
    );

    // Plans of the slowest list scenarios.
    const slowest = [...measured]
      .filter((m) => m.spec.explain)
      .sort((a, b) => Math.max(b.serial.p95, b.concurrent.p95) - Math.max(a.serial.p95, a.concurrent.p95))
      .slice(0, 4);
    const plans: { name: string; plan: string }[] = [];
    const pool = database.pool as pg.Pool;
    for (const m of slowest) {
      plans.push({
        name: `${m.spec.name} (p95 ${f1(m.serial.p95)} / ${f1(m.concurrent.p95)} ms)`,
        plan: await planOf(pool, m.spec),
      });
    }
    const section = render({
      date,
      loadBefore,
      loadAfter: os.loadavg(),
      postgres,
      loaded,
      measured,
      exported,
      exportedRows,
      plans,
    });
    writeSection(OUTPUT, SECTION, section);
    log(`wrote the leads section of ${OUTPUT}`);
    const listsOk = measured.every(
      (m) =>
        m.serial.p95 <= m.spec.target &&
        m.concurrent.p95 <= m.spec.target &&
        m.serial.failed === 0 &&
        m.concurrent.failed === 0,
    );
    return listsOk && exported.status === 200 && exported.ms < EXPORT_MS;
  } finally {
    await cleanup();
  }
}

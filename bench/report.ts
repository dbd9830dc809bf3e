/** The bench's console table and docs/benchmarks.md. */
import { readFileSync, writeFileSync } from 'node:fs';
import type autocannon from 'autocannon';
import type { Activity } from './machine';
import type { Profile } from './profile';
import type { BenchExchange } from './seed';
import type { LoopDelay } from './server';

export interface Scenario {
  id: 'a' | 'b' | 'c' | "c'" | 'd' | "d'";
  name: string;
  result: autocannon.Result;
  /** A light-load run with a few connections (informational; the targets use 50 connections). */
  light: boolean;
  /** What the bench database's backends were doing during the run. */
  activity: Activity;
  /** How long the server's callbacks waited for its event loop during the run, ms. */
  loopDelay: LoopDelay;
  /** Share of all CPUs busy during the run (everything on the machine, other users included). */
  machineBusy: number | null;
  /** CPU ms of the server process per request (its event loop, drivers, GC). */
  serverMsPerRequest: number | null;
  /** CPU ms of the bench database's PostgreSQL backends per request. */
  postgresMsPerRequest: number;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** Issue 4, "Targets". */
export const TARGETS = {
  ping: { ratio: 0.4, p99Ms: 10 },
  post: { ratio: 0.5, p99Ms: 50 },
} as const;

export interface Machine {
  date: string;
  nproc: number;
  cpu: string;
  memoryGb: number;
  node: string;
  postgres: string;
  loadBefore: number[];
  seconds: number;
  warmupSeconds: number;
  connections: number;
  poolSize: number;
}

export interface Report {
  machine: Machine;
  exchange: BenchExchange['summary'];
  scenarios: Scenario[];
  checks: Check[];
  postProfile: { profile: Profile; requests: number };
  poolSize: number;
}

interface Verdict {
  label: string;
  value: string;
  target: string;
  met: boolean;
}

function scenario(scenarios: Scenario[], id: Scenario['id']): Scenario {
  const found = scenarios.find((s) => s.id === id);
  if (!found) throw new Error(`scenario ${id} did not run`);
  return found;
}

const rate = (s: Scenario) => s.result.requests.average;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (n: number | null) => (n === null ? 'n/a' : n < 1 ? n.toFixed(3) : n.toFixed(2));

export function verdicts(scenarios: Scenario[]): Verdict[] {
  const [a, b, c, d] = (['a', 'b', 'c', 'd'] as const).map((id) => scenario(scenarios, id)) as [
    Scenario,
    Scenario,
    Scenario,
    Scenario,
  ];
  const ca = rate(c) / rate(a);
  const db = rate(d) / rate(b);
  const atLeast = (label: string, ratio: number, target: number) => ({
    label,
    value: ratio.toFixed(2),
    target: `>= ${target}`,
    met: ratio >= target,
  });
  const atMost = (label: string, p99Ms: number, target: number) => ({
    label,
    value: `${p99Ms} ms`,
    target: `<= ${target} ms`,
    met: p99Ms <= target,
  });
  return [
    atLeast('ping throughput c/a', ca, TARGETS.ping.ratio),
    atMost('ping p99', c.result.latency.p99, TARGETS.ping.p99Ms),
    atLeast('post throughput d/b', db, TARGETS.post.ratio),
    atMost('post p99', d.result.latency.p99, TARGETS.post.p99Ms),
  ];
}

function rows(scenarios: Scenario[]): string[][] {
  return scenarios.map((s) => [
    `${s.id}) ${s.name}`,
    fmt(rate(s)),
    String(s.result.latency.p50),
    String(s.result.latency.p99),
    fmt(s.result.requests.total),
    String(s.result.non2xx),
    String(s.result.errors + s.result.timeouts),
    ms(s.serverMsPerRequest),
    s.postgresMsPerRequest > 0 ? ms(s.postgresMsPerRequest) : '-',
    `${s.loopDelay.p99.toFixed(1)}`,
    s.machineBusy === null ? 'n/a' : `${Math.round(s.machineBusy * 100)}%`,
  ]);
}

const HEADER = [
  'scenario',
  'req/s',
  'p50 ms',
  'p99 ms',
  'requests',
  'non-2xx',
  'errors',
  'server CPU ms/req',
  'PG CPU ms/req',
  'loop delay p99 ms',
  'CPU busy',
];

/** The console version: aligned columns, then the targets and the checks. */
export function renderTable(scenarios: Scenario[], checks: Check[]): string {
  const all = [HEADER, ...rows(scenarios)];
  const widths = HEADER.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  const out = [line(HEADER), line(widths.map((w) => '-'.repeat(w))), ...rows(scenarios).map(line), ''];
  for (const v of verdicts(scenarios))
    out.push(`${v.label.padEnd(20)} ${v.value.padStart(8)}  target ${v.target.padEnd(9)} ${v.met ? 'met' : 'NOT MET'}`);
  out.push('');
  for (const c of checks) out.push(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`);
  return out.join('\n');
}

export function markdownTable(header: string[], body: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...body.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

const per = (n: number, a: Activity) => (a.samples ? (n / a.samples).toFixed(1) : '-');

/** Average number of the bench database's backends in each state during each run. */
function activitySection(scenarios: Scenario[]): string {
  return [
    '## PostgreSQL backends during each run',
    '',
    "Average number of the bench database's connections in each state (pg_stat_activity sampled every 200 ms).",
    '"Waiting for the app" is idle in transaction: PostgreSQL has answered and waits for the server process\'s next statement.',
    '',
    markdownTable(
      ['scenario', 'active', 'of which lock waits', 'of which WAL waits', 'waiting for the app', 'idle'],
      scenarios.map((s) => [
        `${s.id}) ${s.name}`,
        per(s.activity.active, s.activity),
        per(s.activity.lockWaits, s.activity),
        per(s.activity.walWaits, s.activity),
        per(s.activity.waitingForApp, s.activity),
        per(s.activity.idle, s.activity),
      ]),
    ),
    '',
  ].join('\n');
}

/** Where a post's wall time goes, per post, from the profiled pass. */
function profileSection(report: Report): string {
  const { profile, requests } = report.postProfile;
  if (requests === 0 || profile.queries.length === 0) return '';
  const total = profile.queries.reduce((sum, q) => sum + q.totalMs, 0);
  const body = profile.queries.map((q) => [
    `\`${q.label}\``,
    (q.count / requests).toFixed(2),
    q.meanMs.toFixed(2),
    `${Math.round((q.totalMs / total) * 100)}%`,
  ]);
  body.push([
    'waiting for a pooled connection',
    (profile.acquire.count / requests).toFixed(2),
    profile.acquire.count ? (profile.acquire.totalMs / profile.acquire.count).toFixed(2) : '0',
    '-',
  ]);
  return [
    '## Where a post spends its time',
    '',
    `A further ${fmt(requests)} posts after the timed run (same load), with the server timing every statement from the`,
    'driver call to its result: wall time, so it includes PostgreSQL, the socket and waiting for the event loop.',
    `Each post made **${statementsPerPost(report).toFixed(1)} statements**, one round trip each; the INSERT baseline makes 1.`,
    '',
    markdownTable(['statement', 'per post', 'mean ms', 'share of statement time'], body),
    '',
  ].join('\n');
}

function statementsPerPost(report: Report): number {
  const { profile, requests } = report.postProfile;
  return requests ? profile.queries.reduce((sum, q) => sum + q.count, 0) / requests : 0;
}

/** Share of one core the server process used: its CPU per request times the requests a second. */
const serverCores = (s: Scenario) => ((s.serverMsPerRequest ?? 0) * rate(s)) / 1000;
const postgresCores = (s: Scenario) => (s.postgresMsPerRequest * rate(s)) / 1000;

/** A data-driven note on what limits a missed target. */
function dominates(report: Report, missed: Verdict[]): string {
  if (missed.length === 0) return '';
  const s = (id: Scenario['id']) => scenario(report.scenarios, id);
  const lines = ['## What dominates', ''];
  if (missed.some((v) => v.label.startsWith('ping'))) {
    const a = s('a');
    const c = s('c');
    lines.push(
      `- **Ping**: CPU in the one server process, which ran at ${Math.round(serverCores(c) * 100)}% of a core: ` +
        `${ms(c.serverMsPerRequest)} ms per ping against ${ms(a.serverMsPerRequest)} ms per constant answer ` +
        `(PostgreSQL ${ms(c.postgresMsPerRequest)} ms: the batched ping records). A ping adds body validation, the ` +
        'API-key hash, candidate lookup, eligibility and auction, the signed ping_id and its record. With 50 ' +
        'connections each waiting for its answer, latency is about 50 / throughput: ' +
        `${(50_000 / rate(c)).toFixed(1)} ms on average at ${fmt(rate(c))} pings/s, and the baseline (a) itself ` +
        `has p99 ${a.result.latency.p99} ms here, so p99 <= ${TARGETS.ping.p99Ms} ms at 50 connections needs a machine ` +
        'where the constant route serves well over 10,000 req/s.',
    );
  }
  if (missed.some((v) => v.label.startsWith('post'))) {
    const b = s('b');
    const d = s('d');
    const n = statementsPerPost(report);
    lines.push(
      `- **Post**: ${n.toFixed(1)} statements per post, one round trip each, against 1 for the baseline. The usual ` +
        'sale is one prepared statement (re-check prior sales, take cap slots, store the lead and its matches); the ' +
        'careful path (a cap filled or a duplicate sold elsewhere) adds the prior-sales read and a transaction. ' +
        `The server process spent ${ms(d.serverMsPerRequest)} ms of CPU per post against ${ms(b.serverMsPerRequest)} ms ` +
        `per insert (request validation, the ping_id check, the auction and its compact explanation, a 40-parameter bind); ` +
        `PostgreSQL ${ms(d.postgresMsPerRequest)} ms per post against ${ms(b.postgresMsPerRequest)} ms per insert ` +
        '(three inserts with their indexes and foreign keys, the cap counters, the duplicate checks). ' +
        `The two cores are the limit: the server process used ${Math.round(serverCores(d) * 100)}% of a core and ` +
        `PostgreSQL ${Math.round(postgresCores(d) * 100)}%, the load generator the rest; PostgreSQL's connections were ` +
        `on average ${per(d.activity.active, d.activity)} active (${per(d.activity.lockWaits, d.activity)} on locks, ` +
        `${per(d.activity.walWaits, d.activity)} on WAL) and ${per(d.activity.waitingForApp, d.activity)} idle in ` +
        'transaction, waiting for the server process. ' +
        `Posts queued for one of the ${report.machine.poolSize} pooled connections for ` +
        `${report.postProfile.profile.acquire.count ? (report.postProfile.profile.acquire.totalMs / report.postProfile.profile.acquire.count).toFixed(0) : '0'} ms ` +
        'on average. ' +
        `At 50 connections latency is about 50 / throughput: ${(50_000 / rate(d)).toFixed(1)} ms on average at ` +
        `${fmt(rate(d))} posts/s, and the one-INSERT baseline (b) itself has p99 ${b.result.latency.p99} ms here, so ` +
        `p99 <= ${TARGETS.post.p99Ms} ms at 50 connections needs posts faster than that baseline's single INSERT.`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

/** The light-load runs' latencies, beside the targets they inform. */
function lightLines(scenarios: Scenario[]): string[] {
  const lines = scenarios
    .filter((s) => s.light)
    .map(
      (s) =>
        `- ${s.id}) ${s.name}: ${fmt(rate(s))} req/s, p50 ${s.result.latency.p50} ms, p99 ${s.result.latency.p99} ms.`,
    );
  return lines.length
    ? [
        'The targets are judged at 50 connections, each waiting for its answer, so latency there is about',
        '50 / throughput. With a few connections the same requests show their latency below saturation:',
        '',
        ...lines,
        '',
      ]
    : [];
}

export function renderMarkdown(report: Report): string {
  const { machine, exchange } = report;
  const v = verdicts(report.scenarios);
  const missed = v.filter((x) => !x.met);
  return [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` (bench/run.ts) on ${machine.date}; every run overwrites this file.`,
    'Performance is reported as ratios against baselines measured in the same run (DESIGN.md §9), so a',
    'slower or busier machine moves the baselines with the engine.',
    '',
    '## Machine',
    '',
    `- ${machine.nproc} CPUs (${machine.cpu}), ${machine.memoryGb} GB memory; load average before the run ` +
      `${machine.loadBefore.map((x) => x.toFixed(2)).join(' / ')} (the machine is shared: other work may run at the same time)`,
    `- Node ${machine.node}; PostgreSQL ${machine.postgres} on loopback`,
    `- Server: the app built by \`createDeps\`/\`buildApp\` (NODE_ENV=production, logging off, rate limit off), one process, ` +
      `pg pool of ${machine.poolSize}; load from autocannon in another process on the same machine`,
    '',
    '## Method',
    '',
    `- A fresh database \`leadex_bench_*\` is created, migrated, loaded with the ZIP table and seeded with ${exchange.buyers} buyers ` +
      `and ${exchange.campaigns} live campaigns over 2,000 ZIPs of 10 states (${exchange.byLocation.state} by state, ` +
      `${exchange.byLocation.zip} by ZIP list, ${exchange.byLocation.zipset} by zipset over ${exchange.zipsets} regions; ` +
      `six services, one or two each; ${exchange.shared} with shared leads; ${exchange.capped} capped high enough never to ` +
      `fill in a run; ${exchange.withHours} with all-day hours in their own zone; ${exchange.withSourceFilters} with source ` +
      'restrictions), and 2 approved sources paid $10 and $15 a lead. The database is dropped at the end.',
    ...(exchange.fieldsPerService > 0
      ? [
          `- BENCH_FIELDS=1: each service has ${exchange.fieldsPerService} fields of its own (7 at the ping, 3 at the post) and ` +
            `every campaign ${exchange.rulesPerCampaign} field filters (4 judged at the ping, 1 left to the post); the pings and ` +
            'posts send values every rule accepts (bench/fields.ts).',
        ]
      : []),
    `- Each scenario: ${machine.warmupSeconds} s warm-up (discarded), then ${machine.seconds} s at ${machine.connections} ` +
      'connections (autocannon, no pipelining). req/s is the mean of per-second samples; latencies are whole milliseconds.',
    '- (a) `GET /bench/constant`: a constant JSON object the size of a ping answer, on the same Fastify instance.',
    '- (b) `POST /bench/insert`: the body of a post, stored by one INSERT into `bench_rows(id, payload jsonb, created_at)` ' +
      'through the same pool.',
    '- (c) `POST /api/ping` `{service, zip}` over random pairs of the seeded exchange: 95 % bought by at least one campaign, ' +
      '5 % not (no_match), alternating between the two sources.',
    `- (d) \`POST /api/post\`: ${fmt(report.poolSize)} pings are made first (not timed); each run posts the next unused ping_id ` +
      'once, with unique contact data (valid US phone, email) and consent fields; every post re-runs the auction and sells.',
    "- (c') and (d'): the same requests, already warm, from 5 connections, to show latency below saturation; " +
      'informational, the targets are judged on (a) to (d).',
    "- CPU columns: server CPU is the server process (user + system) per request; PG CPU is the bench database's " +
      'backends per request; busy is the whole machine during the run. Loop delay: how late the server process ran ' +
      'its callbacks (perf_hooks.monitorEventLoopDelay), p99 over the run.',
    '',
    '## Results',
    '',
    markdownTable(HEADER, rows(report.scenarios)),
    '',
    '## Targets (issue 4)',
    '',
    markdownTable(
      ['measure', 'measured', 'target', ''],
      v.map((x) => [x.label, x.value, x.target, x.met ? 'met' : '**not met**']),
    ),
    '',
    ...lightLines(report.scenarios),
    '## Correctness after the posts',
    '',
    ...report.checks.map((c) => `- ${c.ok ? 'ok' : '**FAILED**'}: ${c.name} (${c.detail})`),
    '',
    activitySection(report.scenarios),
    profileSection(report),
    dominates(report, missed),
  ].join('\n');
}

/** Where the hand-kept record of earlier runs starts in docs/benchmarks.md; every run keeps it. */
export const EARLIER_RUNS = '## Earlier runs';

/** The doc's hand-kept record of earlier runs (from EARLIER_RUNS to the end), or '' if none. */
export function earlierRunsOf(path: string): string {
  let doc = '';
  try {
    doc = readFileSync(path, 'utf8');
  } catch {
    return '';
  }
  const at = doc.indexOf(`\n${EARLIER_RUNS}`);
  return at >= 0 ? `\n${doc.slice(at + 1).trimEnd()}\n` : '';
}

/** The soak's section (bench/soak.ts): an hour's run, kept when `npm run bench` rewrites the report. */
export const SOAK_SECTION = '## Soak: an hour of steady ping + post (issue 28)';

/** One section of the report (from its title to the next section), or '' if it has none. */
export function sectionOf(path: string, title: string): string {
  let doc = '';
  try {
    doc = readFileSync(path, 'utf8');
  } catch {
    return '';
  }
  const at = doc.indexOf(title);
  if (at < 0) return '';
  const next = doc.indexOf('\n## ', at + title.length);
  return doc.slice(at, next >= 0 ? next + 1 : undefined).trimEnd();
}

/**
 * Writes one scenario's section into the report (before the earlier runs), replacing its earlier one
 * up to the next section: a part run alone (BENCH_ONLY) keeps the sections of the others.
 */
export function writeSection(path: string, title: string, section: string): void {
  let doc = '';
  try {
    doc = readFileSync(path, 'utf8');
  } catch {
    doc = '# Benchmarks\n';
  }
  const earlier = earlierRunsOf(path);
  if (earlier) doc = doc.slice(0, doc.indexOf(`\n${EARLIER_RUNS}`) + 1);
  const at = doc.indexOf(title);
  const head = at >= 0 ? doc.slice(0, at) : `${doc.trimEnd()}\n\n`;
  const next = at >= 0 ? doc.indexOf('\n## ', at + title.length) : -1;
  const after = next >= 0 ? `\n${doc.slice(next + 1).trimEnd()}\n` : '';
  writeFileSync(path, `${head}${section.trimEnd()}\n${after}${earlier}`);
}

import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import type { Db } from '../src/db/client';
import { blockedRange, type OutboundNetwork, type ResolvedAddress } from '../src/lib/outbound-http';
import { NOTIFY_QUEUE } from '../src/modules/deliveries/notify/notify';

/** A request a local HTTP receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * What the receiver answers a request on a path: a status (with `{"ok": status < 300}`), a status
 * and body of its own, or `hang` (never answers).
 */
export type Reply = number | 'hang' | { status: number; body: string; contentType?: string };

/** A local HTTP server standing in for a buyer's endpoint; `replies[path]` scripts its answers. */
export async function startHttpReceiver() {
  const received: Received[] = [];
  const scripts = new Map<string, Reply[]>();
  const fallback = new Map<string, Reply>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const reply = scripts.get(path)?.shift() ?? fallback.get(path) ?? 200;
      if (reply === 'hang') return;
      if (typeof reply === 'object') {
        res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'application/json' });
        res.end(reply.body);
        return;
      }
      res.writeHead(reply, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: reply < 300 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path: string) => received.filter((r) => r.path === path),
    /** Answers the next requests on `path` in turn, then `then` (200 by default). */
    script(path: string, replies: Reply[], then: Reply = 200) {
      scripts.set(path, [...replies]);
      fallback.set(path, then);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A mail a local SMTP server accepted. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/** A local SMTP server (no TLS, no auth) that accepts every message. */
export async function startSmtpReceiver() {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Polls `check` until it answers something truthy, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A scripted network for the outbound guard (src/lib/outbound-http.ts) with the production guard
 * between its two halves: `names` says what each name resolves to, and a connection to a public
 * address is carried to the local peers on 127.0.0.1 (the port is the URL's) instead of the
 * internet. A loopback address passes through as it is, as on a real host: that is what a guard
 * that let it by would reach. Any other address (private, link-local, …) has no route here, so a
 * guard that let one by fails at once instead of reaching a real network. Every lookup and every
 * address connected to is recorded.
 */
export function scriptedNetwork(names: Record<string, string[]>) {
  const lookups: string[] = [];
  const dials: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    lookups.push(hostname);
    return (names[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const dial = (checked: ResolvedAddress): ResolvedAddress => {
    dials.push(checked.address);
    const range = blockedRange(checked.address);
    if (range === null) return { address: '127.0.0.1', family: 4 };
    if (range === 'loopback') return checked;
    throw Object.assign(new Error(`connect ENETUNREACH ${checked.address} (no route in the test network)`), {
      code: 'ENETUNREACH',
    });
  };
  const network: Required<OutboundNetwork> = { resolve, dial };
  return { network, lookups, dials };
}

/** A notify job as pg-boss holds it: its step in the chain, its state and how long it was set to wait. */
export interface QueuedNotifyJob {
  id: string;
  channel: string;
  target: string;
  step: number;
  state: string;
  /** start_after - created_on: the backoff the job was inserted with (both from one now()). */
  delayMs: number;
}

/** The notify jobs of a match (src/jobs), in the order they were inserted. */
export async function notifyJobsOf(db: Db, matchId: string): Promise<QueuedNotifyJob[]> {
  const result = await db.execute(sql`
    select id::text as id, data->>'channel' as channel, data->>'target' as target, (data->>'step')::int as step,
      state::text as state, round(extract(epoch from (start_after - created_on)) * 1000)::int as delay_ms
    from pgboss.job
    where name = ${NOTIFY_QUEUE} and data->>'matchId' = ${matchId}
    order by created_on, (data->>'step')::int, id`);
  return (
    result as unknown as {
      rows: { id: string; channel: string; target: string; step: number; state: string; delay_ms: number }[];
    }
  ).rows.map((r) => ({
    id: r.id,
    channel: r.channel,
    target: r.target,
    step: Number(r.step),
    state: r.state,
    delayMs: Number(r.delay_ms),
  }));
}

/**
 * Whether a match's notify jobs have all ended (completed or failed): none waits, runs or will
 * retry, so whatever the workers would do for it is done. The deterministic form of "nothing more
 * happens": no sleep that a slow machine outlasts.
 */
export async function notifyJobsSettled(db: Db, matchId: string): Promise<boolean> {
  return (await notifyJobsOf(db, matchId)).every((j) => j.state === 'completed' || j.state === 'failed');
}

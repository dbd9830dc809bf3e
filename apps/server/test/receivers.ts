import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import { beforeEach, expect } from 'vitest';
import type { Config } from '../src/config';
import type { Db } from '../src/db/client';
import { deliveryAttempts } from '../src/db/schema';
import { blockedRange, type OutboundNetwork, type ResolvedAddress } from '../src/lib/outbound-http';
import { NOTIFY_QUEUE } from '../src/modules/deliveries/notify/notify';
import { createBuyer, createCampaign, createSourceWithKey } from './factories';
import { useFixture } from './fixtures';
import { type TestApp, useAdminTestApp } from './harness';

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

/**
 * Starts an HTTP server on a free port of 127.0.0.1: its port, the URL of a path on it, and its close
 * (which ends the connections still open, a hanging request's too).
 */
export async function listenLocally(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: (path = '') => `http://127.0.0.1:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

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
  const { url, close } = await listenLocally(server);
  return {
    url,
    received,
    on: (path: string) => received.filter((r) => r.path === path),
    /** Answers the next requests on `path` in turn, then `then` (200 by default). */
    script(path: string, replies: Reply[], then: Reply = 200) {
      scripts.set(path, [...replies]);
      fallback.set(path, then);
    },
    close,
  };
}

/** A request a local answering server got. */
export interface Hit {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local HTTP server whose answers each test writes (`useAnsweringServer`). */
export interface AnsweringServer {
  /** `http://127.0.0.1:{port}`. */
  base: string;
  port: number;
  /** The requests of the current test, in order. */
  hits: Hit[];
  /** Answers a request (once its body is in); a test replaces it. Not ending `res` leaves the request hanging. */
  answer: (res: ServerResponse, req: IncomingMessage) => void;
}

/**
 * A local HTTP server for the test file (a fixture: started before its tests, closed after) that
 * records every request and answers it as the test says. Before each test, `hits` is emptied and
 * `answer` replies 200 with `defaultBody` as JSON.
 */
export function useAnsweringServer(defaultBody: string): AnsweringServer {
  let closeListener: (() => Promise<void>) | undefined;
  const server = useFixture(
    async () => {
      const state: AnsweringServer = { base: '', port: 0, hits: [], answer: () => {} };
      const started = createServer((req, res) => {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => {
          state.hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
          state.answer(res, req);
        });
      });
      const listening = await listenLocally(started);
      closeListener = listening.close;
      state.port = listening.port;
      state.base = listening.url();
      return state;
    },
    async () => {
      await closeListener?.();
    },
  );
  beforeEach(() => {
    server.hits = [];
    server.answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(defaultBody);
  });
  return server;
}

/** An answer of a JSON body (status 200 unless given), for a route of `useRoutedAnsweringServer`. */
export const jsonAnswer =
  (body: object, status = 200) =>
  (res: ServerResponse) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/**
 * Buyers' systems on one local server that answers per path: `routes` (emptied before each test) maps a
 * path to its answer; a path without a route answers `unrouted` (`{"ok":true}` by default). `hitsOn`
 * is what came to a path.
 */
export function useRoutedAnsweringServer(unrouted = '{"ok":true}') {
  const server = useAnsweringServer('{"ok":true}');
  const routes = new Map<string, (res: ServerResponse) => void>();
  beforeEach(() => {
    routes.clear();
    server.answer = (res, req) => {
      const route = routes.get(req.url ?? '');
      if (route) route(res);
      else res.writeHead(200, { 'content-type': 'application/json' }).end(unrouted);
    };
  });
  const hitsOn = (path: string) => server.hits.filter((h) => h.url === path);
  return { server, routes, hitsOn };
}

/** A mail a local SMTP server accepted. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A local SMTP server (no TLS) on a free port that hands every message it accepts to `onMail`. By
 * default it takes mail without authentication; a test of authentication passes its own `options`.
 */
export async function listenSmtp(
  onMail: (mail: ReceivedMail, session: SMTPServerSession) => void,
  options: SMTPServerOptions = { authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'] },
) {
  const server = new SMTPServer({
    logger: false,
    ...options,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        const to = session.envelope.rcptTo.map((r) => r.address);
        onMail({ from, to, raw: Buffer.concat(chunks).toString('utf8') }, session);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A local SMTP server (no TLS, no auth) that accepts every message and keeps it in `mails`. */
export async function startSmtpReceiver() {
  const mails: ReceivedMail[] = [];
  return { ...(await listenSmtp((mail) => mails.push(mail))), mails };
}

/** A local HTTP receiver (`startHttpReceiver`). */
export type HttpReceiver = Awaited<ReturnType<typeof startHttpReceiver>>;
/** A local SMTP receiver (`startSmtpReceiver`). */
export type SmtpReceiver = Awaited<ReturnType<typeof startSmtpReceiver>>;

/**
 * The local peers of a delivery test file (fixtures: started before its tests, closed after): an
 * HTTP receiver and an SMTP receiver. Declared before `useTestApp`, so the app can be given their
 * URLs: `useTestApp(() => ({ SMTP_URL: smtp.url }))`.
 */
export function useReceivers(): { http: HttpReceiver; smtp: SmtpReceiver } {
  return {
    http: useFixture(startHttpReceiver, (r) => r.close()),
    smtp: useFixture(startSmtpReceiver, (r) => r.close()),
  };
}

/** Deliveries on a test's time: retries after 50 ms, workers that poll twice a second, a dispatch every 100 ms. */
export const QUICK_DELIVERIES = {
  DELIVERY_RETRY_DELAYS_MS: [50, 50],
  JOB_POLL_SECONDS: 0.5,
  DISPATCH_INTERVAL_MS: 100,
} satisfies Partial<Config>;

/**
 * An exchange whose buyers' systems are local servers reached under public names (`network`), the
 * private-address guard on as in production: jobs run, deliveries are quick (`config` adds to or
 * overrides that), no public API rate limit; and a source with an API key (lead cost $10). Without a
 * `network`, `config` lets deliveries reach 127.0.0.1 (`ALLOW_PRIVATE_DELIVERY_TARGETS`).
 */
export function useDeliveryTestApp(network: OutboundNetwork | undefined, config: () => Partial<Config>) {
  const { t, admin } = useAdminTestApp(
    () => ({ PUBLIC_API_RATE_LIMIT: 0, ALLOW_PRIVATE_DELIVERY_TARGETS: false, ...QUICK_DELIVERIES, ...config() }),
    { network, startJobs: true },
  );
  const source = useFixture(() => createSourceWithKey(t, { maxCost: 10 }));
  return { t, admin, source };
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

/** The delivery attempts of a match, first attempt first (by channel and target, then attempt, when `byTarget`). */
export function deliveryAttemptsOf(db: Db, matchId: string, { byTarget = false } = {}) {
  const query = db.select().from(deliveryAttempts).where(eq(deliveryAttempts.matchId, matchId));
  return byTarget
    ? query.orderBy(deliveryAttempts.channel, deliveryAttempts.target, deliveryAttempts.attempt)
    : query.orderBy(deliveryAttempts.attempt, deliveryAttempts.id);
}

/** A buyer's custom delivery created through POST /api/webhook with the session `as` (an admin's); answers it. */
export async function createDelivery(t: TestApp, as: string, delivery: Record<string, unknown>) {
  const res = await t.request({ method: 'POST', url: '/api/webhook', as, payload: delivery });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; name: string };
}

/**
 * The form of a live Ping/Post delivery (DESIGN.md §6) of `buyer`: it pings `{base}/ping` with the
 * lead's fields `pingMap` names, and posts the ones `map` names to `{base}/post`; an answer with
 * `ok` = `true` accepts, the ping's bid read from `bid` and the buyer's ping id from `id`. `fields`
 * adds to or overrides the delivery's settings, `ping` the ping's.
 */
export function pingPostDelivery(o: {
  buyer: string;
  name: string;
  base: string;
  map: Record<string, string>;
  pingMap: Record<string, string>;
  fields?: Record<string, unknown>;
  ping?: Record<string, unknown>;
}) {
  return {
    buyer: o.buyer,
    name: o.name,
    url: `${o.base}/post`,
    status: 'live',
    ping_id: 'ping_post',
    accept: fieldRows({ ok: 'true' }),
    map: fieldRows(o.map),
    ping: {
      url: `${o.base}/ping`,
      map: fieldRows(o.pingMap),
      accept: fieldRows({ ok: 'true' }),
      price_field: 'bid',
      ping_id_field: 'id',
      ...o.ping,
    },
    ...o.fields,
  };
}

type PingPostDelivery = Parameters<typeof pingPostDelivery>[0];

/**
 * A buyer with a $5 campaign in `state` (the price never counts: the buyer's bid stands in for it)
 * and a live Ping/Post delivery (`pingPostDelivery`), created by `as` (an admin).
 */
export async function createPingPostBuyer(
  t: TestApp,
  as: string,
  state: string,
  delivery: Omit<PingPostDelivery, 'buyer'>,
) {
  const buyer = await createBuyer(t);
  const campaignId = await createCampaign(t, buyer._id, { price: 5, states: [state] });
  return {
    buyer,
    campaignId,
    delivery: await createDelivery(t, as, pingPostDelivery({ buyer: buyer._id, ...delivery })),
  };
}

/**
 * A delivery's field rows (its `map`, `static` or `accept` list, `{ field, value }` each) written
 * as one object of field to value, in order: the lists the tests set up read as the form shows them.
 */
export function fieldRows(rows: Record<string, string>): { field: string; value: string }[] {
  return Object.entries(rows).map(([field, value]) => ({ field, value }));
}

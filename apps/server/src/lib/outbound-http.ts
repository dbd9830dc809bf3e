import { lookup as dnsLookup } from 'node:dns/promises';
import http, { validateHeaderName, validateHeaderValue } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { headerNameProblem, headerValueProblem } from '@leadex/domain';
import ipaddr from 'ipaddr.js';

/** How long a delivery may take by default (DESIGN.md §6); the sale's inline deliveries use 3 s. */
export const DEFAULT_OUTBOUND_TIMEOUT_MS = 10_000;
/** Most of a response kept: a buyer's answer is a status line, not a download. */
export const MAX_RESPONSE_BYTES = 256 * 1024;

/** A name's addresses, as `dns.lookup(name, { all: true })` gives them. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** One address, as a resolver answers it. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * Where the socket connects for an address the guard has checked and allowed: that very address
 * in production. Tests stand a local peer in for a public address, so a "public" target is
 * reached without the network, and they see which checked address the connection went to.
 * (A literal address in the URL is connected to as it is: no lookup, no dial.)
 */
export type Dialer = (checked: ResolvedAddress) => ResolvedAddress;

/**
 * How outbound calls find and reach an address: the system's DNS and a plain connect by default.
 * Tests inject both; the guard between them stays the production one.
 */
export interface OutboundNetwork {
  /** The name resolver; the system's by default. */
  resolve?: Resolver;
  /** Where a checked address is connected to; the address itself by default. */
  dial?: Dialer;
}

const direct: Dialer = (checked) => checked;

/**
 * Why no answer came: a refused target, no answer in time, the network, or a request Node would not
 * send (an unusable URL or header, or anything else `http.request` throws).
 */
export type OutboundErrorCode = 'blocked' | 'timeout' | 'network' | 'invalid_url' | 'invalid_request';

/** Why an outbound request got no answer. */
export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

/** The only IPv6 addresses handed out to hosts on the internet (RFC 4291 §2.4); the rest is special or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** IPv4-compatible IPv6 (`::a.b.c.d`, deprecated): `[::127.0.0.1]` is written `[::7f00:1]` by a URL and reaches 127.0.0.1. */
const IPV4_COMPATIBLE_V6 = ipaddr.parseCIDR('::/96');

/**
 * The range of a blocked address (loopback, private, linkLocal incl. the 169.254.169.254 metadata
 * service, carrierGradeNat, uniqueLocal, multicast, unspecified, …), or null for a public unicast
 * address. Every spelling is parsed to its bytes first (a zone `%eth0` dropped, brackets too), and an
 * IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it carries. Anything that
 * is not plain unicast is refused: translation prefixes that could reach an IPv4 network indirectly
 * (NAT64 64:ff9b::/96 and /48, SIIT, 6to4, Teredo), IPv4-compatible addresses, every IPv6 address
 * outside the global unicast 2000::/3, and unparsable text (issue 29 item 9).
 */
export function blockedRange(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return 'invalid';
  const ip = ipaddr.process(bare);
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6') {
    if (ip.match(IPV4_COMPATIBLE_V6)) return 'ipv4Compatible';
    if (!ip.match(GLOBAL_UNICAST_V6)) return 'notGlobalUnicast';
  }
  return null;
}

export interface OutboundRequest extends OutboundNetwork {
  url: string;
  method: 'POST' | 'PUT' | 'GET';
  headers?: Record<string, string>;
  body?: string;
  /** The whole request, connect to last byte; 10 s by default. */
  timeoutMs?: number;
  /** Development and tests only (`ALLOW_PRIVATE_DELIVERY_TARGETS`): private targets are reachable. */
  allowPrivate?: boolean;
  maxResponseBytes?: number;
  /**
   * Ends the request when it aborts, as a timeout (`AbortSignal.timeout(ms)`: a ping's own limit):
   * whatever the buyer's system does, the caller is answered then.
   */
  signal?: AbortSignal;
  /**
   * Keeps the connection open for the next request to the same host (a ping: every source's ping asks
   * the same buyers' systems). Only for requests that may be sent twice: one that meets a kept
   * connection the buyer had just closed is sent again once on a new one.
   */
  reuseConnection?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as text, at most `maxResponseBytes` of it. */
  body: string;
  truncated: boolean;
  durationMs: number;
}

const refused = (host: string, address: string, range: string) =>
  new OutboundError(
    'blocked',
    `Delivery to ${host} refused: it resolves to ${address}, a ${range} address; only public addresses are allowed`,
  );

/**
 * A `lookup` for the socket: the name is resolved when the connection is made, and every address
 * it answers is checked right there, so a DNS answer that changes between a check and the connect
 * (rebinding) cannot reach a private address.
 */
export function guardedLookup(resolve: Resolver, allowPrivate: boolean, dial: Dialer = direct): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((found) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses = found.filter((a) => wanted === 0 || a.family === wanted);
        if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
        if (!allowPrivate) {
          for (const a of addresses) {
            const range = blockedRange(a.address);
            if (range) throw refused(hostname, a.address, range);
          }
        }
        // The addresses just checked are the ones connected to: nothing resolves the name again.
        const targets = addresses.map((a) => dial({ address: a.address, family: a.family }));
        if (options.all) callback(null, targets);
        else callback(null, targets[0]?.address ?? '', targets[0]?.family ?? 4);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, '', 0));
  };
}

/**
 * Why Node's HTTP client would refuse this header, in words naming it (`label` says whose: `Header`,
 * `Ping header`); null when it sends it. Node's own validators decide, so what is saved is exactly what
 * can be sent; the domain's mirror of their rule only words the message.
 */
export function headerProblem(
  name: string,
  value: unknown,
  label = 'Header',
): { part: 'header' | 'value'; message: string } | null {
  try {
    validateHeaderName(name);
  } catch (error) {
    return {
      part: 'header',
      message:
        (typeof name === 'string' ? headerNameProblem(name, label) : `${label} name is required`) ??
        `${label} name cannot be sent: ${messageOf(error)}`,
    };
  }
  try {
    // Typed as a string, but it checks whatever a stored row holds (a number, null) at run time.
    validateHeaderValue(name, value as string);
  } catch (error) {
    const wording = typeof value === 'string' ? headerValueProblem(name, value, label) : null;
    return { part: 'value', message: wording ?? `${label} ${name}'s value cannot be sent: ${messageOf(error)}` };
  }
  return null;
}

/** The text of anything thrown (an Error or not). */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The kept-alive connections of `reuseConnection` requests, one pool per way of reaching addresses (the
 * resolver, the dialer and whether private targets are allowed). A pooled socket was made through the
 * guarded lookup like any other, so it is connected to an address that was checked when it connected;
 * reusing it reaches nothing else, whatever the name resolves to since. Bounded: at most four agents
 * (http or https, private targets allowed or not) per resolver and dialer, which are the app's own
 * (weak keys: a test's go with it); an agent's idle sockets close after POOLED_IDLE_MS.
 */
const pools = new WeakMap<Resolver, WeakMap<Dialer, Map<string, http.Agent>>>();

/** Idle kept connections are closed before the usual server keep-alive limit (5 s in Node) ends them. */
const POOLED_IDLE_MS = 4000;

function pooledAgent(resolve: Resolver, dial: Dialer, allowPrivate: boolean, secure: boolean): http.Agent {
  const byDial = pools.get(resolve) ?? new WeakMap<Dialer, Map<string, http.Agent>>();
  pools.set(resolve, byDial);
  const agents = byDial.get(dial) ?? new Map<string, http.Agent>();
  byDial.set(dial, agents);
  const key = `${secure ? 'https' : 'http'}:${allowPrivate}`;
  let agent = agents.get(key);
  if (!agent) {
    const options = { keepAlive: true, timeout: POOLED_IDLE_MS, lookup: guardedLookup(resolve, allowPrivate, dial) };
    agent = secure ? new https.Agent(options) : new http.Agent(options);
    agents.set(key, agent);
  }
  return agent;
}

/**
 * The one outbound HTTP call of every delivery (DESIGN.md §6): a timeout, redirects not followed
 * (a 3xx is answered as it is), and no private, loopback, link-local, CGNAT, unique-local,
 * multicast, unspecified or metadata address, checked on the address actually connected to.
 * Resolves with any HTTP status; rejects with an OutboundError when no answer came.
 */
export function outboundRequest(request: OutboundRequest): Promise<OutboundResponse> {
  const started = performance.now();
  const timeoutMs = request.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS;
  const maxBytes = request.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const allowPrivate = request.allowPrivate ?? false;

  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return Promise.reject(new OutboundError('invalid_url', `Not a valid URL: ${request.url}`));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(new OutboundError('invalid_url', 'Only http:// and https:// URLs can be delivered to'));
  if (url.username || url.password)
    return Promise.reject(new OutboundError('invalid_url', 'Put credentials in headers, not in the URL'));

  // A literal address is connected to without a lookup: check it here.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !allowPrivate) {
    const range = blockedRange(host);
    if (range) return Promise.reject(refused(url.hostname, host, range));
  }

  // Node throws on a header it will not send (ERR_INVALID_CHAR): answered as this call's failure instead.
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const problem = headerProblem(name, value);
    if (problem) return Promise.reject(new OutboundError('invalid_request', problem.message));
  }

  const secure = url.protocol === 'https:';
  const client = secure ? https : http;
  const resolver = request.resolve ?? systemResolver;
  const dialer = request.dial ?? direct;
  const signal = request.signal;
  const aborted = () => new OutboundError('timeout', `No answer within ${Math.round(performance.now() - started)} ms`);
  if (signal?.aborted) return Promise.reject(aborted());
  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    /** Ends the call once: with an error, an answer, or another call's outcome (a resend). */
    const finish = (outcome: Error | OutboundResponse | Promise<OutboundResponse>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onAbort = () => {
      const error = aborted();
      finish(error);
      req.destroy(error);
    };

    let req: http.ClientRequest;
    try {
      req = client.request(url, {
        method: request.method,
        headers: {
          ...(request.body !== undefined ? { 'content-length': String(Buffer.byteLength(request.body)) } : {}),
          ...request.headers,
        },
        // Every new connection goes through the guarded lookup; a pooled one went through it when it connected.
        ...(request.reuseConnection
          ? { agent: pooledAgent(resolver, dialer, allowPrivate, secure) }
          : { lookup: guardedLookup(resolver, allowPrivate, dialer), agent: false }),
      });
    } catch (error) {
      // Whatever else Node refuses to send is this call's failure, never the caller's exception.
      settled = true;
      reject(new OutboundError('invalid_request', messageOf(error)));
      return;
    }

    const timer = setTimeout(() => {
      const error = new OutboundError('timeout', `No answer within ${timeoutMs / 1000} s`);
      finish(error);
      req.destroy(error);
    }, timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });

    req.on('error', (error: Error) => {
      if (error instanceof OutboundError) return finish(error);
      // A kept connection the other side closed as the request went out: once more, on a new one.
      if (req.reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
        const left = timeoutMs - (performance.now() - started);
        return finish(outboundRequest({ ...request, reuseConnection: false, timeoutMs: Math.max(1, left) }));
      }
      const cause = (error as NodeJS.ErrnoException).code;
      finish(new OutboundError('network', cause ? `${cause}: ${error.message}` : error.message));
    });

    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = maxBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size = maxBytes;
          truncated = true;
          // Enough read: answer with what came and drop the rest.
          done();
          res.destroy();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      const done = () =>
        finish({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          truncated,
          durationMs: Math.round(performance.now() - started),
        });
      res.on('end', done);
      res.on('error', (error) => finish(new OutboundError('network', error.message)));
    });

    req.end(request.body);
  });
}

/** Load generation with autocannon: request bodies, timed runs and the pool of pings the posts follow. */
import autocannon from 'autocannon';
import { PING_FIELDS, POST_FIELDS, WITH_FIELDS } from './fields';
import type { ServiceZip } from './seed';

export const JSON_HEADERS = { 'content-type': 'application/json' };

export interface LoadOptions {
  /** Several URLs (API processes): autocannon spreads the connections over them in turn. */
  url: string | string[];
  connections: number;
  seconds: number;
}

/** One autocannon run of a single request shape (varied per request by `setupRequest`). */
export async function runLoad(options: LoadOptions, request: autocannon.Request): Promise<autocannon.Result> {
  return await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    timeout: 10,
    requests: [request],
  });
}

/** A unique, valid US phone per index: area code and exchange start with 2-9 (NANP). */
export function benchPhone(i: number): string {
  const area = 201 + (i % 700);
  const rest = Math.floor(i / 700);
  const exchange = 200 + (rest % 800);
  const line = Math.floor(rest / 800) % 10_000;
  return `${area}${exchange}${String(line).padStart(4, '0')}`;
}

const TCPA =
  'By clicking Get Quotes I agree to be contacted by up to 3 home improvement companies at the number provided, ' +
  'including by autodialer and prerecorded messages. Consent is not a condition of purchase.';

/** A post's body as a web form sends it: contact data and consent evidence, unique per index. */
export function postBody(pingId: string, i: number, tag: string): string {
  return JSON.stringify({
    ping_id: pingId,
    first_name: 'Pat',
    last_name: `Bench${i}`,
    phone: benchPhone(i),
    email: `lead${i}.${tag}@bench-leads.com`,
    address: `${100 + (i % 9000)} Main St`,
    homeowner: true,
    tcpa_consent: true,
    tcpa_language: TCPA,
    trusted_form: `https://cert.trustedform.com/${(i * 2_654_435_761).toString(16).padStart(40, '0').slice(0, 40)}`,
    ip: `203.0.113.${i % 250}`,
    ...(WITH_FIELDS ? POST_FIELDS : {}),
  });
}

/** Random (service, ZIP) pairs: mostly ones some campaign buys, a few that nobody does. */
export function pingBodies(
  matching: ServiceZip[],
  unmatched: ServiceZip[],
  n: number,
  rnd: () => number,
  unmatchedShare = 0.05,
): string[] {
  return Array.from({ length: n }, () => {
    const list = rnd() < unmatchedShare && unmatched.length > 0 ? unmatched : matching;
    const pair = list[Math.floor(rnd() * list.length)] as ServiceZip;
    return JSON.stringify({ service: pair.service, zip: pair.zip, ...(WITH_FIELDS ? PING_FIELDS : {}) });
  });
}

export interface PooledPing {
  token: string;
  key: string;
}

/**
 * Pings `amount` matching pairs (outside any timed run) and keeps the ping_ids, each with the API
 * key of the source that pinged, for the post run to follow.
 */
export async function collectPings(
  options: Omit<LoadOptions, 'seconds'>,
  keys: { sourceId: string; key: string }[],
  bodies: string[],
  amount: number,
): Promise<{ pool: PooledPing[]; refused: number; result: autocannon.Result }> {
  const pool: PooledPing[] = [];
  let refused = 0;
  let n = 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    amount,
    timeout: 10,
    requests: [
      {
        method: 'POST',
        path: '/api/ping',
        // The ping_id is sealed (nothing in it is readable): the connection's context remembers which
        // key pinged, and the answer that follows on that connection (no pipelining) is that ping's.
        setupRequest(request, context: { key?: string }) {
          const i = n++;
          context.key = (keys[i % keys.length] as { key: string }).key;
          request.headers = { ...JSON_HEADERS, authorization: `Bearer ${context.key}` };
          request.body = bodies[i % bodies.length] as string;
          return request;
        },
        onResponse(status, body, context: { key?: string }) {
          const answer = status === 200 ? (JSON.parse(body) as { ok?: boolean; ping_id?: string }) : null;
          const key = answer?.ok ? context.key : undefined;
          if (answer?.ping_id && key) pool.push({ token: answer.ping_id, key });
          else refused += 1;
        },
      },
    ],
  });
  return { pool, refused, result };
}

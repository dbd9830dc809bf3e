import type { FastifyRequest } from 'fastify';
import { parseBoolean } from '../../distribution/normalize';

/**
 * Where the lead platforms put a source's API key (issue 32 item 2), besides `Authorization: Bearer`
 * and HTTP Basic: a body field or query parameter under any of these names, matched case-insensitively
 * (`apikey` ours, `lp_key` / `lp_campaign_key` LeadsPedia's and Lead Prosper's, `Key` boberdoo's).
 */
export const KEY_FIELDS: readonly string[] = ['apikey', 'lp_key', 'lp_campaign_key', 'key'];

/**
 * The test flags the platforms send, each read case-insensitively from the body or the query (issue 32
 * item 6): ours, LeadsPedia's and Lead Prosper's `lp_test`, boberdoo's `Test_Lead`, LeadConduit's
 * `is_test` and LeadConduit Classic's `xxTest`. Lead Prosper's `lp_action=test` is the other spelling.
 */
export const TEST_FIELDS: readonly string[] = ['test', 'lp_test', 'test_lead', 'is_test', 'xxtest'];
const TEST_ACTION = { field: 'lp_action', value: 'test' };

type Fields = Record<string, unknown>;

const fieldsOf = (part: unknown): Fields | undefined =>
  part && typeof part === 'object' && !Array.isArray(part) ? (part as Fields) : undefined;

/** The names of `fields` that are one of `names`, case-insensitively. */
const namesIn = (fields: Fields | undefined, names: readonly string[]) =>
  fields ? Object.keys(fields).filter((name) => names.includes(name.toLowerCase())) : [];

const textOf = (value: unknown) =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;

/** The key of `Authorization: Bearer <key>`, or the password of HTTP Basic (the user name when it has none). */
function keyOfHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme = '', value = ''] = header.trim().split(/\s+/, 2);
  if (scheme.toLowerCase() === 'bearer') return value || undefined;
  if (scheme.toLowerCase() !== 'basic') return undefined;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  return (password || (colon < 0 ? decoded : decoded.slice(0, colon))).trim() || undefined;
}

/**
 * The request's API key: the Authorization header (Bearer or Basic), else the first key field of the
 * query, else of the body. The body's key fields are removed, so no key is ever stored with a lead.
 */
export function takeApiKey(request: FastifyRequest): string | undefined {
  const body = fieldsOf(request.body);
  const bodyNames = namesIn(body, KEY_FIELDS);
  const fromBody = bodyNames.map((name) => textOf(body?.[name])).find(Boolean);
  for (const name of bodyNames) delete body?.[name];
  const query = fieldsOf(request.query);
  const fromQuery = namesIn(query, KEY_FIELDS)
    .map((name) => textOf(query?.[name]))
    .find(Boolean);
  return keyOfHeader(request.headers.authorization) ?? fromQuery ?? fromBody;
}

/** A platform's test flag: our booleans, and `Y`/`N` as boberdoo and Lead Prosper write them. */
function readFlag(raw: unknown): boolean | null | undefined {
  const word = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
  if (word === 'y') return true;
  if (word === 'n') return false;
  return parseBoolean(raw);
}

/**
 * Maps every test flag of the body and the query onto the body's one `test` field (the exchange's):
 * true when any says so, false when all that are present say no. A flag that reads as neither is put
 * in `test` as sent, so validation refuses it (after authentication) rather than sell a lead meant as a test.
 */
export function mapTestFlags(request: FastifyRequest): void {
  const body = fieldsOf(request.body);
  if (!body) return;
  const query = fieldsOf(request.query);
  const values: unknown[] = [];
  for (const part of [query, body]) {
    for (const name of namesIn(part, TEST_FIELDS)) {
      values.push(part?.[name]);
      if (part === body) delete body[name];
    }
    for (const name of namesIn(part, [TEST_ACTION.field]))
      if (textOf(part?.[name])?.toLowerCase() === TEST_ACTION.value) values.push(true);
  }
  if (values.length === 0) return;
  const flags = values.map((value) => ({ value, flag: readFlag(value) }));
  const unreadable = flags.find((f) => f.flag === null);
  if (flags.some((f) => f.flag === true)) body.test = true;
  else if (unreadable) body.test = unreadable.value;
  else if (flags.some((f) => f.flag === false)) body.test = false;
}

import { fieldLabel } from '@leadex/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';

/**
 * Text PostgreSQL cannot store: the NUL character (in text columns and in jsonb alike). It arrives as
 * `\u0000` in JSON, `%00` in forms and query strings, or `&#0;` in XML.
 */
const NUL = '\u0000';

/**
 * Text that is not Unicode: a UTF-16 surrogate without its pair (`\uD800`-`\uDFFF` alone, as JSON
 * may escape it). jsonb refuses it and text columns would store a replacement character in its place.
 * With the `u` flag a paired surrogate is one code point, so only a lone one matches.
 */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * How deep a body may nest (objects and lists within each other, the body itself being level 1). No
 * form of the exchange needs more than a few levels; thousands overflow the stack of whatever walks
 * them (PostgreSQL's jsonb, the schemas, JSON.stringify).
 */
export const MAX_DEPTH = 32;

/**
 * The public source API keeps every lead it is sent (DESIGN.md §11 "Input hygiene"): it strips NULs
 * and drops a `metadata` it cannot store, saying so in `warnings`, instead of refusing the lead.
 */
const LEAD_KEEPING_PATHS = new Set(['/api/ping', '/api/post', '/api/lead']);

/** The free-form field of a lead: dropped rather than refused when it cannot be stored. */
const METADATA = 'metadata';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the input hygiene changed in a kept lead (a dropped `metadata`), for the answer's `warnings`. */
    inputWarnings: string[] | null;
  }
}

const keepsLeads = (request: FastifyRequest) => LEAD_KEEPING_PATHS.has(request.url.split('?')[0] ?? '');

const hasNul = (text: string) => text.includes(NUL);
const hasLoneSurrogate = (text: string) => LONE_SURROGATE.test(text);
/** A key as an error may name it: without NULs or lone surrogates, which the answer could not carry. */
const printableKey = (key: string) => key.replaceAll(NUL, '').replace(/\p{Cs}/gu, '\uFFFD');

/** The dotted path of the first string (value or key) `bad` finds, or null. */
function findText(value: unknown, bad: (text: string) => boolean, path = ''): string | null {
  if (typeof value === 'string') return bad(value) ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findText(item, bad, path ? `${path}.${i}` : String(i));
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${printableKey(key)}` : printableKey(key);
      if (bad(key)) return at;
      const found = findText(item, bad, at);
      if (found !== null) return found;
    }
  }
  return null;
}

/** The dotted path of the first string (value or key) holding a NUL, or null. */
export const findNul = (value: unknown, path = ''): string | null => findText(value, hasNul, path);

/** The dotted path of the first string (value or key) holding a lone UTF-16 surrogate, or null. */
export const findLoneSurrogate = (value: unknown, path = ''): string | null => findText(value, hasLoneSurrogate, path);

/** The same value with every NUL removed from its strings and keys. */
export function stripNul<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll(NUL, '') as T;
  if (Array.isArray(value)) return value.map(stripNul) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replaceAll(NUL, ''), stripNul(v)])) as T;
  }
  return value;
}

/**
 * How deep a parsed value nests (a scalar 0, `{}` 1), walked without recursion so any depth is safe.
 * Bodies of other parsers than JSON's (XML) are measured with it.
 */
export function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (!node || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(node)) if (child && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return deepest;
}

/** A top-level field of a JSON object text: where its value lies and how deep the value nests. */
export interface JsonField {
  key: string;
  /** The value's span in the text: `start` included, `end` excluded. */
  start: number;
  end: number;
  depth: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = new Set([0x7b, 0x5b]);
const CLOSE = new Set([0x7d, 0x5d]);
const OPEN_BRACE = 0x7b;

/**
 * Measures a JSON text without parsing it: how deep it nests and, when it is an object, how deep each
 * top-level field's value nests, so a body nested thousands of levels is refused before any object is
 * built. Malformed text is left for JSON.parse to refuse.
 */
export function scanJson(text: string): { depth: number; fields: JsonField[] } {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  let escaped = false;
  let stringStart = 0;
  let rootIsObject = false;
  let expectKey = false;
  let key: string | null = null;
  let field: JsonField | null = null;
  const fields: JsonField[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) {
        inString = false;
        if (depth === 1 && expectKey) key = decodeKey(text.slice(stringStart, i + 1));
      }
    } else if (c === QUOTE) {
      inString = true;
      stringStart = i;
    } else if (OPEN.has(c)) {
      depth++;
      if (depth === 1) {
        rootIsObject = c === OPEN_BRACE;
        expectKey = rootIsObject;
      }
      deepest = Math.max(deepest, depth);
      if (field && depth - 1 > field.depth) field.depth = depth - 1;
    } else if (CLOSE.has(c)) {
      if (depth === 1 && field) {
        field.end = i;
        field = null;
      }
      depth--;
    } else if (depth === 1 && rootIsObject && c === COLON && key !== null) {
      field = { key, start: i + 1, end: text.length, depth: 0 };
      fields.push(field);
      key = null;
      expectKey = false;
    } else if (depth === 1 && c === COMMA) {
      if (field) field.end = i;
      field = null;
      expectKey = rootIsObject;
    }
  }
  return { depth: deepest, fields };
}

const BRACKETS = ['{', '['] as const;

/**
 * Whether a JSON text holds more than `limit` opening brackets (`{` or `[`, in strings too): a text with
 * no more cannot nest deeper than `limit`, so it needs no scan (the usual lead: one object of scalars).
 */
export function hasMoreBrackets(text: string, limit: number): boolean {
  let n = 0;
  for (const bracket of BRACKETS) {
    for (let i = text.indexOf(bracket); i !== -1; i = text.indexOf(bracket, i + 1)) if (++n > limit) return true;
  }
  return false;
}

function decodeKey(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

function refuse(field: string, what: string): never {
  const path = field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  throw AppError.field(field, `${fieldLabel(path)} contains ${what}; remove it.`);
}

const NUL_WORDS = 'a character that cannot be stored (NUL)';
const SURROGATE_WORDS = 'text that is not valid Unicode (an unpaired UTF-16 surrogate, \\uD800-\\uDFFF)';
const TOO_DEEP_WORDS = `nested more than ${MAX_DEPTH} levels deep (objects or lists within each other)`;

/** The 400 of a body nested too deep, naming the top-level field that is (or the body itself). */
function tooDeep(field: string | undefined): AppError {
  if (field === undefined)
    return AppError.field('body', `The request body is ${TOO_DEEP_WORDS}; send it with fewer levels.`);
  return AppError.field(field, `${fieldLabel([printableKey(field)])} is ${TOO_DEEP_WORDS}; send it with fewer levels.`);
}

/** Drops a kept lead's `metadata` that cannot be stored, and says why in the answer's `warnings`. */
function dropMetadata(request: FastifyRequest, body: Record<string, unknown>, why: string) {
  delete body[METADATA];
  request.inputWarnings = [
    ...(request.inputWarnings ?? []),
    `metadata was not stored: it ${why}. The lead was kept without it.`,
  ];
}

/**
 * The JSON parser of every route (a route plugin may replace it for its own routes, as the Stripe
 * webhook does): Fastify's own, after a scan that refuses a body nested deeper than MAX_DEPTH with
 * 400 naming the field. On the public source API a `metadata` nested too deep is cut from the text
 * before parsing and the lead is kept.
 */
function registerJsonParser(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    // A text shorter than the limit cannot nest deeper than it, nor one with fewer brackets.
    if (text.length <= MAX_DEPTH * 2 || !hasMoreBrackets(text, MAX_DEPTH)) return parseJson(request, text, done);
    const { depth, fields } = scanJson(text);
    if (depth <= MAX_DEPTH) return parseJson(request, text, done);
    const deepFields = fields.filter((f) => f.depth + 1 > MAX_DEPTH);
    if (keepsLeads(request) && deepFields.length > 0 && deepFields.every((f) => f.key === METADATA)) {
      let kept = text;
      for (const f of deepFields.toReversed()) kept = `${kept.slice(0, f.start)}null${kept.slice(f.end)}`;
      if (scanJson(kept).depth <= MAX_DEPTH)
        return parseJson(request, kept, (error, parsed) => {
          if (!error && parsed && typeof parsed === 'object' && !Array.isArray(parsed))
            dropMetadata(request, parsed as Record<string, unknown>, `is ${TOO_DEEP_WORDS}`);
          done(error, parsed);
        });
    }
    done(tooDeep(deepFields[0]?.key));
  });
}

/** A body handed to its route as the request's stream (a content-type parser's `done(null, payload)`). */
const isStream = (body: unknown): boolean =>
  body !== null && typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe === 'function';

/**
 * Any NUL or UTF-16 surrogate, paired or not: a text without one holds nothing the hygiene changes or
 * refuses (a paired surrogate, an emoji, is fine but is left for the exact checks below to tell).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL is what it looks for.
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

/**
 * Whether a value is plainly clean: no key or text in it holds a NUL or a surrogate, and it nests no
 * deeper than MAX_DEPTH (the body itself at level 1). Such a body (every ping, nearly every post) passes
 * `keepLead` unchanged, so one walk of it answers instead of keepLead's several.
 */
function plainlyClean(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return !SUSPECT.test(value);
  if (value === null || typeof value !== 'object') return true;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!plainlyClean(item, depth + 1)) return false;
    return true;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (SUSPECT.test(key) || !plainlyClean((value as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

/** On the source API: what cannot be stored is stripped (NUL) or dropped (`metadata`); a known field with a lone surrogate is refused. */
function keepLead(request: FastifyRequest) {
  // The usual request: nothing to strip, drop or refuse.
  if (plainlyClean(request.body, 0) && plainlyClean(request.query, 0)) return;
  if (findNul(request.body) !== null) request.body = stripNul(request.body);
  if (findNul(request.query) !== null) request.query = stripNul(request.query);
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const fields = body as Record<string, unknown>;
  keepStorableMetadata(request, fields);
  if (depthOf(body) > MAX_DEPTH) throw tooDeep(Object.keys(fields).find((k) => depthOf(fields[k]) + 1 > MAX_DEPTH));
  const query = findLoneSurrogate(request.query);
  if (query !== null) refuse(query, SURROGATE_WORDS);
  // A field the route does not know is never stored: it cannot cost the lead.
  const known = knownFields(request);
  for (const key of Object.keys(fields)) {
    if (known && !known.has(key)) continue;
    const at = printableKey(key);
    const field = hasLoneSurrogate(key) ? at : findText(fields[key], hasLoneSurrogate, at);
    if (field !== null) refuse(field, SURROGATE_WORDS);
  }
}

/**
 * Drops a kept lead's `metadata` that cannot be stored (too deep, a lone surrogate), with a warning.
 * Run again once the source API has moved the fields it does not read into `metadata` (field-map.ts).
 */
export function keepStorableMetadata(request: FastifyRequest, fields: Record<string, unknown>): void {
  if (fields[METADATA] === undefined) return;
  if (depthOf(fields[METADATA]) + 1 > MAX_DEPTH) dropMetadata(request, fields, `is ${TOO_DEEP_WORDS}`);
  else if (findLoneSurrogate(fields[METADATA]) !== null) dropMetadata(request, fields, `holds ${SURROGATE_WORDS}`);
}

/** Each body schema's top-level fields, listed once rather than on every request. */
const knownFieldsOf = new WeakMap<object, Set<string> | null>();

/** The top-level fields of a route's body schema (a Zod object), or null when it has none such. */
function knownFields(request: FastifyRequest): Set<string> | null {
  const schema = request.routeOptions.schema?.body as { shape?: Record<string, unknown> } | undefined;
  if (!schema) return null;
  let known = knownFieldsOf.get(schema);
  if (known === undefined) {
    known = schema.shape ? new Set(Object.keys(schema.shape)) : null;
    knownFieldsOf.set(schema, known);
  }
  return known;
}

/**
 * One rule for the whole API, after authentication and before validation (DESIGN.md §11 "Input
 * hygiene"): a body nested deeper than MAX_DEPTH, a NUL or a lone UTF-16 surrogate in the path,
 * query or body answers 400 naming the field, except on the public source API, which keeps the lead:
 * it strips NULs and drops a `metadata` it cannot store, with a warning in its answer.
 */
export function registerInputHygiene(app: FastifyInstance): void {
  registerJsonParser(app);
  app.decorateRequest('inputWarnings', null);

  // Hooks with `done`, not async: no promise and no microtask a request (a throw is answered as a rejection was).
  app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    checkInput(request);
    done();
  });

  // A source API answer says what was dropped or renamed (only the source API sets inputWarnings).
  app.addHook('preSerialization', (request: FastifyRequest, _reply, payload: unknown, done) => {
    const warnings = request.inputWarnings;
    if (!warnings || !payload || typeof payload !== 'object' || !('ok' in payload)) return done(null, payload);
    // The answer's own warnings (the fields it flagged) come after what the hygiene dropped or renamed.
    const own = 'warnings' in payload && Array.isArray(payload.warnings) ? (payload.warnings as string[]) : [];
    done(null, { ...payload, warnings: [...warnings, ...own] });
  });
}

/** The input hygiene of one request (registerInputHygiene). */
function checkInput(request: FastifyRequest): void {
  if (keepsLeads(request)) {
    keepLead(request);
    return;
  }
  // A streamed body (a CSV upload) is read by its route as it arrives: walking it would walk the
  // socket's whole object graph, cycles and all, and never end.
  const streamed = isStream(request.body);
  // JSON bodies were measured as they were parsed; XML and form bodies are measured here.
  if (!streamed && depthOf(request.body) > MAX_DEPTH) {
    const body = request.body as Record<string, unknown>;
    throw tooDeep(Array.isArray(body) ? undefined : Object.keys(body).find((k) => depthOf(body[k]) + 1 > MAX_DEPTH));
  }
  for (const part of streamed ? [request.params, request.query] : [request.params, request.query, request.body]) {
    const nul = findNul(part);
    if (nul !== null) refuse(nul, NUL_WORDS);
    const surrogate = findLoneSurrogate(part);
    if (surrogate !== null) refuse(surrogate, SURROGATE_WORDS);
  }
}

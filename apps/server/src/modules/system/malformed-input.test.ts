import type { Role } from '@leadex/domain';
import { inArray } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, leadInput } from '../../../test/factories';
import { useRoleCookies, useTestApp } from '../../../test/harness';
import {
  bodyWith,
  type DocumentedRoute,
  documentedRoutes,
  fieldsWhere,
  type JsonSchema,
  jsonBodySchema,
  stringFields,
  textFields,
} from '../../../test/openapi';
import { leads } from '../../db/schema';

/**
 * Issue 28 item 5: the whole API, walked from its OpenAPI document as each role, with the malformed
 * input a fuzzer found answered 500: bodies nested 5,000 levels, a lone UTF-16 surrogate in every
 * string field, dates far outside 2000-2100 in every date field. No answer is a 5xx, every refusal
 * names its field, and every lead an answer names is stored.
 */

const DEPTH = 5_000;
/**
 * A JSON list nested DEPTH levels (lists and objects in turn), as text: built as a value it would
 * overflow the test's own stack.
 */
const DEEP = `${'[{"a":'.repeat(DEPTH / 2)}1${'}]'.repeat(DEPTH / 2)}`;
/** A lone high and a lone low surrogate: valid JSON (`\ud800`), not valid Unicode. */
const LONE = 'x\uD800y\uDC00';
const FAR_DATES = ['9999-12-31', '0001-01-01'];
/** 9999-12-31 and 0001-01-01 in epoch seconds, for the date fields that take them. */
const FAR_EPOCHS = [253_402_300_799, -62_135_596_800];
/** Routes that empty the exchange (sim-tools.test.ts runs them). */
const DESTRUCTIVE = new Set(['POST /api/sim/reset-db']);

type Caller = Role | 'anonymous';
const CALLERS: Caller[] = ['admin', 'buyer', 'source', 'anonymous'];

const t = useTestApp();
const cookies = useRoleCookies(t);
let apiKey: string;
let routes: DocumentedRoute[] = [];

/** Every answer of the file, for the checks that hold of all of them (no 5xx, every lead named is stored). */
const answers: { label: string; res: LightMyRequestResponse }[] = [];

beforeAll(async () => {
  apiKey = (await createSourceWithKey(t, { canPostLead: true })).apiKey;
  const buyer = await createBuyer(t);
  await createCampaign(t, buyer._id, { services: ['roofing'], location: 'zip', zips: ['75201'], price: 40 });
  routes = documentedRoutes(t.app, { dateq: 'range', field: 'service', report: 'sources' }).filter(
    (r) => !DESTRUCTIVE.has(`${r.method} ${r.path}`),
  );
});

async function send(label: string, caller: Caller, options: InjectOptions): Promise<LightMyRequestResponse> {
  const res = await t.request({ ...options, ...(caller === 'anonymous' ? {} : { as: cookies[caller] }) });
  answers.push({ label: `${caller} ${label}`, res });
  return res;
}

const json = (payload: string): InjectOptions => ({ payload, headers: { 'content-type': 'application/json' } });
const errorsOf = (res: LightMyRequestResponse): Record<string, string> =>
  res.statusCode === 400 ? (res.json().errors ?? {}) : {};
const isSourceApi = (r: DocumentedRoute) => ['/api/ping', '/api/post', '/api/lead'].includes(r.path);
/** Whether the caller gets past the route's guard (a route without roles is anyone's). */
function admits(r: DocumentedRoute, caller: Caller): boolean {
  const roles = t.app.routeRoles.get(`${r.method} ${r.path.replace(/\{([^}]+)\}/g, ':$1')}`);
  if (!roles) return !isSourceApi(r);
  return caller !== 'anonymous' && roles.includes(caller);
}
/** Records that `res`, an answer to an admitted caller, is not a 400 naming `field`. */
function expectNamed(wrong: string[], label: string, res: LightMyRequestResponse, field: string) {
  if (!(field in errorsOf(res))) wrong.push(`${label}: ${res.statusCode} ${res.body.slice(0, 200)}`);
}

const hasBody = (r: DocumentedRoute) => r.method !== 'GET';
const isDate = (s: JsonSchema, path: string) =>
  s.format === 'date' ||
  s.format === 'date-time' ||
  /\\d\{4\}-/.test(s.pattern ?? '') ||
  /^(date|day|begin|end|expiration)$/i.test(path.split('.').at(-1) ?? '');

describe.each(CALLERS)('every route of the OpenAPI document, as %s', (caller) => {
  it(`refuses a body nested ${DEPTH} levels with 400 naming the field, never a 5xx`, async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const r of routes.filter(hasBody)) {
      const field = Object.keys(jsonBodySchema(r)?.properties ?? {})[0] ?? 'data';
      const label = `${r.method} ${r.path}`;
      const nested = await send(label, caller, {
        method: r.method as 'POST',
        url: r.url,
        ...json(`{"${field}":${DEEP}}`),
      });
      const whole = await send(label, caller, { method: r.method as 'POST', url: r.url, ...json(DEEP) });
      if (!admits(r, caller)) continue;
      checked++;
      expectNamed(wrong, `${label} ${field}`, nested, field);
      expectNamed(wrong, `${label} (the body)`, whole, 'body');
      if (!/32 levels/.test(nested.json().message)) wrong.push(`${label}: ${nested.json().message}`);
    }
    if (caller === 'admin') expect(checked).toBeGreaterThan(40);
    expect(wrong).toEqual([]);
  });

  it('refuses a lone surrogate in every string field with 400 naming it, never a 5xx', async () => {
    const wrong: string[] = [];
    for (const r of routes.filter((r) => hasBody(r) && !isSourceApi(r))) {
      for (const field of stringFields(jsonBodySchema(r))) {
        const label = `${r.method} ${r.path} ${field}`;
        const res = await send(label, caller, {
          method: r.method as 'POST',
          url: r.url,
          payload: bodyWith(field, LONE),
        });
        if (admits(r, caller)) expectNamed(wrong, label, res, field);
      }
    }
    // A URL cannot carry a lone surrogate: its UTF-8-like bytes decode to replacement characters.
    for (const r of routes) {
      for (const p of (r.operation.parameters ?? []).filter((p) => p.in === 'query'))
        await send(`${r.method} ${r.path}?${p.name}`, caller, {
          method: r.method as 'GET',
          url: `${r.url}?${p.name}=%ED%A0%80`,
        });
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a date outside 2000-2100 in every date field with 400 naming it, never a 5xx', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const r of routes) {
      const queryDates = (r.operation.parameters ?? []).filter(
        (p) => p.in === 'query' && p.schema && isDate(p.schema, p.name),
      );
      const range = (r.operation.parameters ?? []).some((p) => p.in === 'query' && p.name === 'dateq')
        ? 'dateq=range&'
        : '';
      for (const p of queryDates) {
        for (const far of FAR_DATES) {
          const others = queryDates.filter((o) => o !== p).map((o) => `&${o.name}=2026-01-15`);
          const label = `${r.method} ${r.path}?${p.name}=${far}`;
          const res = await send(label, caller, {
            method: r.method as 'GET',
            url: `${r.url}?${range}${p.name}=${far}${others.join('')}`,
          });
          if (admits(r, caller)) {
            checked++;
            expectNamed(wrong, label, res, p.name);
          }
        }
      }
      if (!hasBody(r)) continue;
      for (const field of fieldsWhere(jsonBodySchema(r), isDate)) {
        for (const far of [...FAR_DATES, ...FAR_EPOCHS]) {
          const label = `${r.method} ${r.path} ${field}=${far}`;
          const res = await send(label, caller, {
            method: r.method as 'POST',
            url: r.url,
            payload: bodyWith(field, far),
          });
          if (admits(r, caller)) {
            checked++;
            expectNamed(wrong, label, res, field);
          }
        }
      }
    }
    // The mock date takes text or epoch seconds; its schema is checked in the handler, so the document
    // does not describe it.
    if (caller === 'admin')
      for (const far of [...FAR_DATES, ...FAR_EPOCHS]) {
        const res = await send(`mock date ${far}`, caller, {
          method: 'POST',
          url: '/api/sim/mockDate',
          payload: { date: far },
        });
        expectNamed(wrong, `mock date ${far}`, res, 'date');
      }
    if (caller !== 'anonymous') expect(checked).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });

  it('refuses the same at sign-in (outside the document), never a 5xx', async () => {
    const signIn = { method: 'POST' as const, url: '/api/auth/sign-in/email' };
    const deep = await send('sign-in nested', caller, { ...signIn, ...json(`{"email":${DEEP}}`) });
    const lone = await send('sign-in surrogate', caller, {
      ...signIn,
      payload: { email: `a${LONE}@test.leadex`, password: 'x' },
    });
    expect(errorsOf(deep)).toHaveProperty('email');
    expect(errorsOf(lone)).toHaveProperty('email');
  });
});

describe('the public source API keeps the lead', () => {
  const contact = () => leadInput({ metadata: { campaign: 'spring' } });
  const lead = async (payload: object | string, headers: Record<string, string> = {}) => {
    const res = await t.sourceApi('/api/lead', apiKey, payload, headers);
    answers.push({ label: 'source API /api/lead', res });
    return res;
  };
  const ping = async () => {
    const res = await t.sourceApi('/api/ping', apiKey, { service: 'roofing', zip: '75201' });
    return res.json().ping_id as string;
  };
  const post = async (payload: object | string, headers: Record<string, string> = {}) => {
    const res = await t.sourceApi('/api/post', apiKey, payload, headers);
    answers.push({ label: 'source API /api/post', res });
    return res;
  };
  const storedRow = async (id: string) =>
    (
      await t.database.db
        .select()
        .from(leads)
        .where(inArray(leads.id, [id]))
    )[0];

  it('drops a metadata nested 5,000 levels or holding a lone surrogate, keeps the lead and warns', async () => {
    const cases: [string, string][] = [
      ['nested', JSON.stringify(contact()).replace('{"campaign":"spring"}', `{"deep":${DEEP}}`)],
      ['lone surrogate', JSON.stringify({ ...contact(), metadata: { note: LONE } })],
      ['lone surrogate in a key', JSON.stringify({ ...contact(), metadata: { [LONE]: 1 } })],
    ];
    for (const [what, payload] of cases) {
      const res = await lead(payload, { 'content-type': 'application/json' });
      expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
      expect(res.json(), what).toMatchObject({
        ok: true,
        status: 'sold',
        warnings: [expect.stringMatching(/^metadata was not stored/)],
      });
      const row = await storedRow(res.json().lead_id);
      expect(row?.name, what).toBe('Pat Lee');
      expect(row?.metadata, what).toBeNull();
    }
    const posted = await post(
      JSON.stringify({ ...contact(), ping_id: await ping() }).replace('{"campaign":"spring"}', `{"deep":${DEEP}}`),
      {
        'content-type': 'application/json',
      },
    );
    expect(posted.json()).toMatchObject({
      ok: true,
      status: 'sold',
      warnings: [expect.stringMatching(/nested more than 32/)],
    });
    const plain = await lead(contact());
    expect(plain.json()).not.toHaveProperty('warnings');
    expect((await storedRow(plain.json().lead_id))?.metadata).toEqual({ campaign: 'spring' });
  });

  it('refuses a lone surrogate in any other field of a ping, a post or a lead with 400 naming it', async () => {
    const wrong: string[] = [];
    for (const path of ['/api/ping', '/api/post', '/api/lead']) {
      const route = routes.find((r) => r.path === path) as DocumentedRoute;
      const fields = textFields(jsonBodySchema(route)).filter((f) => f !== 'apikey' && !f.startsWith('metadata'));
      expect(fields.length).toBeGreaterThan(path === '/api/ping' ? 5 : 15);
      for (const field of fields) {
        const base = path === '/api/ping' ? { service: 'roofing', zip: '75201' } : contact();
        const body = bodyWith(field, LONE, path === '/api/post' ? { ...base, ping_id: await ping() } : base);
        const res = await t.sourceApi(path, apiKey, body);
        answers.push({ label: `source API ${path} ${field}`, res });
        if (!(field in errorsOf(res)) || res.json().reason !== 'invalid')
          wrong.push(`${path} ${field}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a field nested 5,000 levels, in JSON or in XML, never a 5xx', async () => {
    const name = await lead(JSON.stringify(contact()).replace('"Pat Lee"', DEEP), {
      'content-type': 'application/json',
    });
    expect(errorsOf(name)).toHaveProperty('name');
    const whole = await lead(DEEP, { 'content-type': 'application/json' });
    expect(errorsOf(whole)).toHaveProperty('body');
    const xml = (inner: string) =>
      lead(`<lead><service>roofing</service><zip>75201</zip><name>Pat Lee</name>${inner}</lead>`, {
        'content-type': 'application/xml',
      });
    expect((await xml(`<phone>${'<a>'.repeat(DEPTH)}1${'</a>'.repeat(DEPTH)}</phone>`)).statusCode).toBe(400);
    // Deep enough for the limit, shallow enough for the XML parser's own: the metadata is dropped.
    const meta = await xml(
      `<email>m.${Date.now()}@example.com</email><metadata>${'<a>'.repeat(40)}1${'</a>'.repeat(40)}</metadata>`,
    );
    expect(meta.json()).toMatchObject({ ok: true, warnings: [expect.stringMatching(/^metadata was not stored/)] });
    // Bytes of a lone surrogate (as WTF-8) in a form and an XML character reference.
    await lead(`service=roofing&zip=75201&name=Pat%ED%A0%80&email=f.${Date.now()}%40example.com`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    await xml(`<email>x.${Date.now()}@example.com</email><city>Dallas&#xD800;</city>`);
  });
});

describe('over every answer of this file', () => {
  it('none is a 5xx', () => {
    expect(answers.length).toBeGreaterThan(500);
    const failed = answers
      .filter((a) => a.res.statusCode >= 500)
      .map((a) => `${a.label}: ${a.res.statusCode} ${a.res.body}`);
    expect(failed).toEqual([]);
  });

  it('every lead an answer names is stored', async () => {
    const named = answers
      .filter((a) => a.res.statusCode < 300 && a.res.headers['content-type']?.toString().startsWith('application/json'))
      .map((a) => a.res.json().lead_id as unknown)
      .filter((id): id is string => typeof id === 'string');
    expect(named.length).toBeGreaterThan(5);
    const stored = await t.database.db.select({ id: leads.id }).from(leads).where(inArray(leads.id, named));
    expect(stored.map((row) => row.id).sort()).toEqual([...new Set(named)].sort());
  });
});

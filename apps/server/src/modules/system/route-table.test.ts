import { type Role, SAMPLE_JORNAYA_TOKEN, SAMPLE_TRUSTEDFORM_CERT_URL } from '@leadex/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, uniquePhone } from '../../../test/factories';
import { useRoleCookies, useTestApp } from '../../../test/harness';
import { bodyWith, type DocumentedRoute, documentedRoutes, stringFields } from '../../../test/openapi';
import { leads } from '../../db/schema';

/**
 * Walks the routes of the OpenAPI document: who may call each (guest 401, wrong role 403, whatever the
 * body) and what a NUL character in any of its fields does (400 naming the field; stripped on the
 * public source API).
 */

let apiKey: string;

/**
 * Routes anyone may call: health and liveness, the public source API, which authenticates by API key itself, and
 * the source sign-up with its availability checks (rate limited per address).
 */
const PUBLIC = new Set([
  'GET /api/health',
  'GET /api/live',
  'POST /api/ping',
  'POST /api/post',
  'POST /api/lead',
  'POST /api/signup',
  'GET /api/signup/isuseravail/name/{name}',
  'GET /api/signup/isuseravail/email/{email}',
]);
const SOURCE_API = new Set(['/api/ping', '/api/post', '/api/lead']);
const ROLES: Role[] = ['admin', 'buyer', 'source'];
/** Routes that empty the exchange: only their refusals are called here (sim-tools.test.ts runs them). */
const DESTRUCTIVE = new Set(['POST /api/sim/reset-db']);

let routes: DocumentedRoute[] = [];

const t = useTestApp();
const cookies = useRoleCookies(t);
beforeAll(async () => {
  apiKey = (await createSourceWithKey(t, { canPostLead: true })).apiKey;
  routes = documentedRoutes(t.app);
});

const hasBody = (method: string) => !['GET', 'HEAD', 'DELETE'].includes(method);
const rolesOf = (method: string, path: string) =>
  t.app.routeRoles.get(`${method} ${path.replace(/\{([^}]+)\}/g, ':$1')}`);

describe('who may call each route of the OpenAPI document', () => {
  it('lists many routes, each guarded by roles or known to be public', () => {
    expect(routes.length).toBeGreaterThan(40);
    const unguarded = routes
      .map((r) => `${r.method} ${r.path}`)
      .filter((key) => !PUBLIC.has(key) && !rolesOf(key.split(' ')[0] as string, key.split(' ')[1] as string));
    expect(unguarded).toEqual([]);
  });

  it('answers a guest 401 on every private route, whatever the body', async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      if (PUBLIC.has(`${r.method} ${r.path}`)) continue;
      const res = await t.request({
        method: r.method as 'GET',
        url: r.url,
        ...(hasBody(r.method) ? { payload: { junk: 1, name: 12 } } : {}),
      });
      if (res.statusCode !== 401) wrong.push(`${r.method} ${r.path}: ${res.statusCode}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers 403 to every role a route does not admit, whatever the body, and never 401/403 to one it does', async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      const admitted = rolesOf(r.method, r.path);
      if (!admitted) continue;
      for (const role of ROLES) {
        if (admitted.includes(role) && DESTRUCTIVE.has(`${r.method} ${r.path}`)) continue;
        const res = await t.request({
          method: r.method as 'GET',
          url: r.url,
          as: cookies[role],
          ...(hasBody(r.method) ? { payload: { junk: 1, name: 12 } } : {}),
        });
        const expected = admitted.includes(role) ? 'admitted' : 403;
        const got = [401, 403].includes(res.statusCode) ? res.statusCode : 'admitted';
        // A buyer may read only some tag kinds: its 403 there comes from the handler, not the guard.
        if (got !== expected && !(r.path === '/api/tag/{kind}' && role === 'buyer'))
          wrong.push(`${role} ${r.method} ${r.path}: ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

const NUL_TEXT = 'a\u0000b';

describe('a NUL character in any field', () => {
  it('answers 400 naming the field, on every body field of every private route', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const r of routes) {
      if (SOURCE_API.has(r.path) || !hasBody(r.method)) continue;
      const role = rolesOf(r.method, r.path)?.[0] ?? 'admin';
      for (const field of stringFields(r.operation.requestBody?.content?.['application/json']?.schema)) {
        checked++;
        const res = await t.request({
          method: r.method as 'POST',
          url: r.url,
          as: cookies[role],
          payload: bodyWith(field, NUL_TEXT),
        });
        const errors = res.statusCode === 400 ? (res.json().errors ?? {}) : {};
        if (!(field in errors)) wrong.push(`${r.method} ${r.path} ${field}: ${res.statusCode} ${res.body}`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  });

  it('answers 400 naming the parameter, on every string query parameter and in a path', async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      if (SOURCE_API.has(r.path)) continue;
      const role = rolesOf(r.method, r.path)?.[0] ?? 'admin';
      for (const p of (r.operation.parameters ?? []).filter((p) => p.in === 'query')) {
        const res = await t.request({ method: r.method as 'GET', url: `${r.url}?${p.name}=a%00b`, as: cookies[role] });
        if (res.statusCode !== 400 || !(p.name in (res.json().errors ?? {})))
          wrong.push(`${r.method} ${r.path}?${p.name}: ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
    const search = await t.request({ method: 'GET', url: '/api/buyer?name=%00', as: cookies.admin });
    expect(search.statusCode).toBe(400);
    expect(search.json().errors).toHaveProperty('name');
    expect(search.json().message).toMatch(/cannot be stored/);
    const byId = await t.request({ method: 'GET', url: '/api/buyer/by%00id', as: cookies.admin });
    expect(byId.statusCode).toBe(400);
  });

  it('answers 400 on the sign-in routes, not 500', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: `admin\u0000@test.leadex`, password: 'x' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty('email');
  });

  describe('on the public source API', () => {
    const contact = () => ({
      service: 'roofing',
      zip: '73102',
      name: 'Avery Nguyen',
      phone: uniquePhone(),
      email: `avery.${Math.floor(Math.random() * 1e9)}@example.com`,
      tcpa_language: 'I agree to be contacted.',
      trusted_form: SAMPLE_TRUSTEDFORM_CERT_URL,
      jornaya: SAMPLE_JORNAYA_TOKEN,
      metadata: { campaign: 'spring' },
    });
    const stored = async (leadId: string) => {
      const [row] = await t.database.db.select().from(leads).where(eq(leads.id, leadId));
      return row;
    };

    it('strips it from every string field of a direct lead and keeps the lead', async () => {
      const schema = routes.find((r) => r.path === '/api/lead')?.operation.requestBody?.content?.['application/json']
        ?.schema;
      const fields = stringFields(schema).filter((f) => f !== 'apikey');
      expect(fields.length).toBeGreaterThan(15);
      const wrong: string[] = [];
      for (const field of fields) {
        const base: Record<string, unknown> = contact();
        const current = field.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], base);
        // A NUL inside a valid value (where the field has one), so the lead is otherwise acceptable.
        const value = typeof current === 'string' ? `${current.slice(0, 2)}\u0000${current.slice(2)}` : NUL_TEXT;
        const res = await t.sourceApi('/api/lead', apiKey, bodyWith(field, value, base));
        const answer = res.json();
        if (res.statusCode >= 500 || !answer.lead_id) {
          // Only a value that is wrong without its NUL may be refused (a free-text ping field such as channel).
          if (res.statusCode !== 400 || typeof current === 'string')
            wrong.push(`${field}: ${res.statusCode} ${res.body}`);
          continue;
        }
        const row = await stored(answer.lead_id);
        if (!row || JSON.stringify(row).includes('\\u0000')) wrong.push(`${field}: stored ${JSON.stringify(row)}`);
      }
      expect(wrong).toEqual([]);
    });

    it('strips %00 from a form body and &#0; or a raw NUL from an XML body', async () => {
      const c = contact();
      const form = await t.request({
        method: 'POST',
        url: '/api/lead',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `service=roofing&zip=73102&name=Ave%00ry&phone=${c.phone}&tcpa_language=I%00agree`,
      });
      expect(form.statusCode).toBeLessThan(500);
      const formLead = await stored(form.json().lead_id);
      expect(formLead?.name).toBe('Avery');

      for (const nul of ['&#0;', '\u0000']) {
        const xml = await t.request({
          method: 'POST',
          url: '/api/lead',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/xml' },
          payload: `<lead><service>roofing</service><zip>73102</zip><name>Mor${nul}gan</name><email>m.${Math.floor(Math.random() * 1e9)}@example.com</email></lead>`,
        });
        expect(xml.statusCode, xml.body).toBeLessThan(500);
        expect((await stored(xml.json().lead_id))?.name).toBe('Morgan');
      }
    });

    it('strips it at the ping and at the post, and the post sells and keeps its lead', async () => {
      const buyer = await createBuyer(t);
      await createCampaign(t, buyer._id, { services: ['roofing'], location: 'zip', zips: ['73102'], price: 40 });
      const ping = await t.sourceApi('/api/ping', apiKey, {
        service: 'roof\u0000ing',
        zip: '73102',
        sub_id: 's\u00001',
      });
      expect(ping.json()).toMatchObject({ ok: true });
      const post = await t.sourceApi('/api/post', apiKey, {
        ping_id: ping.json().ping_id,
        ...contact(),
        name: 'Riley\u0000 Kim',
      });
      expect(post.json()).toMatchObject({ ok: true, status: 'sold' });
      expect((await stored(post.json().lead_id))?.name).toBe('Riley Kim');
    });
  });
});

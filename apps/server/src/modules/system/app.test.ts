import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SOURCE_API_REASONS } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { useAdminTestApp } from '../../../test/harness';

const { t, admin } = useAdminTestApp();

describe('the app', () => {
  it('answers /api/health with a request id', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true });
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it('answers /api/live (liveness) without asking the database, /api/health (readiness) after it answered', async () => {
    const live = await t.request({ method: 'GET', url: '/api/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ ok: true, ts: expect.any(Number) });
    // The database unreachable: health 503 and live 200, on PostgreSQL in test/database-outage.test.ts.
    const executed: string[] = [];
    const spy = t.deps.db.execute.bind(t.deps.db);
    t.deps.db.execute = ((query: Parameters<typeof spy>[0]) => {
      executed.push('execute');
      return spy(query);
    }) as typeof t.deps.db.execute;
    try {
      await t.request({ method: 'GET', url: '/api/live' });
      expect(executed).toEqual([]);
      expect((await t.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      expect(executed).toEqual(['execute']);
    } finally {
      t.deps.db.execute = spy;
    }
  });

  it('keeps Stripe out of the Content-Security-Policy of an exchange that takes no cards (issue 27)', async () => {
    const csp = String((await t.request({ method: 'GET', url: '/api/health' })).headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('stripe.com');
  });

  it('keeps a request id the caller sent', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers['x-request-id']).toBe('trace-123');
  });

  it('answers an unknown API path with the error shape, not the SPA', async () => {
    const res = await t.request({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ ok: false, message: 'No route GET /api/nothing-here' });
  });

  it('answers malformed JSON with a 400 in the error shape', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/buyer',
      as: admin.cookie,
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ ok: false });
  });

  it('serves the OpenAPI document to admins only', async () => {
    expect((await t.request({ method: 'GET', url: '/api/openapi.json' })).statusCode).toBe(401);
    const res = await t.request({ method: 'GET', url: '/api/openapi.json', as: admin.cookie });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/buyer', '/api/buyer/{id}', '/api/session']));
    expect(doc.paths['/api/buyer'].post.requestBody).toBeDefined();
  });
});

describe('public API documentation', () => {
  it('serves the OpenAPI document of ping, post and lead to anyone', async () => {
    const res = await t.request({ method: 'GET', url: '/api/openapi/public.json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths).sort()).toEqual(['/api/lead', '/api/ping', '/api/post', '/api/services']);
    // The services as they are in the database, not a hand-typed list.
    expect(res.json()['x-services']).toEqual(
      (await t.request({ method: 'GET', url: '/api/services', as: admin.cookie })).json(),
    );
    expect(res.json()['x-services'].length).toBeGreaterThan(3);
  });

  it('documents every answer of ping, post and lead with its reason codes and what each means', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi/public.json' })).json();
    expect(doc['x-reasons']).toEqual(SOURCE_API_REASONS);
    for (const path of ['/api/ping', '/api/post', '/api/lead']) {
      const responses = doc.paths[path].post.responses;
      expect(Object.keys(responses), path).toEqual(expect.arrayContaining(['200', '400', '401', '403', '409', '429']));
      // The 200 answer is a sale (or quote) or a refusal whose reason is one of the documented codes.
      const answer = JSON.stringify(responses['200'].content['application/json'].schema);
      for (const { reason } of SOURCE_API_REASONS) expect(answer, `${path} ${reason}`).toContain(`"${reason}"`);
      expect(answer).toContain(path === '/api/ping' ? '"ping_id"' : '"lead_id"');
    }
  });

  it('lists the same reason codes in docs/api.md as the server answers', () => {
    const table = readFileSync(fileURLToPath(new URL('../../../../../docs/api.md', import.meta.url)), 'utf8')
      .split('## Reason codes')[1]
      ?.split('\n')
      .filter((line) => /^\| \d{3} \|/.test(line))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    expect(table?.map(([, status, reason, meaning]) => [Number(status), reason, meaning])).toEqual(
      SOURCE_API_REASONS.map((r) => [r.status, `\`${r.reason}\``, r.meaning]),
    );
  });
});

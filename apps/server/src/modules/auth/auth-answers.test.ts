import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createBuyerWithLogin, createSourceWithKey } from '../../../test/factories';
import { requestPasswordReset, useAdminTestApp } from '../../../test/harness';
import { eventually } from '../../../test/receivers';
import { outbox } from '../../db/schema';
import { RESET_REQUEST_MIN_MS } from './auth-answers';

/** Issue 29 item 11: tokens and personal data only where they must be. */
const { t, admin } = useAdminTestApp();

/** Every key anywhere in a JSON value. */
const keysOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(keysOf)
    : value && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)])
      : [];

describe('better-auth session answers', () => {
  it('get-session and list-sessions give JavaScript no session token', async () => {
    const { cookie } = await createBuyerWithLogin(t);
    const token = decodeURIComponent(cookie.split('=')[1] ?? '').split('.')[0] ?? '';
    expect(token.length).toBeGreaterThan(10);

    const current = await t.request({ method: 'GET', url: '/api/auth/get-session', as: cookie });
    expect(current.statusCode).toBe(200);
    expect(current.json()).toMatchObject({ session: { id: expect.any(String) }, user: { email: expect.any(String) } });
    const sessions = await t.request({ method: 'GET', url: '/api/auth/list-sessions', as: cookie });
    expect(sessions.statusCode).toBe(200);
    expect(sessions.json()).toEqual([expect.objectContaining({ id: current.json().session.id })]);

    for (const res of [current, sessions]) {
      expect(keysOf(res.json())).not.toContain('token');
      expect(res.body).not.toContain(token);
      expect(res.headers['set-auth-token']).toBeUndefined();
    }
  });
});

describe('Cache-Control', () => {
  it('every API answer with personal data, an API key or a session says no-store', async () => {
    const { buyer, cookie } = await createBuyerWithLogin(t);
    const { sourceId } = await createSourceWithKey(t);
    const answers = [
      await t.request({ method: 'GET', url: '/api/auth/get-session', as: cookie }),
      await t.request({ method: 'GET', url: '/api/session', as: cookie }),
      await t.request({ method: 'GET', url: `/api/buyer/${buyer._id}`, as: admin.cookie }),
      await t.request({ method: 'GET', url: `/api/source/${sourceId}`, as: admin.cookie }),
      await t.request({ method: 'PUT', url: `/api/source/${sourceId}/apikey/new`, as: admin.cookie, payload: {} }),
      await t.request({ method: 'GET', url: `/api/buyer/${buyer._id}` }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200, 401]);
    for (const res of answers) expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('Forgot password', () => {
  const ask = async (email: string) => {
    const started = performance.now();
    const res = await requestPasswordReset(t, email);
    expect(res.statusCode).toBe(200);
    return { ms: performance.now() - started, body: res.json() };
  };

  it('answers a known and an unknown address alike and in the same time, and mails the known one', async () => {
    const { buyer } = await createBuyerWithLogin(t);
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      const a = await ask(buyer.email);
      const b = await ask(`nobody.${i}.${Math.random().toString(36).slice(2)}@example.com`);
      expect(a.body).toEqual(b.body);
      known.push(a.ms);
      unknown.push(b.ms);
    }
    // Both at the floor, whatever each did behind it (a token and a mail, or one look).
    for (const ms of [...known, ...unknown]) expect(ms).toBeGreaterThanOrEqual(RESET_REQUEST_MIN_MS - 1);
    // A busy machine only ever adds time: the quickest answer of each kind is the one that tells.
    expect(Math.abs(Math.min(...known) - Math.min(...unknown))).toBeLessThan(40);
    const mails = await eventually(async () => {
      const rows = await t.database.db.select().from(outbox).where(eq(outbox.to, buyer.email));
      return rows.filter((row) => row.text.includes('/reset-password/')).length === 5 ? rows : undefined;
    });
    expect(mails).toBeDefined();
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { loadConfig } from '../../config';

/**
 * The per-address limits of sign-in and password reset, on, against a listening server: from the
 * socket's address on a direct connection, and from X-Forwarded-For behind TRUST_PROXY.
 */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function listening(overrides: Parameters<typeof createTestApp>[0]) {
  t = await createTestApp(overrides);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  return `http://127.0.0.1:${port}`;
}

let tried = 0;
// A new login each time: the throttle per (account, address) (sign-in-throttle.test.ts) stays out of these.
const wrongSignIn = (base: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email: `nobody${++tried}@example.com`, password: 'wrong-password-1' }),
  });

describe('sign-in and reset limits per client address', () => {
  it('are on by default outside tests: 20 sign-ins, 10 sign-ups and 5 resets a minute', () => {
    const c = loadConfig({});
    expect([c.AUTH_SIGN_IN_PER_MINUTE, c.AUTH_SIGN_UP_PER_MINUTE, c.AUTH_PASSWORD_RESET_PER_MINUTE]).toEqual([
      20, 10, 5,
    ]);
    expect(c.SIGN_IN_FAILURES_BEFORE_DELAY).toBe(5);
    expect(() => loadConfig({ SIGN_IN_FAILURES_BEFORE_DELAY: '0' })).toThrow(/SIGN_IN_FAILURES_BEFORE_DELAY/);
  });

  it('answer 429 to the attempt after the limit on a direct connection, whatever X-Forwarded-For says', async () => {
    const base = await listening({ AUTH_SIGN_IN_PER_MINUTE: 5 });
    for (let i = 1; i <= 5; i++) {
      // A client cannot spread its attempts over made-up addresses when no proxy is trusted.
      const res = await wrongSignIn(base, { 'x-forwarded-for': `203.0.113.${i}` });
      expect(res.status, `attempt ${i}`).toBe(401);
    }
    const limited = await wrongSignIn(base, { 'x-forwarded-for': '203.0.113.99' });
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { ok: boolean; message: string }).message).toMatch(/Too many requests/);
  });

  it('count each client behind TRUST_PROXY by its X-Forwarded-For address', async () => {
    const base = await listening({ AUTH_SIGN_IN_PER_MINUTE: 3, TRUST_PROXY: true });
    const from = (ip: string) => wrongSignIn(base, { 'x-forwarded-for': ip });
    for (let i = 0; i < 3; i++) expect((await from('198.51.100.7')).status).toBe(401);
    expect((await from('198.51.100.7')).status).toBe(429);
    // Another client behind the same proxy has its own allowance.
    expect((await from('198.51.100.8')).status).toBe(401);
  });

  it('limit password-reset requests', async () => {
    const base = await listening({ AUTH_PASSWORD_RESET_PER_MINUTE: 2 });
    const reset = () =>
      fetch(`${base}/api/auth/request-password-reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.com', redirectTo: '/reset-password' }),
      });
    expect((await reset()).status).toBe(200);
    expect((await reset()).status).toBe(200);
    expect((await reset()).status).toBe(429);
  });

  it('are off at 0', async () => {
    const base = await listening({ AUTH_SIGN_IN_PER_MINUTE: 0 });
    for (let i = 0; i < 25; i++) expect((await wrongSignIn(base)).status).toBe(401);
  });
});

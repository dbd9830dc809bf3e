import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyerInput } from '../../test/factories';
import { ADMIN, createTestApp, sessionCookie, type TestApp } from '../../test/harness';
import { loadConfig } from '../config';
import { buyers, user } from '../db/schema';
import { newId } from '../lib/ids';
import { createOriginPolicy } from './origins';

describe('the origin policy', () => {
  const policy = (env: Record<string, string>) =>
    createOriginPolicy(loadConfig({ PUBLIC_URL: 'http://localhost:3000', ...env }));

  it('trusts PUBLIC_URL and, outside production, every loopback name on the listening port', () => {
    const p = policy({ NODE_ENV: 'development' });
    expect(p.isTrusted('http://localhost:3000')).toBe(true);
    for (const host of ['localhost', '127.0.0.1', '[::1]']) {
      expect(p.isTrusted(`http://${host}:4100`, 4100)).toBe(true);
      // Another port on the same machine is another site.
      expect(p.isTrusted(`http://${host}:4101`, 4100)).toBe(false);
    }
    expect(p.isTrusted('http://127.0.0.1:3000')).toBe(false);
    expect(p.isTrusted('https://evil.example', 4100)).toBe(false);
  });

  it('trusts no loopback name in production, only PUBLIC_URL and TRUSTED_ORIGINS', () => {
    const p = policy({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://x@db/leadex',
      LEADEX_SECRET: 'a'.repeat(32),
      TRUSTED_ORIGINS: 'https://admin.leads.example/, https://portal.leads.example',
    });
    expect(p.isTrusted('http://127.0.0.1:3000', 3000)).toBe(false);
    expect(p.isTrusted('http://localhost:3000', 3000)).toBe(true);
    expect(p.isTrusted('https://admin.leads.example')).toBe(true);
    expect(p.isTrusted('https://portal.leads.example')).toBe(true);
    expect(p.isTrusted('https://leads.example')).toBe(false);
  });

  it('refuses a TRUSTED_ORIGINS entry that is not a URL, naming it', () => {
    expect(() => loadConfig({ TRUSTED_ORIGINS: 'https://ok.example,not a url' })).toThrow(/TRUSTED_ORIGINS.*not a url/);
  });
});

describe('origins on a listening exchange', () => {
  let t: TestApp;
  let base: string;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ TRUSTED_ORIGINS: ['https://partner.example'] });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(() => t?.close());

  const signIn = (origin: string | undefined, path = '/api/auth/sign-in/email') =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: JSON.stringify(path.endsWith('email') ? ADMIN : { username: 'admin', password: ADMIN.password }),
    });
  const cookieOf = (res: Response) =>
    (res.headers.getSetCookie().find((c) => c.includes('session_token')) ?? '').split(';')[0] ?? '';
  const session = (cookie: string) => fetch(`${base}/api/session`, { headers: { cookie } });

  it('signs in by email and by username from every loopback name on the port, and from TRUSTED_ORIGINS', async () => {
    for (const origin of [base, `http://localhost:${port}`, `http://[::1]:${port}`, 'https://partner.example']) {
      for (const path of ['/api/auth/sign-in/email', '/api/auth/sign-in/username']) {
        const res = await signIn(origin, path);
        expect(res.status, `${path} from ${origin}`).toBe(200);
        expect((await session(cookieOf(res))).status).toBe(200);
      }
    }
  });

  it('refuses a sign-in from another origin with a sentence naming the address to use', async () => {
    for (const path of ['/api/auth/sign-in/email', '/api/auth/sign-in/username']) {
      const res = await signIn('https://evil.example', path);
      expect(res.status).toBe(403);
      const body = (await res.json()) as { ok: boolean; message: string };
      expect(body.ok).toBe(false);
      expect(body.message).toBe(
        'This page was opened at https://evil.example, which the exchange does not accept. Open it at http://leadex.test instead.',
      );
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect((await signIn(`http://127.0.0.1:${port + 1}`)).status).toBe(403);
  });

  it('ends the session on sign-out from any page, even one it would refuse a write from', async () => {
    for (const origin of [base, 'https://evil.example', undefined]) {
      const cookie = cookieOf(await signIn(base));
      const out = await fetch(`${base}/api/auth/sign-out`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
        body: '{}',
      });
      expect(out.status, `sign-out from ${origin}`).toBe(200);
      expect((await session(cookie)).status).toBe(401);
    }
  });

  it('refuses a cookie-authenticated write from another origin before anything is written', async () => {
    const cookie = cookieOf(await signIn(base));
    const input = buyerInput();
    const create = (headers: Record<string, string>) =>
      fetch(`${base}/api/buyer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(input),
      });

    const evil = await create({ cookie, origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { message: string }).message).toMatch(
      /^This page was opened at https:\/\/evil\.example/,
    );
    const elsewhere = await create({ cookie, referer: 'https://evil.example/page' });
    expect(elsewhere.status).toBe(403);
    expect(await t.database.db.select().from(buyers).where(eq(buyers.name, input.name))).toEqual([]);

    const ok = await create({ cookie, origin: `http://localhost:${port}` });
    expect(ok.status).toBe(201);
    // A script with a session cookie names no page: only pages are checked.
    expect(
      (
        await fetch(`${base}/api/buyer`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify(buyerInput()),
        })
      ).status,
    ).toBe(201);
  });

  // Issue 29 item 8: a sandboxed frame, a data: page or a page sending no referrer says `Origin: null`.
  it('refuses Origin: null on every write with a session, JSON or plain text, and on sign-in', async () => {
    const cookie = cookieOf(await signIn(base));
    const input = buyerInput();
    const write = (path: string, type: string, body: string, headers: Record<string, string>) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': type, cookie, ...headers }, body });

    const json = await write('/api/buyer', 'application/json', JSON.stringify(input), { origin: 'null' });
    expect(json.status).toBe(403);
    expect(((await json.json()) as { message: string }).message).toBe(
      'This request came from a page whose address the browser does not name, which the exchange does not accept. Open the exchange at http://leadex.test instead.',
    );
    // Not even with a Referer of one of ours beside it: `null` is what the browser says the page is.
    const withReferer = await write('/api/buyer', 'application/json', JSON.stringify(input), {
      origin: 'null',
      referer: `${base}/buyers`,
    });
    expect(withReferer.status).toBe(403);
    expect(await t.database.db.select().from(buyers).where(eq(buyers.name, input.name))).toEqual([]);

    // An admin route taking a plain-text body (a form can send one without a preflight).
    const csv = 'date,source,amount\n';
    expect((await write('/api/ad-spend/csv', 'text/plain', csv, { origin: 'null' })).status).toBe(403);
    expect((await write('/api/ad-spend/csv', 'text/plain', csv, { origin: base })).status).not.toBe(403);

    const nullSignIn = await signIn('null');
    expect(nullSignIn.status).toBe(403);
    expect(nullSignIn.headers.getSetCookie()).toEqual([]);
  });

  it("refuses a write with a session from a browser page that names no origin but is not this origin's", async () => {
    const cookie = cookieOf(await signIn(base));
    const create = (site: string) =>
      fetch(`${base}/api/buyer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, 'sec-fetch-site': site },
        body: JSON.stringify(buyerInput()),
      });
    expect((await create('same-site')).status).toBe(403);
    expect((await create('cross-site')).status).toBe(403);
    expect((await create('same-origin')).status).toBe(201);
  });

  it('leaves bearer-token clients, which send no Origin, unaffected', async () => {
    const res = await signIn(undefined);
    expect(res.status).toBe(200);
    const token = res.headers.get('set-auth-token') ?? '';
    const created = await fetch(`${base}/api/buyer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(buyerInput()),
    });
    expect(created.status).toBe(201);
  });
});

describe('sign-up', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('is refused: no user is created and no session is given', async () => {
    const email = `walk-in.${newId('usr')}@example.com`;
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      payload: { email, password: 'walk-in-password-1', name: 'Walk In' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.cookies.filter((c) => c.name.endsWith('session_token') && c.value)).toEqual([]);
    expect(await t.database.db.select().from(user).where(eq(user.email, email))).toEqual([]);
  });

  it('gives no session to a user no admin created until its email is verified', async () => {
    const id = newId('usr');
    const email = `self.${id}@example.com`;
    const now = t.clock.now();
    await t.database.db
      .insert(user)
      .values({ id, name: 'Self', email, emailVerified: false, createdAt: now, updatedAt: now });
    await t.setPassword(id, 'self-password-1');
    const attempt = () =>
      t.request({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password: 'self-password-1' } });

    const refused = await attempt();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/Verify your email address/);
    expect(refused.cookies.filter((c) => c.name.endsWith('session_token') && c.value)).toEqual([]);

    await t.database.db.update(user).set({ emailVerified: true }).where(eq(user.id, id));
    expect(sessionCookie(await attempt())).toMatch(/session_token=/);
  });
});

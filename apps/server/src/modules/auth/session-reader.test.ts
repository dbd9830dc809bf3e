import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ADMIN, useTestApp } from '../../../test/harness';
import { session, user } from '../../db/schema';
import { SESSION_EXPIRES_IN_SECONDS, SESSION_UPDATE_AGE_SECONDS } from './auth';

const t = useTestApp();

const DAY_MS = 24 * 60 * 60 * 1000;
const whoAmI = (cookie: string) => t.request({ method: 'GET', url: '/api/session', as: cookie });

/** A fresh admin session: its cookie and its row's token (the part before the signature). */
async function signedIn() {
  const cookie = await t.signIn(ADMIN.email, ADMIN.password);
  const token = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1)).split('.')[0] as string;
  return { cookie, token };
}

const expiresAtOf = async (token: string) =>
  (await t.deps.db.select({ at: session.expiresAt }).from(session).where(eq(session.token, token)))[0]?.at ?? null;

const setExpiresAt = (token: string, at: Date) =>
  t.deps.db.update(session).set({ expiresAt: at }).where(eq(session.token, token));

describe('the session cookie, read in one query before better-auth', () => {
  it('answers the signed-in user for a correctly signed cookie', async () => {
    const { cookie } = await signedIn();
    const res = await whoAmI(cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ role: 'admin', emailVerified: true });
  });

  it('refuses a cookie whose signature does not match its token, or that has none', async () => {
    const { cookie, token } = await signedIn();
    const name = cookie.slice(0, cookie.indexOf('='));
    const forged = `${name}=${encodeURIComponent(`${token}.${Buffer.alloc(32, 7).toString('base64')}`)}`;
    expect((await whoAmI(forged)).statusCode).toBe(401);
    expect((await whoAmI(`${name}=${token}`)).statusCode).toBe(401);
    // The same token, correctly signed, still works: only the signature was wrong.
    expect((await whoAmI(cookie)).statusCode).toBe(200);
  });

  it('leaves the daily refresh to better-auth: a session used after a day is extended, one used sooner is not', async () => {
    const { cookie, token } = await signedIn();
    const refreshAfterMs = (SESSION_EXPIRES_IN_SECONDS - SESSION_UPDATE_AGE_SECONDS) * 1000;
    // A minute before the refresh point: read as it is, the expiry untouched.
    const notYet = new Date(Date.now() + refreshAfterMs + 60_000);
    await setExpiresAt(token, notYet);
    expect((await whoAmI(cookie)).statusCode).toBe(200);
    expect(await expiresAtOf(token)).toEqual(notYet);
    // A minute past it: better-auth extends the session to a week from now.
    await setExpiresAt(token, new Date(Date.now() + refreshAfterMs - 60_000));
    expect((await whoAmI(cookie)).statusCode).toBe(200);
    const extended = (await expiresAtOf(token))?.getTime() ?? 0;
    expect(extended).toBeGreaterThan(Date.now() + SESSION_EXPIRES_IN_SECONDS * 1000 - DAY_MS / 24);
  });

  it('refuses an expired session and lets better-auth delete it', async () => {
    const { cookie, token } = await signedIn();
    await setExpiresAt(token, new Date(Date.now() - 1000));
    expect((await whoAmI(cookie)).statusCode).toBe(401);
    expect(await expiresAtOf(token)).toBeNull();
  });

  it('refuses the session of a user locked while it was open', async () => {
    const { cookie } = await signedIn();
    const [admin] = await t.deps.db.select({ id: user.id }).from(user).where(eq(user.email, ADMIN.email));
    await t.deps.db
      .update(user)
      .set({ holdAt: new Date() })
      .where(eq(user.id, admin?.id ?? ''));
    try {
      expect((await whoAmI(cookie)).statusCode).toBe(401);
    } finally {
      await t.deps.db
        .update(user)
        .set({ holdAt: null })
        .where(eq(user.id, admin?.id ?? ''));
    }
    expect((await whoAmI(cookie)).statusCode).toBe(200);
  });
});

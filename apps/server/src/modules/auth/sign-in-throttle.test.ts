import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createBuyerWithLogin } from '../../../test/factories';
import { ADMIN, requestPasswordReset, useTestApp } from '../../../test/harness';
import { outbox } from '../../db/schema';

/**
 * Issue 29 item 2 (ASVS 2.2.1): failed sign-ins slow down one (account, client address) pair with
 * growing delays; nobody can lock an account, the admin's included, from elsewhere. The harness's
 * clock stands still, so a delay passes only when a test moves it.
 */

const t = useTestApp();

const ATTACKERS = ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4', '203.0.113.5', '203.0.113.6'];
const FREE = 5; // SIGN_IN_FAILURES_BEFORE_DELAY's default

const signIn = (from: string, login: { email: string } | { username: string }, password: string) =>
  t.request({
    method: 'POST',
    url: `/api/auth/sign-in/${'email' in login ? 'email' : 'username'}`,
    payload: { ...login, password },
    remoteAddress: from,
  });

describe('sign-in throttle per (account, client address)', () => {
  // 30 password checks (scrypt) and 71 quick refusals: longer than the default test time on a busy machine.
  it('101 wrong admin passwords from six addresses: the admin signs in from a seventh at once, the attackers wait', {
    timeout: 180_000,
  }, async () => {
    expect(t.deps.config.SIGN_IN_FAILURES_BEFORE_DELAY).toBe(FREE);
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) {
      const res = await signIn(ATTACKERS[i % 6] as string, { email: ADMIN.email }, `guess-number-${i}`);
      statuses.push(res.statusCode);
    }
    // Each address had its free failures, then was answered 429 without its guess being tried.
    expect(statuses.filter((s) => s === 401)).toHaveLength(6 * FREE);
    expect(statuses.filter((s) => s === 429)).toHaveLength(101 - 6 * FREE);

    const owner = await signIn('198.51.100.7', { email: ADMIN.email }, ADMIN.password);
    expect(owner.statusCode, owner.body).toBe(200);

    // The attacker's address waits, even with the right password (it learns nothing from it).
    const slowed = await signIn(ATTACKERS[0] as string, { username: 'admin' }, ADMIN.password);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('1');
    expect(slowed.json()).toMatchObject({ ok: false, message: expect.stringMatching(/Try again in 1 second/) });

    // Each further failure doubles the wait: 1 s, 2 s, 4 s …
    t.clock.advance(1000);
    expect((await signIn(ATTACKERS[0] as string, { email: ADMIN.email }, 'guess-after-wait')).statusCode).toBe(401);
    expect((await signIn(ATTACKERS[0] as string, { email: ADMIN.email }, 'too-soon')).headers['retry-after']).toBe('2');
    t.clock.advance(2000);
    expect((await signIn(ATTACKERS[0] as string, { email: ADMIN.email }, 'guess-again')).statusCode).toBe(401);
    expect((await signIn(ATTACKERS[0] as string, { email: ADMIN.email }, 'too-soon')).headers['retry-after']).toBe('4');
  });

  it('counts an account named by email or by username alike, per address', async () => {
    const { buyer, password } = await createBuyerWithLogin(t);
    const from = '203.0.113.20';
    for (let i = 0; i < FREE; i++) {
      const login = i % 2 ? { username: buyer.username } : { email: buyer.email };
      expect((await signIn(from, login, `wrong-${i}`)).statusCode).toBe(401);
    }
    expect((await signIn(from, { username: buyer.username }, password)).statusCode).toBe(429);
    expect((await signIn('203.0.113.21', { username: buyer.username }, password)).statusCode).toBe(200);
  });

  it('a successful sign-in clears its own count', async () => {
    const { buyer, password } = await createBuyerWithLogin(t);
    const from = '203.0.113.30';
    for (let i = 0; i < FREE - 1; i++) await signIn(from, { email: buyer.email }, `wrong-${i}`);
    expect((await signIn(from, { email: buyer.email }, password)).statusCode).toBe(200);
    for (let i = 0; i < FREE; i++) {
      expect((await signIn(from, { email: buyer.email }, `wrong-again-${i}`)).statusCode, `failure ${i}`).toBe(401);
    }
    expect((await signIn(from, { email: buyer.email }, password)).statusCode).toBe(429);
  });

  it('a completed password reset clears the count from every address', async () => {
    const { buyer } = await createBuyerWithLogin(t);
    for (const from of ATTACKERS.slice(0, 2)) {
      for (let i = 0; i < FREE; i++) await signIn(from, { email: buyer.email }, `wrong-${i}`);
      expect((await signIn(from, { email: buyer.email }, 'still-wrong-1')).statusCode).toBe(429);
    }
    await requestPasswordReset(t, buyer.email);
    const [mail] = await t.database.db.select().from(outbox).where(eq(outbox.to, buyer.email));
    const token = /\/api\/auth\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
    const reset = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, newPassword: 'after-reset-pass-7' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    for (const from of ATTACKERS.slice(0, 2)) {
      expect((await signIn(from, { email: buyer.email }, 'after-reset-pass-7')).statusCode).toBe(200);
    }
  });
});

describe("the failure window: a pair's failures count for 24 hours (sign-in-limit.ts WINDOW_MS)", () => {
  const HOUR = 3_600_000;

  it('still counts failures 24 h − 1 ms old: one more failure then waits 2 s', async () => {
    const { buyer } = await createBuyerWithLogin(t);
    const from = '203.0.113.40';
    const started = t.clock.now().getTime();
    for (let i = 0; i < FREE; i++)
      expect((await signIn(from, { email: buyer.email }, `wrong-${i}`)).statusCode).toBe(401);
    t.clock.set(new Date(started + 24 * HOUR - 1));
    // The first delay (1 s after the last failure) has long passed: the guess is tried and fails.
    expect((await signIn(from, { email: buyer.email }, 'wrong-late')).statusCode).toBe(401);
    // Six failures in the window: the next attempt waits 2 s, the wait of the sixth.
    const slowed = await signIn(from, { email: buyer.email }, 'wrong-again');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('2');
  });

  it('forgets failures exactly 24 h old: the pair has its free failures again', async () => {
    const { buyer, password } = await createBuyerWithLogin(t);
    const from = '203.0.113.41';
    const started = t.clock.now().getTime();
    for (let i = 0; i < FREE; i++)
      expect((await signIn(from, { email: buyer.email }, `wrong-${i}`)).statusCode).toBe(401);
    t.clock.set(new Date(started + 24 * HOUR));
    // Only this failure counts: the right password right after it is taken, not slowed.
    expect((await signIn(from, { email: buyer.email }, 'wrong-after')).statusCode).toBe(401);
    expect((await signIn(from, { email: buyer.email }, password)).statusCode).toBe(200);
  });
});

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createBuyerWithLogin, createSourceWithLogin } from '../../../test/factories';
import { ADMIN, requestPasswordReset, useTestApp } from '../../../test/harness';
import { eventually } from '../../../test/receivers';
import { outbox } from '../../db/schema';

const t = useTestApp();

const session = (cookie?: string) => t.request({ method: 'GET', url: '/api/session', as: cookie });

describe('sign-in', () => {
  it('signs the admin in by email and by username', async () => {
    for (const login of [ADMIN.email, 'admin']) {
      const cookie = await t.signIn(login, ADMIN.password);
      const res = await session(cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ role: 'admin', role_id: null, canPostLead: false, emailVerified: true });
      // Issue 27 item 24: the header shows who is signed in.
      expect(res.json()).toMatchObject({ email: ADMIN.email, name: expect.any(String) });
      expect(res.json().name).not.toBe('');
    }
  });

  it('sets an HttpOnly, SameSite=Lax session cookie and also accepts a Bearer token', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: ADMIN.email, password: ADMIN.password },
    });
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name.endsWith('session_token'));
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const token = res.headers['set-auth-token'] as string;
    const bearer = await t.request({
      method: 'GET',
      url: '/api/session',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.json().role).toBe('admin');
  });

  it('refuses a wrong password with the error shape', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: ADMIN.email, password: 'wrong-password' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ ok: false, code: 'INVALID_EMAIL_OR_PASSWORD' });
  });

  it('answers a guest 401 on the session and on guarded routes', async () => {
    expect((await session()).statusCode).toBe(401);
    const res = await t.request({ method: 'GET', url: '/api/buyer' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ ok: false, message: 'Sign in to continue' });
  });

  it('ends the session on sign-out', async () => {
    const cookie = await t.signIn(ADMIN.email, ADMIN.password);
    const out = await t.request({ method: 'POST', url: '/api/auth/sign-out', as: cookie, payload: {} });
    expect(out.statusCode).toBe(200);
    expect((await session(cookie)).statusCode).toBe(401);
  });
});

describe('session claims', () => {
  it('gives a buyer user its role and buyer id', async () => {
    const { buyer, cookie } = await createBuyerWithLogin(t);
    const res = await session(cookie);
    expect(res.json()).toMatchObject({ role: 'buyer', role_id: buyer._id, canPostLead: false, welcome: false });
    expect(res.json().user_id).toMatch(/^usr_/);
  });

  it('gives a source user its source id, canPostLead and the welcome flag', async () => {
    const { source, cookie } = await createSourceWithLogin(t, { canPostLead: true });
    expect((await session(cookie)).json()).toMatchObject({
      role: 'source',
      role_id: source.id,
      canPostLead: true,
      welcome: true,
    });
  });

  it('POST /api/session/claims answers the claims; PUT closes the onboarding', async () => {
    const { cookie } = await createSourceWithLogin(t);
    const posted = await t.request({ method: 'POST', url: '/api/session/claims', as: cookie });
    expect(posted.json()).toMatchObject({ role: 'source', welcome: true });
    const put = await t.request({ method: 'PUT', url: '/api/session/claims', as: cookie, payload: { welcome: false } });
    expect(put.statusCode).toBe(200);
    expect(put.json().welcome).toBe(false);
    expect((await session(cookie)).json().welcome).toBe(false);
  });

  it('lets nobody set other claims', async () => {
    const { cookie } = await createBuyerWithLogin(t);
    const res = await t.request({ method: 'PUT', url: '/api/session/claims', as: cookie, payload: { role: 'admin' } });
    expect(res.statusCode).toBe(400);
    expect((await session(cookie)).json().role).toBe('buyer');
  });
});

describe('role guards', () => {
  it('answers a buyer 403 on an admin-only route', async () => {
    const { cookie } = await createBuyerWithLogin(t);
    const res = await t.request({ method: 'GET', url: '/api/buyer', as: cookie });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ ok: false });
    expect((await t.request({ method: 'GET', url: '/api/outbox', as: cookie })).statusCode).toBe(403);
  });

  it('answers a source 403 on admin and buyer routes', async () => {
    const { cookie } = await createSourceWithLogin(t);
    expect((await t.request({ method: 'GET', url: '/api/buyer', as: cookie })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/tag/match', as: cookie })).statusCode).toBe(403);
  });
});

describe('lock and unlock', () => {
  it('ends a locked user’s sessions at once and refuses its sign-in until unlocked', async () => {
    const admin = await t.signIn(ADMIN.email, ADMIN.password);
    const { buyer, user, password, cookie } = await createBuyerWithLogin(t);
    expect((await session(cookie)).statusCode).toBe(200);

    const lock = await t.request({ method: 'PUT', url: `/api/buyer/${buyer._id}/hold/${user.id}`, as: admin });
    expect(lock.statusCode).toBe(200);
    expect(lock.json().hold.ts).toBeGreaterThan(0);
    expect((await session(cookie)).statusCode).toBe(401);

    const retry = await t.request({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: buyer.email, password },
    });
    expect(retry.statusCode).toBe(403);
    expect(retry.json().message).toMatch(/on hold/);

    const unlock = await t.request({ method: 'PUT', url: `/api/buyer/${buyer._id}/unhold/${user.id}`, as: admin });
    expect(unlock.statusCode).toBe(200);
    expect(unlock.json().hold).toBeUndefined();
    expect((await session(await t.signIn(buyer.email, password))).statusCode).toBe(200);
  });
});

describe('welcome email and password reset', () => {
  it('mails a welcome link that sets the password (kept in the outbox without SMTP)', async () => {
    const admin = await t.signIn(ADMIN.email, ADMIN.password);
    const created = await t.request({
      method: 'POST',
      url: '/api/buyer',
      as: admin,
      payload: {
        username: 'welcome-buyer',
        name: 'Welcome Windows',
        email: 'welcome@windows.example',
        phone: '5550102000',
        bill: { pay: 'invoice' },
      },
    });
    expect(created.statusCode).toBe(201);
    const buyer = created.json();
    const userId = buyer.users[0]._id;

    const sent = await t.request({ method: 'PUT', url: `/api/buyer/${buyer._id}/welcome/${userId}`, as: admin });
    expect(sent.statusCode).toBe(200);

    const list = await t.request({ method: 'GET', url: '/api/outbox', as: admin });
    const mail = list.json().data.find((m: { to: string }) => m.to === 'welcome@windows.example');
    expect(mail).toMatchObject({ status: 'pending', subject: expect.stringContaining('Welcome') });
    const link = new URL(mail.text.match(/https?:\/\/\S+/)[0]);
    expect(link.origin + link.pathname).toBe('http://leadex.test/reset-password');

    const reset = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: link.searchParams.get('token'), newPassword: 'chosen-password-9' },
    });
    expect(reset.statusCode).toBe(200);
    const cookie = await t.signIn('welcome-buyer', 'chosen-password-9');
    expect((await session(cookie)).json()).toMatchObject({ role: 'buyer', role_id: buyer._id, emailVerified: true });

    const again = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: link.searchParams.get('token'), newPassword: 'another-password-9' },
    });
    expect(again.statusCode).toBe(400);
  });

  it('mails a password reset link that leads to the set-password page', async () => {
    const { buyer } = await createBuyerWithLogin(t);
    const asked = await requestPasswordReset(t, buyer.email);
    expect(asked.statusCode).toBe(200);
    // The mail goes out after the answer (the answer's time must not tell known addresses: issue 29 item 11).
    const mail = await eventually(
      async () => (await t.database.db.select().from(outbox).where(eq(outbox.to, buyer.email)))[0],
    );
    const link = new URL((mail?.text.match(/https?:\/\/\S+/) ?? [''])[0]);
    const followed = await t.request({ method: 'GET', url: link.pathname + link.search });
    expect(followed.statusCode).toBe(302);
    const target = new URL(followed.headers.location as string, 'http://leadex.test');
    expect(target.pathname).toBe('/reset-password');
    const reset = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: target.searchParams.get('token'), newPassword: 'brand-new-pass-1' },
    });
    expect(reset.statusCode).toBe(200);
    await t.signIn(buyer.email, 'brand-new-pass-1');
  });
});

import { APPROVAL_NEEDS_PAYOUT, SIGNUP_MESSAGES } from '@leadex/domain';
import { signJWT } from 'better-auth/crypto';
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey, leadInput, uniquePhone } from '../../../test/factories';
import { useFixture } from '../../../test/fixtures';
import {
  ADMIN,
  createTestApp,
  requestPasswordReset,
  sessionCookie,
  type TestApp,
  useTestApp,
} from '../../../test/harness';
import { eventually, type SmtpReceiver, startSmtpReceiver } from '../../../test/receivers';
import { apiKeys, leads, messages, outbox, sources, user } from '../../db/schema';

/**
 * Self sign-up of a source (portals spec §2, §5, §7): the verification mail through a real local SMTP
 * server, no session before the email is verified, the claims after, and the admin's approval before
 * the source's real leads sell.
 */

const smtp: SmtpReceiver = useFixture(startSmtpReceiver, (r) => r.close());
const t = useTestApp(() => ({ SMTP_URL: smtp.url }));
const signedIn = useFixture(async () => ({ cookie: await t.signIn(ADMIN.email, ADMIN.password) }));

let n = 0;
function signupBody(overrides: Record<string, unknown> = {}) {
  n += 1;
  const tag = `${Date.now().toString(36)}${n}`;
  return {
    username: `src-${tag}`,
    password: 'secret-pass-1',
    email: `owner.${tag}@brightleads.example`,
    name: 'Dana Reyes',
    company: `Bright Leads ${tag}`,
    phone: uniquePhone(),
    address: '100 Main St',
    city: 'Sacramento',
    state: 'CA',
    zip: '95814',
    website: 'https://brightleads.example',
    promo: 'SPRING',
    ...overrides,
  };
}

const signUp = (body: object) => t.request({ method: 'POST', url: '/api/signup', payload: body });

/** The text of a received mail, with its quoted-printable soft breaks and escapes undone. */
function mailText(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The verification link of the `after`-th mail (0 the first) the SMTP server received for `email`. */
async function verificationLink(email: string, after = 0): Promise<URL> {
  const mail = await eventually(
    () => smtp.mails.filter((m) => m.to.includes(email))[after],
    10_000,
    `the verification mail to ${email}`,
  );
  const text = mailText(mail?.raw ?? '');
  const link = /https?:\/\/\S+\/auth\/verify-email\?token=[^\s"<]+/.exec(text)?.[0];
  if (!link) throw new Error(`no verification link in ${text}`);
  return new URL(link);
}

const verify = (token: string) =>
  t.request({ method: 'GET', url: `/api/auth/verify-email?token=${encodeURIComponent(token)}` });

const signInAs = (username: string, password: string) =>
  t.request({ method: 'POST', url: '/api/auth/sign-in/username', payload: { username, password } });

async function userOf(email: string) {
  const [row] = await t.database.db.select().from(user).where(eq(user.email, email));
  return row;
}

describe('POST /api/signup', () => {
  it('creates an unapproved source with its first API key and a role-less user, and tells the admins once verified', async () => {
    const body = signupBody();
    const res = await signUp(body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ ok: true, email: body.email });

    const u = await userOf(body.email);
    expect(u).toMatchObject({
      username: body.username,
      name: body.name,
      role: null,
      welcome: true,
      emailVerified: false,
    });
    const [source] = await t.database.db
      .select()
      .from(sources)
      .where(eq(sources.id, u?.roleId ?? ''));
    expect(source).toMatchObject({
      name: body.company,
      contactName: body.name,
      email: body.email,
      phone: body.phone,
      address: body.address,
      city: body.city,
      state: 'CA',
      zip: body.zip,
      website: body.website,
      approvedAt: null,
      selfSignedUp: true,
      canPostLead: false,
    });
    expect(source?.notes).toContain('SPRING');
    expect(
      await t.database.db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.sourceId, source?.id ?? '')),
    ).toHaveLength(1);

    // The admins hear of it once the email is verified, not before (issue 27): unverified sign-ups
    // never fill Messages. Verifying twice posts it once.
    const announced = `${body.company} signed up as a source (${body.name}, ${body.email}, promo code SPRING). Approve it to let it sell real leads.`;
    const messagesAbout = () => t.database.db.select().from(messages).where(eq(messages.text, announced));
    expect(await messagesAbout()).toEqual([]);
    const token = (await verificationLink(body.email)).searchParams.get('token') ?? '';
    expect((await verify(token)).statusCode).toBe(200);
    expect((await verify(token)).statusCode).toBe(200);
    const posted = await messagesAbout();
    expect(posted).toHaveLength(1);
    expect(posted[0]?.data).toEqual({ kind: 'source_signup', source_id: source?.id, link: `/source/${source?.id}` });
    const list = await t.request({ method: 'GET', url: '/api/message/admin', as: signedIn.cookie });
    expect(JSON.stringify(list.json())).toContain(`/source/${source?.id}`);

    // The admin's sources list and detail show it awaiting approval.
    const sourcesList = await t.request({
      method: 'GET',
      url: `/api/source?name=${encodeURIComponent(body.company)}`,
      as: signedIn.cookie,
    });
    expect(sourcesList.json().data).toEqual([expect.objectContaining({ _id: source?.id, approved: false })]);
  });

  it('mails a verification link: no session before it is followed, the source claims after', async () => {
    const body = signupBody();
    expect((await signUp(body)).statusCode).toBe(201);
    const link = await verificationLink(body.email);
    expect(link.origin).toBe('http://leadex.test');
    expect(link.pathname).toBe('/auth/verify-email');
    // The outbox keeps the mail too, as sent.
    const [kept] = await t.database.db.select().from(outbox).where(eq(outbox.to, body.email));
    expect(kept).toMatchObject({ status: 'sent', subject: 'Welcome to Leadex: verify your email' });

    // Signing in before verifying: refused, by username and by email, and no session cookie is set.
    for (const res of [
      await signInAs(body.username, body.password),
      await t.request({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        payload: { email: body.email, password: body.password },
      }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ ok: false, code: 'EMAIL_NOT_VERIFIED' });
      expect(res.cookies.find((c) => c.name.endsWith('session_token') && c.value)).toBeUndefined();
    }

    const verified = await verify(link.searchParams.get('token') ?? '');
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ status: true });
    // Verifying signs nobody in: the source signs in itself.
    expect(verified.cookies.find((c) => c.name.endsWith('session_token'))).toBeUndefined();

    const session = await signInAs(body.username, body.password);
    expect(session.statusCode, session.body).toBe(200);
    const cookie = sessionCookie(session);
    const claims = await t.request({ method: 'POST', url: '/api/session/claims', as: cookie });
    expect(claims.statusCode).toBe(200);
    const u = await userOf(body.email);
    expect(claims.json()).toEqual({
      user_id: u?.id,
      role: 'source',
      role_id: u?.roleId,
      canPostLead: false,
      welcome: true,
      emailVerified: true,
      zone: 'America/New_York',
      name: body.name,
      email: body.email,
    });
    // Its own record reads; following the link again changes nothing.
    expect((await t.request({ method: 'GET', url: `/api/source/${u?.roleId}`, as: cookie })).json()).toMatchObject({
      approved: false,
      apikeys: [expect.objectContaining({ name: 'API Key 1' })],
    });
    expect((await verify(link.searchParams.get('token') ?? '')).statusCode).toBe(200);
  });

  it('resends the link, and the new one verifies', async () => {
    const body = signupBody();
    await signUp(body);
    await verificationLink(body.email);
    const resend = await t.request({
      method: 'POST',
      url: '/api/auth/send-verification-email',
      payload: { email: body.email },
    });
    expect(resend.statusCode, resend.body).toBe(200);
    const second = await verificationLink(body.email, 1);
    expect((await verify(second.searchParams.get('token') ?? '')).statusCode).toBe(200);
    expect((await signInAs(body.username, body.password)).statusCode).toBe(200);
  });

  it('refuses an invalid or an expired link with better-auth codes the screens tell apart', async () => {
    const invalid = await verify('not-a-token');
    expect(invalid.statusCode).toBe(401);
    expect(invalid.json()).toMatchObject({ ok: false, code: 'INVALID_TOKEN' });
    const body = signupBody();
    await signUp(body);
    const expired = await signJWT({ email: body.email }, t.deps.config.LEADEX_SECRET, -60);
    const res = await verify(expired);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'TOKEN_EXPIRED' });
    expect((await userOf(body.email))?.emailVerified).toBe(false);
  });

  it('answers a filled honeypot as if it had signed up, and creates nothing', async () => {
    const body = signupBody({ email_address_confirmation: 'bot@spam.example' });
    const res = await signUp(body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ ok: true, email: body.email });
    expect(await userOf(body.email)).toBeUndefined();
    expect(await t.database.db.select().from(sources).where(eq(sources.name, body.company))).toEqual([]);
    expect(await t.database.db.select().from(outbox).where(eq(outbox.to, body.email))).toEqual([]);
  });

  it('answers a taken username or email with the spec messages, and says what is available', async () => {
    const body = signupBody();
    const avail = (kind: string, value: string) =>
      t.request({ method: 'GET', url: `/api/signup/isuseravail/${kind}/${encodeURIComponent(value)}` });
    expect((await avail('name', body.username)).json()).toEqual({ ok: true });
    expect((await avail('email', body.email)).json()).toEqual({ ok: true });
    await signUp(body);
    expect((await avail('name', body.username)).json()).toEqual({ ok: false });
    expect((await avail('email', body.email.toUpperCase())).json()).toEqual({ ok: false });

    const sameName = await signUp(signupBody({ username: body.username }));
    expect(sameName.statusCode).toBe(400);
    expect(sameName.json()).toEqual({
      ok: false,
      message: 'Username is already taken.',
      errors: { username: 'Username is already taken.' },
    });
    const sameEmail = await signUp(signupBody({ email: body.email.toUpperCase() }));
    expect(sameEmail.statusCode).toBe(400);
    expect(sameEmail.json()).toEqual({
      ok: false,
      message: 'This email already exists. Please sign in instead',
      errors: { email: 'This email already exists.' },
    });
  });

  it('answers bad input 400 naming the field, in the words of spec §5', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ username: '' }, 'username', 'Username cannot be empty'],
      [{ username: 'abc' }, 'username', 'Usernames must be at least 4 characters long.'],
      [
        { username: 'Bad Name' },
        'username',
        'Username must contain only alphanumeric, underscore or hyphen characters.',
      ],
      [{ password: '' }, 'password', 'Password cannot be empty'],
      [{ password: 'short1' }, 'password', 'Password must be at least 8 characters long.'],
      [{ password: 'lettersonly' }, 'password', 'Password must contain at least one letter and one number.'],
      [{ email: '' }, 'email', 'Email cannot be empty'],
      [{ email: 'not-an-email' }, 'email', 'Invalid email address.'],
      [{ name: ' ' }, 'name', 'Name cannot be empty'],
      [{ company: '' }, 'company', 'Company cannot be empty'],
      [{ phone: '' }, 'phone', 'Phone cannot be empty'],
      [{ phone: '123' }, 'phone', SIGNUP_MESSAGES.phoneFormat],
      [{ address: '' }, 'address', 'Address cannot be empty'],
      [{ city: '' }, 'city', 'City cannot be empty'],
      [{ zip: '' }, 'zip', 'Zip cannot be empty'],
      [{ zip: '9581' }, 'zip', 'Zip must be 5 digits'],
      [{ state: 'XX' }, 'state', 'State must be a US state'],
      [{ website: 'x'.repeat(301) }, 'website', 'Website must be at most 300 characters'],
    ];
    for (const [override, field, message] of cases) {
      const res = await signUp(signupBody(override));
      expect(res.statusCode, JSON.stringify(override)).toBe(400);
      expect(res.json().errors?.[field], JSON.stringify(override)).toBe(message);
    }
    const missing = await signUp({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toMatchObject({ username: 'Username cannot be empty', zip: 'Zip cannot be empty' });
    // The state defaults to CA.
    const body = signupBody({ state: '' });
    expect((await signUp(body)).statusCode).toBe(201);
    const [row] = await t.database.db.select().from(sources).where(eq(sources.name, body.company));
    expect(row?.state).toBe('CA');
  });
});

describe('approval', () => {
  it('lets a signed-up source test at once and sell real leads once an admin approves it', async () => {
    const body = signupBody();
    await signUp(body);
    const u = await userOf(body.email);
    const sourceId = u?.roleId ?? '';
    const [key] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.sourceId, sourceId));
    const detail = await t.request({ method: 'GET', url: `/api/source/${sourceId}`, as: signedIn.cookie });
    const plain: string = detail.json().apikeys[0]?.key ?? '';
    expect(key?.prefix && plain.startsWith(key.prefix)).toBe(true);

    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { services: ['roofing'], location: 'zip', zips: ['99999', '95814'], price: 30 });

    const test = await t.sourceApi('/api/ping', plain, { service: 'roofing', zip: '99999', test: true });
    expect(test.json()).toMatchObject({ ok: true, test: true });
    const real = await t.sourceApi('/api/ping', plain, { service: 'roofing', zip: '95814' });
    expect(real.json()).toMatchObject({ ok: false, reason: 'not_approved' });

    // Only an admin approves.
    expect((await t.request({ method: 'PUT', url: `/api/source/${sourceId}/approve` })).statusCode).toBe(401);
    await verify((await verificationLink(body.email)).searchParams.get('token') ?? '');
    const own = sessionCookie(await signInAs(body.username, body.password));
    expect((await t.request({ method: 'PUT', url: `/api/source/${sourceId}/approve`, as: own })).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'PUT', url: '/api/source/src_unknown/approve', as: signedIn.cookie })).statusCode,
    ).toBe(404);

    // Approval asks for the payout (issue 27): without one the source would sell at $0.
    const refused = await t.request({ method: 'PUT', url: `/api/source/${sourceId}/approve`, as: signedIn.cookie });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ ok: false, errors: { max_cost: APPROVAL_NEEDS_PAYOUT } });
    const bad = await t.request({
      method: 'PUT',
      url: `/api/source/${sourceId}/approve`,
      as: signedIn.cookie,
      payload: { max_cost: 'lots' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['max_cost']);

    const approved = await t.request({
      method: 'PUT',
      url: `/api/source/${sourceId}/approve`,
      as: signedIn.cookie,
      payload: { max_cost: 12 },
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ max_cost: 12, needs_payout: false });
    expect(approved.json()).toMatchObject({ _id: sourceId, approved: true });
    const [row] = await t.database.db.select().from(sources).where(eq(sources.id, sourceId));
    const first = row?.approvedAt;
    expect(first).toBeInstanceOf(Date);
    // Approving again keeps the first approval.
    t.clock.advance(60_000);
    await t.request({ method: 'PUT', url: `/api/source/${sourceId}/approve`, as: signedIn.cookie });
    const [again] = await t.database.db
      .select()
      .from(sources)
      .where(and(eq(sources.id, sourceId)));
    expect(again?.approvedAt?.getTime()).toBe(first?.getTime());

    // It sells at that payout.
    const ping = await t.sourceApi('/api/ping', plain, { service: 'roofing', zip: '95814' });
    expect(ping.json()).toMatchObject({ ok: true, price: 12 });
    const { service: _s, zip: _z, ...contact } = leadInput();
    const post = await t.sourceApi('/api/post', plain, { ping_id: ping.json().ping_id, ...contact });
    expect(post.json(), post.body).toMatchObject({ ok: true, status: 'sold', price: 12 });
    const [lead] = await t.database.db.select().from(leads).where(eq(leads.id, post.json().lead_id));
    expect(lead?.costCents).toBe(1200);
  });

  it('never sells a signed-up source’s real leads without a payout, says why, and keeps internal sources selling', async () => {
    const body = signupBody();
    await signUp(body);
    await verify((await verificationLink(body.email)).searchParams.get('token') ?? '');
    const u = await userOf(body.email);
    const sourceId = u?.roleId ?? '';
    const own = sessionCookie(await signInAs(body.username, body.password));
    const detail = await t.request({ method: 'GET', url: `/api/source/${sourceId}`, as: own });
    const plain: string = detail.json().apikeys[0]?.key ?? '';
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { services: ['roofing'], location: 'zip', zips: ['95814'], price: 45 });

    // Approved without a payout, as sources were before approval asked for one.
    await t.deps.engine.change('sources', (tx) =>
      tx.update(sources).set({ approvedAt: t.clock.now() }).where(eq(sources.id, sourceId)),
    );
    const mine = await t.request({ method: 'GET', url: `/api/source/${sourceId}`, as: own });
    expect(mine.json()).toMatchObject({ approved: true, needs_payout: true });
    const listed = await t.request({
      method: 'GET',
      url: `/api/source?name=${encodeURIComponent(body.company)}`,
      as: signedIn.cookie,
    });
    expect(listed.json().data).toEqual([expect.objectContaining({ _id: sourceId, needs_payout: true })]);

    // Its real pings and direct leads are refused with the reason; its test pings still answer.
    const real = await t.sourceApi('/api/ping', plain, { service: 'roofing', zip: '95814' });
    expect(real.statusCode).toBe(403);
    expect(real.json()).toMatchObject({ ok: false, reason: 'no_payout' });
    expect(real.json().message).toContain('has not set what it pays you per lead');
    expect(
      (await t.sourceApi('/api/ping', plain, { service: 'roofing', zip: '99999', test: true })).json(),
    ).toMatchObject({
      ok: true,
      test: true,
    });

    // A channel with a max cost pays on that channel only.
    await t.request({
      method: 'PUT',
      url: `/api/source/${sourceId}`,
      as: signedIn.cookie,
      payload: { channels: [{ name: 'facebook', max_cost: 9 }] },
    });
    expect((await t.request({ method: 'GET', url: `/api/source/${sourceId}`, as: own })).json().needs_payout).toBe(
      false,
    );
    const unpaid = await t.sourceApi('/api/ping', plain, { service: 'roofing', zip: '95814' });
    expect(unpaid.json()).toMatchObject({ ok: false, reason: 'no_payout' });
    expect(unpaid.json().message).toContain('facebook');
    const paid = await t.sourceApi('/api/ping', plain, { service: 'roofing', zip: '95814', channel: 'facebook' });
    expect(paid.json()).toMatchObject({ ok: true, price: 9 });

    // An admin's source without a lead cost is internal (DESIGN.md §5): it sells, paid nothing.
    const internal = await createSourceWithKey(t, { maxCost: null, canPostLead: true });
    const { service: _s, zip: _z, ...contact } = leadInput();
    const sold = await t.sourceApi('/api/lead', internal.apiKey, { service: 'roofing', zip: '95814', ...contact });
    expect(sold.json(), sold.body).toMatchObject({ ok: true, status: 'sold', price: 0 });
  });
});

describe('Forgot password before the email is verified (issue 29 item 7)', () => {
  it('leaves the sign-up able to verify and then sign in as its source', async () => {
    const body = signupBody();
    expect((await signUp(body)).statusCode).toBe(201);
    const verifyToken = (await verificationLink(body.email)).searchParams.get('token') ?? '';

    const asked = await requestPasswordReset(t, body.email);
    expect(asked.statusCode).toBe(200);
    const mail = await eventually(
      () => smtp.mails.filter((m) => m.to.includes(body.email))[1],
      10_000,
      `the reset mail to ${body.email}`,
    );
    const resetToken = /\/api\/auth\/reset-password\/([A-Za-z0-9_-]+)/.exec(mailText(mail?.raw ?? ''))?.[1];
    const reset = await t.request({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token: resetToken, newPassword: 'after-reset-pass-7' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    // A reset verifies nothing by itself: still no role, so no session yet.
    expect(await userOf(body.email)).toMatchObject({ role: null, emailVerified: false });
    expect((await signInAs(body.username, 'after-reset-pass-7')).statusCode).toBe(403);

    expect((await verify(verifyToken)).statusCode).toBe(200);
    const signedInNow = await signInAs(body.username, 'after-reset-pass-7');
    expect(signedInNow.statusCode, signedInNow.body).toBe(200);
    const claims = await t.request({ method: 'GET', url: '/api/session', as: sessionCookie(signedInNow) });
    expect(claims.json()).toMatchObject({ role: 'source', role_id: (await userOf(body.email))?.roleId });
  });
});

describe('limits per client address', () => {
  let limited: TestApp | undefined;
  afterEach(async () => {
    await limited?.close();
    limited = undefined;
  });

  it('answer 429 past AUTH_SIGN_UP_PER_MINUTE sign-ups', async () => {
    limited = await createTestApp({ AUTH_SIGN_UP_PER_MINUTE: 2 });
    const app = limited;
    const post = () => app.request({ method: 'POST', url: '/api/signup', payload: { username: 'x' } });
    expect((await post()).statusCode).toBe(400);
    expect((await post()).statusCode).toBe(400);
    const third = await post();
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ ok: false });
  });

  it('count the availability checks of names and emails together per address, as many as sign-ins (issue 29 item 12)', async () => {
    limited = await createTestApp({ AUTH_SIGN_IN_PER_MINUTE: 4 });
    const app = limited;
    const check = (kind: 'name' | 'email', value: string, from = '203.0.113.40') =>
      app.request({ method: 'GET', url: `/api/signup/isuseravail/${kind}/${value}`, remoteAddress: from });
    expect((await check('name', 'taken-or-not-1')).statusCode).toBe(200);
    expect((await check('email', 'who1@example.com')).statusCode).toBe(200);
    expect((await check('name', 'taken-or-not-2')).statusCode).toBe(200);
    expect((await check('email', 'who2@example.com')).statusCode).toBe(200);
    const fifth = await check('email', 'who3@example.com');
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toMatchObject({ ok: false, message: expect.stringMatching(/Too many requests/) });
    expect((await check('name', 'taken-or-not-3')).statusCode).toBe(429);
    // Another client has its own allowance; the checks themselves are still there.
    expect((await check('name', 'admin', '203.0.113.41')).json()).toEqual({ ok: false });
  });
});

import { INTEGRATION_NAMES } from '@leadex/domain';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { useRoleCookies, useTestApp } from '../../../test/harness';
import { connectIntegration, stateCookie, useOAuthServer } from '../../../test/oauth-server';
import { messages, settings } from '../../db/schema';
import { REFRESH_AHEAD_MS } from './integrations.service';

/**
 * Issue 14, Settings: the integrations connect by OAuth 2 against a local provider (oauth2-mock-server):
 * redirect with state (and PKCE for Google), callback that checks the state and stores the tokens
 * encrypted, refresh ahead of expiry, and an admin message, once, when one has expired.
 */
const oauth = useOAuthServer();
const t = useTestApp(() => oauth.config());
const cookies = useRoleCookies(t);

const list = async () => {
  const res = await t.request({ method: 'GET', url: '/api/setting/allForCat/integration', as: cookies.admin });
  expect(res.statusCode).toBe(200);
  return res.json() as { name: string; status: string; [key: string]: unknown }[];
};
const integration = async (name: string) => (await list()).find((i) => i.name === name);
const storedValue = async (name: string) => {
  const [row] = await t.database.db
    .select()
    .from(settings)
    .where(eq(settings.key, `integration:${name}`));
  return row?.value as Record<string, unknown> | undefined;
};
const messageTexts = async () => (await t.database.db.select().from(messages)).map((m) => m.text);

describe('connecting an integration', () => {
  it('redirects to the provider with response_type=code, a state, PKCE and the callback under PUBLIC_URL', async () => {
    const res = await t.request({ method: 'GET', url: '/api/google/ads-auth', as: cookies.admin });
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location));
    expect(`${url.origin}${url.pathname}`).toBe(`${oauth.url}/authorize`);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe('google-client');
    expect(url.searchParams.get('redirect_uri')).toBe('http://leadex.test/api/google/ads-auth/callback');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('scope')).toContain('https://www.googleapis.com/auth/adwords');
    expect(url.searchParams.get('access_type')).toBe('offline');
    // The state travels sealed in an HttpOnly cookie, unreadable to the page.
    const cookie = res.cookies.find((c) => c.name === 'leadex_oauth');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/' });
    expect(cookie?.value).not.toContain(url.searchParams.get('state'));
  });

  it('stores the tokens encrypted at the callback and shows the integration Connected', async () => {
    t.clock.set('2026-11-02T15:00:00Z');
    oauth.claimEmail('ads@leadex.example');
    const back = await connectIntegration(t, cookies.admin, 'google-ads');
    expect(back.statusCode).toBe(302);
    expect(back.headers.location).toBe('/settings?connected=google-ads');
    const exchange = oauth.exchanges.at(-1);
    expect(exchange?.request.grant_type).toBe('authorization_code');
    // PKCE: the verifier went with the code (the provider checked it against the challenge).
    expect(exchange?.request.code_verifier).toMatch(/^[\w-]{43,}$/);
    const issued = String(exchange?.body.access_token);
    const stored = await storedValue('google-ads');
    expect(String(stored?.accessToken)).toMatch(/^v1\./);
    expect(JSON.stringify(stored)).not.toContain(issued);
    expect(JSON.stringify(stored)).not.toContain(String(exchange?.body.refresh_token));
    const now = Math.floor(t.clock.now().getTime() / 1000);
    expect(await integration('google-ads')).toMatchObject({
      status: 'Connected',
      configured: true,
      account: 'ads@leadex.example',
      connectedAt: now,
      accessToken: { expiry_date: now + 3600, refresh_token_expiry_date: null },
    });
    // No token ever leaves in the list.
    expect(JSON.stringify(await list())).not.toContain(issued);
    expect((await t.deps.services.integrations.accessToken('google-ads'))?.token).toBe(issued);
  });

  it('refuses a callback whose state is not the one sealed in this browser, and stores nothing', async () => {
    const start = await t.request({ method: 'GET', url: '/api/facebook/ads-auth', as: cookies.admin });
    const authorized = await fetch(String(start.headers.location), { redirect: 'manual' });
    const back = new URL(String(authorized.headers.get('location')));
    const forged = `${back.pathname}?code=${back.searchParams.get('code')}&state=someone-elses-state`;
    const refused = await t.request({ method: 'GET', url: forged, as: `${cookies.admin}; ${stateCookie(start)}` });
    expect(refused.statusCode).toBe(302);
    const location = new URL(String(refused.headers.location), 'http://x');
    expect(location.pathname).toBe('/settings');
    expect(location.searchParams.get('integrationError')).toBe(
      'The Facebook Ads connection could not be verified (it expired or was started elsewhere). Connect again.',
    );
    // Without the cookie (another browser) it is refused too.
    const noCookie = await t.request({ method: 'GET', url: `${back.pathname}${back.search}`, as: cookies.admin });
    expect(new URL(String(noCookie.headers.location), 'http://x').searchParams.get('integrationError')).toContain(
      'could not be verified',
    );
    expect((await integration('facebook-ads'))?.status).toBe('Disconnected');
  });

  it('refuses a state past its 10 minutes, and accepts one just within them', async () => {
    const attempt = async (minutes: number) => {
      const start = await t.request({ method: 'GET', url: '/api/facebook/ads-auth', as: cookies.admin });
      const authorized = await fetch(String(start.headers.location), { redirect: 'manual' });
      const back = new URL(String(authorized.headers.get('location')));
      t.clock.advance(minutes * 60_000);
      const res = await t.request({
        method: 'GET',
        url: `${back.pathname}${back.search}`,
        as: `${cookies.admin}; ${stateCookie(start)}`,
      });
      return String(res.headers.location);
    };
    oauth.claimEmail(null);
    expect(await attempt(10)).toContain('integrationError=');
    expect(await attempt(9.99)).toBe('/settings?connected=facebook-ads');
    // A grant without an email claim names no account.
    expect(await integration('facebook-ads')).toMatchObject({ status: 'Connected', account: null });
  });

  it("passes on the provider's refusal in a sentence", async () => {
    const res = await t.request({
      method: 'GET',
      url: '/api/google/gmail-auth/callback?error=access_denied&error_description=The+user+said+no',
      as: cookies.admin,
    });
    expect(new URL(String(res.headers.location), 'http://x').searchParams.get('integrationError')).toBe(
      'Gmail was not connected: The user said no.',
    );
  });

  it('lets only admins connect, list or disconnect', async () => {
    for (const role of ['buyer', 'source'] as const) {
      for (const url of ['/api/google/ads-auth', '/api/google/ads-auth/callback', '/api/setting/allForCat/integration'])
        expect((await t.request({ method: 'GET', url, as: cookies[role] })).statusCode).toBe(403);
      expect(
        (await t.request({ method: 'DELETE', url: '/api/setting/integration/google-ads', as: cookies[role] }))
          .statusCode,
      ).toBe(403);
    }
    expect((await t.request({ method: 'GET', url: '/api/google/ads-auth' })).statusCode).toBe(401);
  });
});

describe('keeping an integration connected', () => {
  // Each test follows one integration through time: the others are disconnected first.
  beforeEach(async () => {
    for (const name of INTEGRATION_NAMES) await t.deps.services.integrations.disconnect(name);
  });

  it('refreshes a token within 15 minutes of its expiry, not before', async () => {
    t.clock.set('2026-11-03T12:00:00Z');
    await connectIntegration(t, cookies.admin, 'google-ads');
    const first = await t.deps.services.integrations.stored('google-ads');
    const expiresAt = Number(first.expiresAt);
    t.clock.set(new Date(expiresAt - REFRESH_AHEAD_MS - 1000));
    expect((await t.deps.services.integrations.refreshDue()).refreshed).toEqual([]);
    t.clock.set(new Date(expiresAt - REFRESH_AHEAD_MS + 1000));
    const exchangesBefore = oauth.exchanges.length;
    expect((await t.deps.services.integrations.refreshDue()).refreshed).toEqual(['google-ads']);
    const refresh = oauth.exchanges[exchangesBefore];
    expect(refresh?.request.grant_type).toBe('refresh_token');
    const after = await t.deps.services.integrations.stored('google-ads');
    expect(after.expiresAt).toBe(t.clock.now().getTime() + 3600_000);
    expect((await t.deps.services.integrations.accessToken('google-ads'))?.token).toBe(refresh?.body.access_token);
  });

  it('a refused refresh kills the refresh token; once the access token expires the integration is Expired and the admins are told once', async () => {
    t.clock.set('2026-11-04T12:00:00Z');
    await connectIntegration(t, cookies.admin, 'google-ads');
    const { expiresAt } = await t.deps.services.integrations.stored('google-ads');
    oauth.nextTokenResponse((response) => {
      response.statusCode = 400;
      response.body = { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' };
    });
    t.clock.set(new Date(Number(expiresAt) - 60_000));
    expect(await t.deps.services.integrations.refreshDue()).toEqual({ refreshed: [], expired: [] });
    // Still usable for its last minute.
    expect(await integration('google-ads')).toMatchObject({ status: 'Connected' });
    t.clock.set(new Date(Number(expiresAt) - 1));
    expect((await integration('google-ads'))?.status).toBe('Connected');
    t.clock.set(new Date(Number(expiresAt)));
    expect((await integration('google-ads'))?.status).toBe('Expired');
    expect(await t.deps.services.integrations.accessToken('google-ads')).toBeNull();
    expect((await t.deps.services.integrations.refreshDue()).expired).toEqual(['google-ads']);
    expect((await t.deps.services.integrations.refreshDue()).expired).toEqual([]);
    const texts = await messageTexts();
    expect(texts.filter((m) => m === 'The Google Ads integration has expired. Reconnect it in Settings.')).toHaveLength(
      1,
    );
    const [message] = (await t.database.db.select().from(messages)).filter((m) => m.text.includes('Google Ads'));
    expect(message?.data).toEqual({ kind: 'integration_expired', integration: 'google-ads', link: '/settings' });
    // Reconnecting makes it Connected again, and a later expiry is told again.
    expect((await connectIntegration(t, cookies.admin, 'google-ads')).headers.location).toBe(
      '/settings?connected=google-ads',
    );
    expect((await integration('google-ads'))?.status).toBe('Connected');
    expect((await t.deps.services.integrations.stored('google-ads')).expiredNotifiedAt).toBeNull();
  });

  it('disconnects: the tokens are gone, the chosen source stays', async () => {
    await connectIntegration(t, cookies.admin, 'facebook-ads');
    const res = await t.request({ method: 'DELETE', url: '/api/setting/integration/facebook-ads', as: cookies.admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'Disconnected', accessToken: null, account: null });
    const stored = await storedValue('facebook-ads');
    expect(stored?.accessToken).toBeNull();
    expect(stored?.refreshToken).toBeNull();
    expect(
      (await t.request({ method: 'DELETE', url: '/api/setting/integration/nope', as: cookies.admin })).statusCode,
    ).toBe(400);
  });
});

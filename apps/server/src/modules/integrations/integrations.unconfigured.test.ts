import { describe, expect, it } from 'vitest';
import { useRoleCookies, useTestApp } from '../../../test/harness';

/** Issue 14: without a client id the integration says it is not configured and which variables to set. */
const t = useTestApp();
const cookies = useRoleCookies(t);

describe('an integration without its provider configured', () => {
  it('lists as not configured, naming the variables', async () => {
    const res = await t.request({ method: 'GET', url: '/api/setting/allForCat/integration', as: cookies.admin });
    expect(res.json()).toEqual([
      expect.objectContaining({
        name: 'facebook-ads',
        status: 'Disconnected',
        configured: false,
        missingVariables: ['FACEBOOK_OAUTH_CLIENT_ID', 'FACEBOOK_OAUTH_CLIENT_SECRET'],
        authPath: '/api/facebook/ads-auth',
      }),
      expect.objectContaining({ name: 'google-ads', configured: false }),
      expect.objectContaining({ name: 'gmail', configured: false, kind: 'Mail' }),
    ]);
  });

  it('sends Connect back to Settings with the sentence instead of to a provider', async () => {
    const res = await t.request({ method: 'GET', url: '/api/google/gmail-auth', as: cookies.admin });
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location), 'http://x');
    expect(location.pathname).toBe('/settings');
    expect(location.searchParams.get('integration')).toBe('gmail');
    expect(location.searchParams.get('integrationError')).toBe(
      'Gmail is not configured: set GOOGLE_OAUTH_CLIENT_ID and GOOGLE_OAUTH_CLIENT_SECRET on the server.',
    );
  });
});

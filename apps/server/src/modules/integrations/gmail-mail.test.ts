import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../test/fixtures';
import { useRoleCookies, useTestApp } from '../../../test/harness';
import { connectIntegration, useOAuthServer } from '../../../test/oauth-server';
import { listenSmtp } from '../../../test/receivers';
import { outbox } from '../../db/schema';
import { REFRESH_AHEAD_MS } from './integrations.service';

interface Delivered {
  user: string | null;
  token: string | null;
  from: string;
  to: string[];
}

/**
 * A local SMTP server. As Gmail's it takes only XOAUTH2 and accepts the tokens `accept` lets through;
 * as SMTP_URL's it takes mail without authentication.
 */
async function startSmtp(xoauth2: boolean) {
  const delivered: Delivered[] = [];
  const accepted = new Set<string>();
  const server = await listenSmtp(
    ({ to, raw }, session) => {
      const user = session.user as unknown as { name: string; token: string } | undefined;
      delivered.push({
        user: user?.name ?? null,
        token: user?.token ?? null,
        from: /^From: (.*)$/m.exec(raw)?.[1]?.trim() ?? '',
        to,
      });
    },
    {
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: !xoauth2,
      authMethods: xoauth2 ? ['XOAUTH2'] : ['PLAIN'],
      onAuth(auth, _session, callback) {
        if (auth.method === 'XOAUTH2' && auth.accessToken && accepted.has(auth.accessToken))
          return callback(null, { user: { name: auth.username, token: auth.accessToken } });
        return callback(null, { data: { status: '401', schemes: 'bearer' } });
      },
    },
  );
  return { ...server, delivered, accept: (token: string) => accepted.add(token) };
}

/** Issue 14: a connected Gmail account sends the exchange's mail (XOAUTH2) instead of SMTP_URL. */
const oauth = useOAuthServer();
const gmail = useFixture(
  () => startSmtp(true),
  (s) => s.close(),
);
const smtp = useFixture(
  () => startSmtp(false),
  (s) => s.close(),
);
const t = useTestApp(() => ({
  ...oauth.config(),
  GMAIL_SMTP_URL: gmail.url,
  SMTP_URL: smtp.url,
  MAIL_FROM: 'Leadex <no-reply@leadex.local>',
}));
const cookies = useRoleCookies(t);

const send = (subject: string) => t.deps.mailer.send({ to: 'buyer@example.com', subject, text: 'Hello' });
const outboxRow = async (id: string) => (await t.database.db.select().from(outbox).where(eq(outbox.id, id)))[0];

describe('mail through the Gmail integration', () => {
  it('goes through SMTP_URL while Gmail is not connected', async () => {
    const row = await send('Before Gmail');
    expect(row.status).toBe('sent');
    expect(smtp.delivered.at(-1)).toMatchObject({ from: 'Leadex <no-reply@leadex.local>', to: ['buyer@example.com'] });
    expect(gmail.delivered).toHaveLength(0);
  });

  it('goes through Gmail as the connected account, authenticated by its access token', async () => {
    t.clock.set('2026-11-10T12:00:00Z');
    oauth.claimEmail('mailer@leadex.example');
    expect((await connectIntegration(t, cookies.admin, 'gmail')).headers.location).toBe('/settings?connected=gmail');
    const token = String(oauth.exchanges.at(-1)?.body.access_token);
    gmail.accept(token);
    const before = smtp.delivered.length;
    const row = await send('Through Gmail');
    expect(row.status).toBe('sent');
    expect(gmail.delivered.at(-1)).toEqual({
      user: 'mailer@leadex.example',
      token,
      from: 'Leadex <mailer@leadex.example>',
      to: ['buyer@example.com'],
    });
    expect(smtp.delivered).toHaveLength(before);
  });

  it('refreshes a token about to expire before it sends, and sends with the new one', async () => {
    const { expiresAt } = await t.deps.services.integrations.stored('gmail');
    t.clock.set(new Date(Number(expiresAt) - REFRESH_AHEAD_MS + 60_000));
    oauth.nextTokenResponse((response) => {
      response.body.access_token = 'refreshed-gmail-token';
    });
    gmail.accept('refreshed-gmail-token');
    const exchanges = oauth.exchanges.length;
    expect((await send('After a refresh')).status).toBe('sent');
    expect(oauth.exchanges[exchanges]?.request.grant_type).toBe('refresh_token');
    expect(gmail.delivered.at(-1)?.token).toBe('refreshed-gmail-token');
  });

  it('keeps a mail Gmail refuses, failed with the reason', async () => {
    oauth.nextTokenResponse((response) => {
      response.body.access_token = 'a-token-gmail-refuses';
    });
    const { expiresAt } = await t.deps.services.integrations.stored('gmail');
    t.clock.set(new Date(Number(expiresAt) - REFRESH_AHEAD_MS + 60_000));
    const row = await send('Refused');
    expect(row.status).toBe('failed');
    expect((await outboxRow(row.id))?.error).toMatch(/535|Invalid login|auth/i);
  });

  it('goes back to SMTP_URL once Gmail is disconnected', async () => {
    await t.request({ method: 'DELETE', url: '/api/setting/integration/gmail', as: cookies.admin });
    const count = gmail.delivered.length;
    expect((await send('After Gmail')).status).toBe('sent');
    expect(gmail.delivered).toHaveLength(count);
    expect(smtp.delivered.at(-1)?.from).toBe('Leadex <no-reply@leadex.local>');
  });
});

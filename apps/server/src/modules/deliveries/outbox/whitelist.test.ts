import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../../test/fixtures';
import { useAdminTestApp } from '../../../../test/harness';
import { startSmtpReceiver } from '../../../../test/receivers';
import { createMailer } from './mailer';
import { createWhitelist, NOT_WHITELISTED } from './whitelist';

/**
 * DESIGN.md §11 Simulator: outside production, once a whitelist is saved, mail and texts go only to
 * it; the others are kept in the outbox marked not whitelisted. Mail goes to a real local SMTP server.
 */
const smtp = useFixture(startSmtpReceiver, (s) => s.close());
const { t, admin } = useAdminTestApp();

const mailerWith = (production: boolean) =>
  createMailer({
    db: t.database.db,
    clock: t.clock,
    smtpUrl: smtp.url,
    from: 'Leadex <no-reply@leadex.test>',
    whitelist: createWhitelist(t.database.db, production),
  });

const saveWhitelist = (email: string[], phone: string[]) =>
  t.request({ method: 'POST', url: '/api/sim/whitelist', as: admin.cookie, payload: { email, phone } });

describe('the whitelist', () => {
  it('lets everything go before one is saved; then mail only to it, the rest kept as not whitelisted', async () => {
    const mailer = mailerWith(false);
    expect((await mailer.send({ to: 'anyone@example.com', subject: 'Before', text: 'x' })).status).toBe('sent');

    expect((await saveWhitelist(['QA@leadex.test'], ['(512) 555-0100'])).statusCode).toBe(200);
    const allowed = await mailer.send({ to: 'qa@leadex.test', subject: 'Allowed', text: 'x' });
    expect(allowed.status).toBe('sent');
    const kept = await mailer.send({ to: 'buyer@real.example', subject: 'Kept', text: 'Not sent' });
    expect(kept).toMatchObject({ status: NOT_WHITELISTED, to: 'buyer@real.example', subject: 'Kept' });
    expect(smtp.mails.map((m) => m.to[0])).toEqual(['anyone@example.com', 'qa@leadex.test']);

    // In production the whitelist does nothing.
    expect((await mailerWith(true).send({ to: 'buyer@real.example', subject: 'Prod', text: 'x' })).status).toBe('sent');
  });

  it('matches phone numbers by their last 10 digits, whatever the punctuation', async () => {
    expect((await saveWhitelist(['qa@leadex.test'], ['(512) 555-0100'])).statusCode).toBe(200);
    const whitelist = createWhitelist(t.database.db, false);
    expect(await whitelist.allows('sms', '+1 512-555-0100')).toBe(true);
    expect(await whitelist.allows('sms', '5125550101')).toBe(false);
    expect(await createWhitelist(t.database.db, true).allows('sms', '5125550101')).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { useFixture } from '../../../../test/fixtures';
import { createTestApp, useTestApp } from '../../../../test/harness';
import { startSmtpReceiver } from '../../../../test/receivers';
import { createMailer } from './mailer';

const smtp = useFixture(startSmtpReceiver, (s) => s.close());
const t = useTestApp();
/** A mailer of the test app's outbox that sends through the SMTP server at `smtpUrl`. */
const mailerTo = (smtpUrl: string, from: string) => createMailer({ db: t.database.db, clock: t.clock, smtpUrl, from });

describe('mailer', () => {
  it('delivers over SMTP and keeps the message in the outbox as sent', async () => {
    const mailer = mailerTo(smtp.url, 'Leadex <no-reply@leadex.test>');
    const row = await mailer.send({ to: 'jo@example.com', subject: 'Hello', text: 'A line of text' });
    expect(row.status).toBe('sent');
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]?.to).toEqual(['jo@example.com']);
    expect(smtp.mails[0]?.raw).toContain('A line of text');
  });

  it('keeps a message the SMTP server did not take, with the reason', async () => {
    // A server that has stopped: nothing listens on its port any more.
    const stopped = await startSmtpReceiver();
    await stopped.close();
    const mailer = mailerTo(stopped.url, 'x@leadex.test');
    const row = await mailer.send({ to: 'lost@example.com', subject: 'Kept', text: 'Not lost' });
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/ECONNREFUSED|connect/i);
  });

  it('sends the welcome email through the configured SMTP server', async () => {
    const withSmtp = await createTestApp({ SMTP_URL: smtp.url });
    try {
      const admin = await withSmtp.signIn('admin@test.leadex', 'admin-password-1');
      const created = await withSmtp.request({
        method: 'POST',
        url: '/api/buyer',
        as: admin,
        payload: {
          username: 'smtp-buyer',
          name: 'SMTP Solar',
          email: 'smtp@solar.example',
          phone: '5550103000',
          bill: { pay: 'auto' },
        },
      });
      const buyer = created.json();
      const res = await withSmtp.request({
        method: 'PUT',
        url: `/api/buyer/${buyer._id}/welcome/${buyer.users[0]._id}`,
        as: admin,
      });
      expect(res.statusCode).toBe(200);
      const mail = smtp.mails.find((m) => m.to.includes('smtp@solar.example'));
      expect(mail?.raw).toMatch(/reset-password\?token=/);
    } finally {
      await withSmtp.close();
    }
  });
});

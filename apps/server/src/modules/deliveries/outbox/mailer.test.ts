import { createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/harness';
import { createMailer } from './mailer';

interface Received {
  to: string[];
  raw: string;
}

/** A real SMTP server on a free local port that keeps what it receives. */
async function startSmtp(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
      });
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('mailer', () => {
  it('delivers over SMTP and keeps the message in the outbox as sent', async () => {
    const mailer = createMailer({
      db: t.database.db,
      clock: t.clock,
      smtpUrl: smtp.url,
      from: 'Leadex <no-reply@leadex.test>',
    });
    const row = await mailer.send({ to: 'jo@example.com', subject: 'Hello', text: 'A line of text' });
    expect(row.status).toBe('sent');
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.to).toEqual(['jo@example.com']);
    expect(smtp.received[0]?.raw).toContain('A line of text');
  });

  it('keeps a message the SMTP server did not take, with the reason', async () => {
    const mailer = createMailer({
      db: t.database.db,
      clock: t.clock,
      smtpUrl: `smtp://127.0.0.1:${await closedPort()}`,
      from: 'x@leadex.test',
    });
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
      const mail = smtp.received.find((m) => m.to.includes('smtp@solar.example'));
      expect(mail?.raw).toMatch(/reset-password\?token=/);
    } finally {
      await withSmtp.close();
    }
  });
});

import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../../../db/client';
import type { Clock } from '../../../lib/clock';
import { newId } from '../../../lib/ids';
import { NOT_WHITELISTED, type Whitelist } from '../../sim/whitelist';
import { type OutboxRow, outboxRepo } from './outbox.repo';

export interface Email {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends mail over SMTP when `SMTP_URL` is set. Every message is kept in the outbox, so nothing is lost. */
export interface Mailer {
  send(email: Email): Promise<OutboxRow>;
}

export interface MailerOptions {
  db: Db;
  clock: Clock;
  smtpUrl?: string;
  from: string;
  /** Outside production: mail to other addresses is kept back (DESIGN.md §11 Simulator). */
  whitelist?: Whitelist;
}

export function createMailer({ db, clock, smtpUrl, from, whitelist }: MailerOptions): Mailer {
  const transport: Transporter | null = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  return {
    async send(email) {
      const base = {
        id: newId('out'),
        channel: 'email',
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html ?? null,
        createdAt: clock.now(),
      };
      if (whitelist && !(await whitelist.allows('email', email.to)))
        return outboxRepo.insert(db, { ...base, status: NOT_WHITELISTED });
      if (!transport) return outboxRepo.insert(db, { ...base, status: 'pending' });
      try {
        await transport.sendMail({ from, ...email });
        return outboxRepo.insert(db, { ...base, status: 'sent', sentAt: clock.now() });
      } catch (error) {
        // Kept as failed with the reason, so an admin sees it and nothing is silently dropped.
        return outboxRepo.insert(db, { ...base, status: 'failed', error: (error as Error).message.slice(0, 500) });
      }
    },
  };
}

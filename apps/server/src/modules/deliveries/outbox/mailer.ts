import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../../../db/client';
import type { Clock } from '../../../lib/clock';
import { newId } from '../../../lib/ids';
import { type OutboxRow, outboxRepo } from './outbox.repo';
import { NOT_WHITELISTED, type Whitelist } from './whitelist';

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
  /** The Gmail integration: while it has a usable token, mail goes through Gmail's SMTP by XOAUTH2. */
  gmail?: {
    smtpUrl: string;
    credentials: () => Promise<{ token: string; account: string | null } | null>;
  };
}

/** Gmail sends as the connected account: the display name of MAIL_FROM, the account's address. */
function fromAccount(from: string, account: string): string {
  const name = /^\s*(.*?)\s*<[^>]*>\s*$/.exec(from)?.[1];
  return name ? `${name} <${account}>` : account;
}

/** A transport for one message through Gmail's SMTP, authenticated by the integration's access token. */
function gmailTransport(smtpUrl: string, user: string, accessToken: string): Transporter {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port) || (secure ? 465 : 587),
    secure,
    auth: { type: 'OAuth2', user, accessToken },
  });
}

export function createMailer({ db, clock, smtpUrl, from, whitelist, gmail }: MailerOptions): Mailer {
  const smtp: Transporter | null = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;

  /** Gmail when connected (and its token usable), else SMTP_URL, else none (the outbox keeps the mail). */
  async function route(): Promise<{ transport: Transporter; from: string } | null> {
    const credentials = gmail ? await gmail.credentials() : null;
    if (gmail && credentials?.account)
      return {
        transport: gmailTransport(gmail.smtpUrl, credentials.account, credentials.token),
        from: fromAccount(from, credentials.account),
      };
    return smtp ? { transport: smtp, from } : null;
  }

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
      let via: Awaited<ReturnType<typeof route>> = null;
      try {
        via = await route();
      } catch (error) {
        // A Gmail token that cannot be refreshed now: the mail is kept, failed, with the reason.
        return outboxRepo.insert(db, { ...base, status: 'failed', error: (error as Error).message.slice(0, 500) });
      }
      if (!via) return outboxRepo.insert(db, { ...base, status: 'pending' });
      try {
        await via.transport.sendMail({ from: via.from, ...email });
        return outboxRepo.insert(db, { ...base, status: 'sent', sentAt: clock.now() });
      } catch (error) {
        // Kept as failed with the reason, so an admin sees it and nothing is silently dropped.
        return outboxRepo.insert(db, { ...base, status: 'failed', error: (error as Error).message.slice(0, 500) });
      }
    },
  };
}

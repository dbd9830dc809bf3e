import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, inject } from 'vitest';

/** A message the local SMTP server of global-setup.ts received. */
export interface ReceivedMail {
  to: string[];
  /** The message as sent over SMTP (headers and body, quoted-printable where nodemailer chose it). */
  raw: string;
}

/** Every message received so far, oldest first. */
export function receivedMails(): ReceivedMail[] {
  const dir = inject('mailDir');
  return readdirSync(dir)
    .sort((a, b) => Number(a.split('-')[0]) - Number(b.split('-')[0]) || a.localeCompare(b))
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as ReceivedMail);
}

/** A message's text, with quoted-printable soft breaks and escapes undone. */
export function mailText(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** Waits for a message to `to` whose text matches `pattern`; answers the first match of the newest one. */
export async function waitForMail(to: string, pattern: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(() => {
      const mails = receivedMails().filter((m) => m.to.includes(to));
      for (const mail of mails.reverse()) {
        found = pattern.exec(mailText(mail.raw))?.[0];
        if (found) return true;
      }
      return false;
    })
    .toBe(true);
  return found as string;
}

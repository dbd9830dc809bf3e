import { z } from 'zod';
import { sha256Hex } from '../lib/secrets';

/**
 * A US phone number under the North American Numbering Plan: area code and exchange each start
 * with 2-9 (NXX NXX XXXX). A 0 or 1 there is never a real subscriber number (1 is the trunk
 * prefix, 0 the operator), so it marks a typo or filler like 111-111-1111 that a buyer's dialer
 * would fail on.
 */
const NANP_NUMBER = /^[2-9]\d{2}[2-9]\d{6}$/;

/** A phone as 10 NANP digits: digits only, a leading country code 1 dropped; null when not a valid US number. */
export function normalizePhone(raw: string): string | null {
  const digits = raw.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return NANP_NUMBER.test(national) ? national : null;
}

/** The email check of the rest of the app (zod), so a lead and a user form agree on what an address is. */
const emailSchema = z.email();
/** RFC 5321's limit on a whole address. */
const MAX_EMAIL_LENGTH = 254;

/**
 * An email trimmed and lower-cased, or null when it is not an address. Lower-cased whole
 * (mailbox names are case-insensitive in practice), so duplicate hashes match however a
 * consumer typed it; provider tricks (Gmail dots, +tags) are left alone, being provider-specific.
 */
export function normalizeEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  if (email.length === 0 || email.length > MAX_EMAIL_LENGTH) return null;
  return emailSchema.safeParse(email).success ? email : null;
}

const ZIP = /^(\d{5})(?:-\d{4})?$/;

/** A 5-digit ZIP (ZIP+4 `12345-6789` gives `12345`); null when malformed. */
export function normalizeZip(raw: string): string | null {
  return ZIP.exec(raw.trim())?.[1] ?? null;
}

const TRUE_WORDS = new Set(['true', 'yes', '1', 'on']);
const FALSE_WORDS = new Set(['false', 'no', '0', 'off']);

/**
 * A boolean field as sources send it (JSON, form or XML): true/false, 'true'/'false', 'yes'/'no',
 * '1'/'0', 1/0, 'on'/'off', any case. undefined when not sent (undefined, null, '' or blanks);
 * null when sent but not a boolean, which the API answers with a 400 naming the field.
 * JSON null counts as not sent: integrations send null for "unknown", and a missing consent
 * field is recorded, not refused (DESIGN.md §4).
 */
export function parseBoolean(raw: unknown): boolean | null | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'number') return raw === 1 ? true : raw === 0 ? false : null;
  if (typeof raw !== 'string') return null;
  const word = raw.trim().toLowerCase();
  if (word === '') return undefined;
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return null;
}

/** The duplicate hash of a phone: SHA-256 hex of its 10 normalised digits; null when not a valid number. */
export function phoneHash(raw: string): string | null {
  const phone = normalizePhone(raw);
  return phone === null ? null : sha256Hex(phone);
}

/** The duplicate hash of an email: SHA-256 hex of the trimmed, lower-cased address; null when not an address. */
export function emailHash(raw: string): string | null {
  const email = normalizeEmail(raw);
  return email === null ? null : sha256Hex(email);
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A `phone_hash` / `email_hash` sent with a ping: 64 hex digits, lower-cased; null when malformed. */
export function normalizeSha256Hex(raw: string): string | null {
  const hex = raw.trim().toLowerCase();
  return SHA256_HEX.test(hex) ? hex : null;
}

export { sha256Hex };

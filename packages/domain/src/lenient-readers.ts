import { z } from 'zod';

// The lenient readers of a lead's fields (issue 32 item 4), shared by the source API's built-in
// fields and the services' own fields (issue 33): moved here from apps/server/src/distribution/normalize.ts.

/**
 * A US phone number under the North American Numbering Plan: area code and exchange each start
 * with 2-9 (NXX NXX XXXX). A 0 or 1 there is never a real subscriber number (1 is the trunk
 * prefix, 0 the operator), so it marks a typo or filler like 111-111-1111 that a buyer's dialer
 * would fail on.
 */
const NANP_NUMBER = /^[2-9]\d{2}[2-9]\d{6}$/;

/**
 * A trailing extension as sources write it (`x44`, `ext. 44`, `extension 44`, `#44`, LeadConduit's
 * normal form `5127891111x44`), and a trailing line type hint LeadConduit strips (`(h)`, `w`, `(c)`, `m`).
 */
const PHONE_EXTENSION = /\s*(?:x|ext\.?|extension|#)\s*(\d{1,6})?\s*$/i;
const PHONE_TYPE_HINT = /\s*\(?[hwcm]\)?\s*$/i;
/** What a number may be written with besides digits: spaces, dots, dashes, parentheses, a leading +. */
const PHONE_PUNCTUATION = /[\s().+-]/g;
const DIGITS_ONLY = /^\d+$/;

/** A phone read from what a source sent: its 10 digits and, kept apart, an extension. */
export type PhoneReading = { phone: string; extension?: string } | { problem: string };

/**
 * Reads a US phone as sources write it: punctuation and a leading country code 1 dropped, an
 * extension kept apart from the 10 digits (a dangling `x` dropped). A number that is not a NANP number reads as a problem.
 */
export function readPhone(raw: string): PhoneReading {
  let text = raw.trim();
  const extension = PHONE_EXTENSION.exec(text);
  if (extension) text = text.slice(0, extension.index);
  else text = text.replace(PHONE_TYPE_HINT, '');
  const digits = text.replace(PHONE_PUNCTUATION, '');
  if (!DIGITS_ONLY.test(digits)) return { problem: 'it is not a phone number' };
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (national.length !== 10) return { problem: 'a US phone number has 10 digits' };
  if (!NANP_NUMBER.test(national)) return { problem: 'it is not a valid US phone number' };
  return extension?.[1] ? { phone: national, extension: extension[1] } : { phone: national };
}

/** A phone as 10 NANP digits: punctuation, a leading country code 1 and an extension dropped; null when not a valid US number. */
export function normalizePhone(raw: string): string | null {
  const reading = readPhone(raw);
  return 'phone' in reading ? reading.phone : null;
}

/** The email check of the rest of the app (zod), so a lead and a user form agree on what an address is. */
const emailSchema = z.email();
/** RFC 5321's limit on a whole address. */
const MAX_EMAIL_LENGTH = 254;
/** `Jane Doe <jane@example.com>` (RFC 5322's name-addr), and a `mailto:` link. */
const NAME_ADDR = /^[^<>]*<\s*([^<>]*?)\s*>\s*$/;
const MAILTO = /^mailto:/i;

/**
 * An email trimmed and lower-cased, or null when it is not an address. Lower-cased whole
 * (mailbox names are case-insensitive in practice), so duplicate hashes match however a
 * consumer typed it; provider tricks (Gmail dots, +tags) are left alone, being provider-specific.
 * `Name <addr>` and `mailto:addr` give the address.
 */
export function normalizeEmail(raw: string): string | null {
  let email = raw.trim();
  const angled = NAME_ADDR.exec(email);
  if (angled) email = angled[1] ?? '';
  email = email.replace(MAILTO, '').toLowerCase();
  if (email.length === 0 || email.length > MAX_EMAIL_LENGTH) return null;
  return emailSchema.safeParse(email).success ? email : null;
}

/** ZIP+4 however it is written: `78701-1234`, `78701 1234`, `787011234`, `78701 - 1234`, and a dangling `78701-`. */
const ZIP = /^(\d{5})(?:\s*-?\s*\d{4}|\s*-)?$/;

/** A 5-digit ZIP (ZIP+4 in any of its spellings gives the 5 digits); null when malformed. */
export function normalizeZip(raw: string): string | null {
  return ZIP.exec(raw.trim())?.[1] ?? null;
}

/** Words of yes and no, compared without the punctuation around them (`Yes.`, ` Y `, `"T"`). */
const TRUE_WORDS = new Set(['true', 'yes', 'y', 't', '1', 'on']);
const FALSE_WORDS = new Set(['false', 'no', 'n', 'f', '0', 'off']);
/** Punctuation and blanks at either end; a sign is kept, so `-1` is not read as `1`. */
const SURROUNDING_PUNCTUATION = /^[\s.,;:!?'"()[\]]+|[\s.,;:!?'"()[\]]+$/g;

/**
 * A boolean field as sources send it (JSON, form or XML): true/false, yes/no, y/n, t/f, 1/0, on/off,
 * any case, with punctuation ignored (`Yes.`). undefined when not sent (undefined, null, '' or blanks);
 * null when sent but not a boolean (the source API flags it on an optional field).
 * JSON null counts as not sent: integrations send null for "unknown", and a missing consent
 * field is recorded, not refused (DESIGN.md §4).
 */
export function parseBoolean(raw: unknown): boolean | null | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'number') return raw === 1 ? true : raw === 0 ? false : null;
  if (typeof raw !== 'string') return null;
  if (raw.trim() === '') return undefined;
  const word = raw.toLowerCase().replace(SURROUNDING_PUNCTUATION, '');
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return null;
}

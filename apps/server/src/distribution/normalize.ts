import { z } from 'zod';
import { sha256Hex } from '../lib/secrets';

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

/** 555-0100 to 555-0199: the exchange's numbers reserved for fiction (NANPA), never a consumer's. */
const FICTIONAL_555 = /^\d{3}5550[1]\d{2}$/;
/** One digit ten times over (555-555-5555, 222-222-2222): typed to get past a form. */
const ONE_DIGIT_REPEATED = /^(\d)\1{9}$/;

/**
 * Why a valid-looking number is filler no consumer answers (the fictional 555-01xx, one digit
 * repeated), or null for a number that may be real.
 */
export function fillerPhoneProblem(phone: string): string | null {
  if (FICTIONAL_555.test(phone)) return '555-0100 to 555-0199 are reserved for fiction, not a consumer’s number';
  if (ONE_DIGIT_REPEATED.test(phone)) return 'it is one digit repeated, not a consumer’s number';
  return null;
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

/** The states' names, DC's and the territories', by their lower-cased name. */
const STATE_NAMES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    alabama: 'AL',
    alaska: 'AK',
    arizona: 'AZ',
    arkansas: 'AR',
    california: 'CA',
    colorado: 'CO',
    connecticut: 'CT',
    delaware: 'DE',
    'district of columbia': 'DC',
    // The territories with US ZIP codes (the ZIP table may place a lead there); dots read as spaces.
    'puerto rico': 'PR',
    'u s virgin islands': 'VI',
    'us virgin islands': 'VI',
    'virgin islands': 'VI',
    guam: 'GU',
    'american samoa': 'AS',
    'northern mariana islands': 'MP',
    florida: 'FL',
    georgia: 'GA',
    hawaii: 'HI',
    idaho: 'ID',
    illinois: 'IL',
    indiana: 'IN',
    iowa: 'IA',
    kansas: 'KS',
    kentucky: 'KY',
    louisiana: 'LA',
    maine: 'ME',
    maryland: 'MD',
    massachusetts: 'MA',
    michigan: 'MI',
    minnesota: 'MN',
    mississippi: 'MS',
    missouri: 'MO',
    montana: 'MT',
    nebraska: 'NE',
    nevada: 'NV',
    'new hampshire': 'NH',
    'new jersey': 'NJ',
    'new mexico': 'NM',
    'new york': 'NY',
    'north carolina': 'NC',
    'north dakota': 'ND',
    ohio: 'OH',
    oklahoma: 'OK',
    oregon: 'OR',
    pennsylvania: 'PA',
    'rhode island': 'RI',
    'south carolina': 'SC',
    'south dakota': 'SD',
    tennessee: 'TN',
    texas: 'TX',
    utah: 'UT',
    vermont: 'VT',
    virginia: 'VA',
    washington: 'WA',
    'west virginia': 'WV',
    wisconsin: 'WI',
    wyoming: 'WY',
  }),
);
const STATE_CODES: ReadonlySet<string> = new Set(STATE_NAMES.values());
/** Dots and runs of spaces in a state as typed (`N.Y.`, `New  York`). */
const STATE_NOISE = /[.\s]+/g;

/**
 * A US state's 2-letter code from its code or its name, any case (`tx`, `T.X.`, `Texas`, `new york`);
 * DC and the territories too (`PR`, `Puerto Rico`); null for anything else (a province, a typo).
 */
export function normalizeState(raw: string): string | null {
  const text = raw.trim().toLowerCase();
  const code = text.replace(STATE_NOISE, '').toUpperCase();
  if (code.length === 2) return STATE_CODES.has(code) ? code : null;
  return STATE_NAMES.get(text.replace(STATE_NOISE, ' ').trim()) ?? null;
}

/**
 * The state a lead is routed and delivered with: the ZIP's when the ZIP table knows it, else the one
 * sent. A sent state the ZIP contradicts is kept in a flag, with the ZIP's state said in its problem.
 */
export function stateOfLead(
  sent: { code: string | null; raw: string } | undefined,
  zip: string,
  zipState: string | null,
): { state: string | null; flag?: { field: 'state'; value: string; problem: string } } {
  if (!zipState) return { state: sent?.code ?? null };
  if (!sent?.code || sent.code === zipState) return { state: zipState };
  return {
    state: zipState,
    flag: {
      field: 'state',
      value: sent.raw,
      problem: `${sent.raw} does not match ZIP ${zip}, which is in ${zipState}: the lead is routed and delivered as ${zipState}.`,
    },
  };
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

import { z } from 'zod';
import { pageQuery } from './common';

/**
 * California's Delete Request and Opt-out Platform (DROP, the Delete Act, Civ. Code 1798.99.86; issue 35
 * item 3): a data broker fetches the consumers' deletion requests as SHA-256 hashes of normalised
 * identifiers at least every 45 days, and deletes whom they match. The rules below are the one place
 * they are kept; the database's `leadex_drop_*` functions (migrations 0039, 0040) apply the same (a test holds
 * them together). docs/compliance.md says which version of the specification they follow.
 */
export const DROP_SPEC = {
  /** What the rules were taken from (docs/compliance.md, "California's deletion lists"). */
  version:
    'CPPA DROP technical documentation 1.2.0 (2026-07-02), "Working with the data", hashing; Leadex rules v2 (2026-11-28)',
  /** Days between two runs at most (Civ. Code 1798.99.86). */
  maxDaysBetweenRuns: 45,
  /** The first day a data broker had to process the lists. */
  firstDue: '2026-08-01',
} as const;

/** The identifiers DROP matches on. */
export const DROP_KINDS = ['email', 'phone', 'name_dob_zip'] as const;
export type DropKind = (typeof DROP_KINDS)[number];

/**
 * Email: every whitespace removed, then lower-cased; dots, plus signs and every other character kept
 * (the CPPA's rule). Null without an `@` after its first character: not an email (Leadex's own guard,
 * so a lead's "n/a" is never hashed).
 */
export function dropEmail(raw: string | null | undefined): string | null {
  const v = (raw ?? '').replace(/\s/g, '');
  return v.indexOf('@') > 0 ? v.toLowerCase() : null;
}

/** Phone: digits only, then the last 10 digits, or all of them when fewer remain; null without a digit. */
export function dropPhone(raw: string | null | undefined): string | null {
  const d = (raw ?? '').replace(/[^0-9]/g, '');
  return d === '' ? null : d.slice(-10);
}

/**
 * Greek and Cyrillic letters (lower case) to Latin, letter by letter. The CPPA names no table ("supported
 * Greek and Cyrillic characters"); this one gives its example (Иван -> ivan), and is Leadex's choice:
 * docs/compliance.md. Accented Greek vowels are listed as such (their accent dropped).
 */
const GREEK_CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'yo',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  є: 'ye',
  і: 'i',
  ї: 'yi',
  ґ: 'g',
  ў: 'u',
  ђ: 'dj',
  ј: 'j',
  љ: 'lj',
  њ: 'nj',
  ћ: 'c',
  џ: 'dz',
  ѓ: 'gj',
  ќ: 'kj',
  ѕ: 'dz',
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
  ά: 'a',
  έ: 'e',
  ή: 'i',
  ί: 'i',
  ό: 'o',
  ύ: 'y',
  ώ: 'o',
  ϊ: 'i',
  ϋ: 'y',
  ΐ: 'i',
  ΰ: 'y',
};

/** Latin letters with no decomposition to a plain letter (the others lose their accents by NFD). */
const LATIN_SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ħ: 'h',
  ŋ: 'n',
  ı: 'i',
  ŧ: 't',
  ĸ: 'k',
  ƀ: 'b',
  ƒ: 'f',
  ȥ: 'z',
  ɍ: 'r',
  ɇ: 'e',
  ɉ: 'j',
  ƶ: 'z',
  ƚ: 'l',
  ȼ: 'c',
};

/** Whether a character is one of the Latin blocks folded to ASCII (Latin-1 to Extended-B, Extended Additional). */
const isFoldedLatin = (cp: number) => (cp >= 0xc0 && cp <= 0x24f) || (cp >= 0x1e00 && cp <= 0x1eff);

/**
 * A first or last name as the CPPA standardises it: Unicode normalised (NFKC), lower-cased, Greek and
 * Cyrillic transliterated, Latin folded to plain ASCII where it can be (é -> e, ß -> ss), then only
 * letters and digits kept (any script's: 田中 stays 田中). "Juan Pablo" -> "juanpablo".
 */
export function dropName(raw: string | null | undefined): string {
  let out = '';
  for (const ch of (raw ?? '').normalize('NFKC').toLowerCase()) {
    const cp = ch.codePointAt(0) ?? 0;
    const greekCyrillic = GREEK_CYRILLIC[ch];
    if (greekCyrillic !== undefined) out += greekCyrillic;
    else if (LATIN_SPECIAL[ch] !== undefined) out += LATIN_SPECIAL[ch];
    else if (isFoldedLatin(cp))
      for (const base of ch.normalize('NFD').replace(/\p{M}/gu, '')) out += LATIN_SPECIAL[base] ?? base;
    else out += ch;
  }
  return out.replace(/[^\p{L}\p{Nd}]/gu, '');
}

/** English month names and their abbreviations ("sept" too), January first. */
const MONTHS = [
  ['january', 'jan'],
  ['february', 'feb'],
  ['march', 'mar'],
  ['april', 'apr'],
  ['may', 'may'],
  ['june', 'jun'],
  ['july', 'jul'],
  ['august', 'aug'],
  ['september', 'sep', 'sept'],
  ['october', 'oct'],
  ['november', 'nov'],
  ['december', 'dec'],
] as const;

/** Days in a month of a year (the Gregorian calendar's leap years). */
function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** YYYYMMDD of a year, month and day, or null when there is no such day (1985-02-30, year 0). */
function yyyymmdd(y: string, m: number, d: number): string | null {
  if (Number(y) < 1 || m < 1 || m > 12 || d < 1 || d > daysIn(Number(y), m)) return null;
  return `${y}${String(m).padStart(2, '0')}${String(d).padStart(2, '0')}`;
}

/**
 * A date of birth as YYYYMMDD (the CPPA's format), from YYYY-MM-DD (a time after it ignored), YYYYMMDD,
 * M/D/YYYY (US order) or a month's English name: "July 4, 1776", "Jul 4 1776"; null otherwise, or when
 * there is no such day.
 */
export function dropDob(raw: string | null | undefined): string | null {
  const t = (raw ?? '').trim().toLowerCase();
  const ymd = /^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[t ].*)?$/.exec(t) ?? /^([0-9]{4})([0-9]{2})([0-9]{2})$/.exec(t);
  if (ymd?.[1] && ymd[2] && ymd[3]) return yyyymmdd(ymd[1], Number(ymd[2]), Number(ymd[3]));
  const us = /^([0-9]{1,2})\/([0-9]{1,2})\/([0-9]{4})$/.exec(t);
  if (us?.[1] && us[2] && us[3]) return yyyymmdd(us[3], Number(us[1]), Number(us[2]));
  const named = /^([a-z]+)\.? ([0-9]{1,2}),? ([0-9]{4})$/.exec(t);
  if (named?.[1] && named[2] && named[3]) {
    const month = MONTHS.findIndex((names) => (names as readonly string[]).includes(named[1] ?? ''));
    return yyyymmdd(named[3], month + 1, Number(named[2]));
  }
  return null;
}

/**
 * A ZIP code as the CPPA standardises it: a ZIP+4's +4 dropped, then alphanumerics only, lower-cased,
 * leading zeros removed, the first five characters ("02134" -> "2134", "M1B 1A1" -> "m1b1a"); null
 * when nothing is left.
 */
export function dropZip(raw: string | null | undefined): string | null {
  const t = (raw ?? '').trim();
  const plus4 = /^([0-9]{5})[- ]?[0-9]{4}$/.exec(t);
  const v = (plus4?.[1] ?? t)
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase()
    .replace(/^0+/, '')
    .slice(0, 5);
  return v === '' ? null : v;
}

/**
 * The NDZ list's four standardised parts, in the CPPA's order: first name, last name, date of birth,
 * ZIP; null when any is missing. Without first and last names, the first and last words of the full
 * name (Leadex's choice: DROP asks the consumer for each). Each part is hashed (SHA-256, Base64), the
 * four Base64 hashes are joined with nothing between them and hashed again: `dropNdzPreimage`.
 */
export function dropNameDobZip(p: {
  firstName?: string | null;
  lastName?: string | null;
  name?: string | null;
  dob?: string | null;
  zip?: string | null;
}): [first: string, last: string, dob: string, zip: string] | null {
  let first = dropName(p.firstName);
  let last = dropName(p.lastName);
  if (!first || !last) {
    const words = (p.name ?? '').trim().split(/\s+/).filter(Boolean);
    if (words.length >= 2) {
      first = dropName(words[0]);
      last = dropName(words[words.length - 1]);
    }
  }
  const dob = dropDob(p.dob);
  const zip = dropZip(p.zip);
  return first && last && dob && zip ? [first, last, dob, zip] : null;
}

/**
 * The text whose SHA-256 is the NDZ hash: the SHA-256 (Base64) of each part, in order, run together.
 * `sha256Base64` is the caller's (the domain has no hashing of its own).
 */
export function dropNdzPreimage(parts: readonly string[], sha256Base64: (text: string) => string): string {
  return parts.map(sha256Base64).join('');
}

/** A deletion-list hash: 64 hexadecimal digits (SHA-256), read in either case, kept lower-cased. */
export const DROP_HASH = /^[0-9a-f]{64}$/;

const DROP_BASE64 = /^[A-Za-z0-9+/]{43}=$/;

/**
 * A hash cell of a deletion-list file as Leadex keeps it (64 lower-case hex digits), or null. DROP's own
 * files carry the SHA-256 in Base64, 44 characters ending in `=` (the CPPA's technical documentation 1.2.0,
 * "Working with the data", hashing); a list made by hand may carry it in hex.
 */
export function dropHashOfCell(cell: string): string | null {
  const text = cell.trim();
  if (DROP_HASH.test(text.toLowerCase())) return text.toLowerCase();
  if (!DROP_BASE64.test(text)) return null;
  const bytes = atob(text);
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += bytes.charCodeAt(i).toString(16).padStart(2, '0');
  return hex;
}

/** One run of a deletion list, as the Deletion lists screen shows it. */
export const dropRunSchema = z.object({
  _id: z.string(),
  /** Epoch seconds. */
  ts: z.number(),
  origin: z.enum(['upload', 'directory']),
  file: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  /** Hashes read from the file. */
  entries: z.number().int(),
  /** Lines that held no hash. */
  invalid: z.number().int(),
  /** Leads whose hashes were on the list. */
  matched: z.number().int(),
  /** Leads erased (as an erasure on request). */
  erased: z.number().int(),
  /** Leads refused since the run because a listed person posted again. */
  refused_since: z.number().int(),
  error: z.string().optional(),
  user: z.string().optional(),
});
export type DropRun = z.infer<typeof dropRunSchema>;

export const dropRunsQuery = pageQuery(25);

/** The deletion lists' status: the last run and whether the 45 days have passed without one. */
export const dropStatusSchema = z.object({
  /** Epoch seconds of the last finished run; null: never run. */
  last_run_ts: z.number().nullable(),
  /** Days since the last run (or since the obligation began, never run). */
  days_since: z.number().int(),
  overdue: z.boolean(),
  /** The directory the daily job reads deletion lists from; null: none set. */
  directory: z.string().nullable(),
  message: z.string().nullable(),
});
export type DropStatus = z.infer<typeof dropStatusSchema>;

/** PUT /api/compliance/deletion-lists/directory: an absolute path, or null to stop the daily job reading. */
export const dropDirectorySchema = z.object({
  directory: z
    .string({ error: 'Directory must be a path' })
    .trim()
    .max(500, 'Directory must be at most 500 characters')
    .refine((v) => v.startsWith('/'), 'Directory must be an absolute path (starting with /)')
    .nullable(),
});
export type DropDirectory = z.infer<typeof dropDirectorySchema>;

/** POST /api/compliance/deletion-lists/upload?file=…: the file's name, for the run's record. */
export const dropUploadQuery = z.object({
  file: z.string().trim().min(1).max(200).default('upload.csv'),
});

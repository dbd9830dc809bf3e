import { z } from 'zod';
import { pageQuery } from './common';

/**
 * California's Delete Request and Opt-out Platform (DROP, the Delete Act, Civ. Code 1798.99.86; issue 35
 * item 3): a data broker fetches the consumers' deletion requests as SHA-256 hashes of normalised
 * identifiers at least every 45 days, and deletes whom they match. The rules below are the one place
 * they are kept; the database's `leadex_drop_*` functions (migration 0039) apply the same (a test holds
 * them together). docs/compliance.md says which version of the specification they follow.
 */
export const DROP_SPEC = {
  /** What the rules were taken from (docs/compliance.md, "California's deletion lists"). */
  version: 'CPPA DROP technical documentation 1.2.0 (2026-07-02), as read for Leadex rules v1 (2026-11-27)',
  /** Days between two runs at most (Civ. Code 1798.99.86). */
  maxDaysBetweenRuns: 45,
  /** The first day a data broker had to process the lists. */
  firstDue: '2026-08-01',
} as const;

/** The identifiers DROP matches on. */
export const DROP_KINDS = ['email', 'phone', 'name_dob_zip'] as const;
export type DropKind = (typeof DROP_KINDS)[number];

/** Email: trimmed and lower-cased; null without an `@` after its first character. */
export function dropEmail(raw: string | null | undefined): string | null {
  const v = (raw ?? '').trim();
  return v.indexOf('@') > 0 ? v.toLowerCase() : null;
}

/** Phone: the 10 digits of a US number (a leading country code 1 dropped); null otherwise. */
export function dropPhone(raw: string | null | undefined): string | null {
  const d = (raw ?? '').replace(/[^0-9]/g, '');
  if (/^1[0-9]{10}$/.test(d)) return d.slice(1);
  return /^[0-9]{10}$/.test(d) ? d : null;
}

const ACCENTED = 'àáâãäåāèéêëēìíîïīòóôõöøōùúûüūýÿñç';
const PLAIN = 'aaaaaaaeeeeeiiiiiooooooouuuuuyync';

/** A name: lower case, the common Latin accents dropped (é to e), every character but a-z removed. */
export function dropName(raw: string | null | undefined): string {
  let out = '';
  for (const ch of (raw ?? '').toLowerCase()) {
    const i = ACCENTED.indexOf(ch);
    out += i >= 0 ? PLAIN[i] : ch;
  }
  return out.replace(/[^a-z]/g, '');
}

/** A date of birth as YYYYMMDD, from YYYY-MM-DD or M/D/YYYY; null otherwise. */
export function dropDob(raw: string | null | undefined): string | null {
  const t = (raw ?? '').trim();
  if (/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(t)) return t.replace(/-/g, '');
  const us = /^([0-9]{1,2})\/([0-9]{1,2})\/([0-9]{4})$/.exec(t);
  return us ? `${us[3]}${us[1]?.padStart(2, '0')}${us[2]?.padStart(2, '0')}` : null;
}

/**
 * Name + date of birth + ZIP: first name, last name, YYYYMMDD and the 5-digit ZIP run together
 * ("mariagarcia1985020394110"); the first and last words of the full name when first and last names
 * are not sent; null when any part is missing.
 */
export function dropNameDobZip(p: {
  firstName?: string | null;
  lastName?: string | null;
  name?: string | null;
  dob?: string | null;
  zip?: string | null;
}): string | null {
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
  const zip = /^([0-9]{5})/.exec((p.zip ?? '').trim())?.[1];
  return first && last && dob && zip ? `${first}${last}${dob}${zip}` : null;
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

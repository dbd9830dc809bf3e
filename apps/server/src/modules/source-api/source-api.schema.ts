import type { LeadFieldFlag } from '@leadex/domain';
import { z } from 'zod';
import {
  fillerPhoneProblem,
  normalizeEmail,
  normalizeSha256Hex,
  normalizeState,
  normalizeZip,
  parseBoolean,
  readPhone,
} from '../../distribution/normalize';

/** Form and XML bodies carry every value as text; these accept both text and JSON types. */
const text = (max = 500) =>
  z.preprocess(
    (v) => (v === null || v === '' ? undefined : typeof v === 'number' ? String(v) : v),
    z.string().trim().max(max).optional(),
  );

const zip = z.preprocess(
  (v) => (typeof v === 'number' ? String(v).padStart(5, '0') : v),
  z.string({ error: 'zip is required' }).transform((raw, ctx) => {
    const zip = normalizeZip(raw);
    if (!zip) ctx.addIssue({ code: 'custom', message: 'zip must be a 5-digit ZIP code' });
    return zip ?? '';
  }),
);

const flag = (field: string) =>
  z
    .unknown()
    .optional()
    .transform((raw, ctx) => {
      const value = parseBoolean(raw);
      if (value === null) ctx.addIssue({ code: 'custom', message: `${field} must be true or false` });
      return value ?? undefined;
    });

/** Optional text that `normalize` turns into its one spelling; a value it refuses is an error saying `message`. */
const normalizedText = (max: number, normalize: (raw: string) => string | null, message: string) =>
  text(max).transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    const value = normalize(raw);
    if (!value) ctx.addIssue({ code: 'custom', message });
    return value ?? undefined;
  });

const hash = (field: string) => normalizedText(128, normalizeSha256Hex, `${field} must be a SHA-256 hex digest`);

const money = (field: string) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: `${field} must be a number` })
      .min(0, `${field} must be at least 0`)
      .max(5000, `${field} must be at most 5000`)
      .optional(),
  );

/** A TrustedForm ping URL: no personal data, so it may travel in pings; checked (and flagged) by evidence.ts. */
const pingUrl = text(1000).describe(
  'TrustedForm ping URL (https://ping.trustedform.com/…): sent on to Ping/Post buyers at the ping, kept with the lead at the post',
);

/** What a ping says about a lead, without contact data (DESIGN.md §4). */
const pingFields = {
  service: z
    .string({ error: 'service is required' })
    .trim()
    .toLowerCase()
    .min(1, 'service is required')
    .describe('One of the exchange’s services (GET /api/services lists them)'),
  zip: zip.describe('5-digit ZIP code (ZIP+4 is cut to 5 digits)'),
  test: flag('test').describe('true: a test ping; never counts toward caps, never sells'),
  channel: text(100).describe('Your traffic channel (its own payout may apply)'),
  sub_id: text(200),
  pub_id: text(200),
  campaign: text(100).describe('A Branded Id: only that buyer campaign is considered'),
  minprice: money('minprice').describe('Dollars; below it the answer is no_match'),
  phone_hash: hash('phone_hash').describe('SHA-256 hex of the 10-digit phone, to catch duplicates at the ping'),
  email_hash: hash('email_hash').describe('SHA-256 hex of the trimmed, lower-cased email'),
  trusted_form_ping_url: pingUrl,
};

export const pingSchema = z.object(pingFields);
export type PingInput = z.infer<typeof pingSchema>;

/** The longest value a flag keeps of what was sent (the rest is cut): a flag says what was wrong, it is no archive. */
const MAX_FLAGGED_VALUE = 200;

/**
 * A lenient field's value as sent, as text: blanks and null are not sent; numbers and booleans read
 * as text; objects and arrays as JSON, so they are flagged, never refused.
 */
const sentValue = z
  .unknown()
  .optional()
  .transform((v): string | undefined => {
    if (v === undefined || v === null) return undefined;
    const text = typeof v === 'string' ? v.trim() : typeof v === 'object' ? (JSON.stringify(v) ?? '') : String(v);
    return text === '' ? undefined : text;
  });

/**
 * Contact and consent fields of a post or direct lead. Missing consent is recorded, never refused; the
 * optional fields read leniently (issue 32 item 4): phone, email, state, homeowner and tcpa_consent are
 * taken as sent and read by `readContact`, which flags what it cannot read instead of refusing the lead.
 */
const contactFields = {
  name: text(200).describe('The consumer’s name (or first_name and last_name); required at the post'),
  first_name: text(100),
  last_name: text(100),
  phone: sentValue.describe(
    '10-digit US phone; punctuation and a leading 1 are dropped, an extension (`x44`) is kept apart in metadata.phone_extension. A phone or an email is required',
  ),
  email: sentValue.describe('Email address (`Name <address>` gives the address)'),
  address: text(300),
  city: text(100),
  state: sentValue.describe(
    'US state, its code or its name; the ZIP’s state is used when absent or when the two disagree (flagged)',
  ),
  homeowner: sentValue.describe('Whether the consumer owns the home (true/false, yes/no, Y/N, T/F, 1/0)'),
  tcpa_consent: sentValue.describe('Consent to be contacted; missing consent is recorded, not refused'),
  tcpa_language: text(5000).describe('The consent text the consumer agreed to'),
  trusted_form: text(500).describe(
    'TrustedForm certificate URL: https://cert.trustedform.com/ and a certificate id; anything else is kept out of the lead and flagged',
  ),
  jornaya: text(200).describe(
    'Jornaya LeadiD token (XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX); anything else is kept out of the lead and flagged',
  ),
  ip: text(64),
  user_agent: text(1000),
  page_url: text(2000).describe('The web page where the consumer gave consent: kept in the lead’s consent evidence'),
  consent_snapshot: text(100_000).describe(
    'The consent page as the consumer saw it (its text or HTML): kept in the lead’s consent evidence, hashed with it',
  ),
  sub_id: text(200),
  pub_id: text(200),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Any JSON object, kept with the lead'),
};

type SentContact = z.infer<z.ZodObject<typeof contactFields>>;

/** A flag of `field`: what was sent (cut to MAX_FLAGGED_VALUE) and why the lead does without it. */
const flagOf = (field: string, value: string, problem: string): LeadFieldFlag => ({
  field,
  value: value.slice(0, MAX_FLAGGED_VALUE),
  problem,
});

/**
 * The phone as sent: its 10 digits and extension, or why it cannot be a consumer's number (`problem`,
 * for a flag) and the 400's message when it is the only contact.
 */
function phoneOf(sent: string): { phone: string; extension?: string } | { problem: string; message: string } {
  const reading = readPhone(sent);
  if (!('phone' in reading)) return { problem: reading.problem, message: 'phone must be a 10-digit US phone number' };
  const filler = fillerPhoneProblem(reading.phone);
  return filler ? { problem: filler, message: `phone must be a consumer’s number: ${filler}` } : reading;
}

/**
 * Reads the lenient fields of a post or direct lead (the rest were read by their own schemas). A
 * post needs a name and a phone or an email (DESIGN.md §4): the contact the buyer pays for. When the
 * only contact sent cannot be read, that field is refused with a 400 naming it; anything else that
 * cannot be read is dropped from the lead and flagged, with the value as sent.
 */
function readContact<T extends SentContact>(lead: T, ctx: z.RefinementCtx) {
  const flags: LeadFieldFlag[] = [];
  const phone = lead.phone === undefined ? undefined : phoneOf(lead.phone);
  const email = lead.email === undefined ? undefined : normalizeEmail(lead.email);
  const phoneRead = phone && 'phone' in phone ? phone : undefined;
  if (!lead.name && !lead.first_name && !lead.last_name)
    ctx.addIssue({ code: 'custom', path: ['name'], message: 'name is required' });
  if (!phoneRead && !email) {
    if (phone && 'problem' in phone) ctx.addIssue({ code: 'custom', path: ['phone'], message: phone.message });
    if (lead.email !== undefined)
      ctx.addIssue({ code: 'custom', path: ['email'], message: 'email must be a valid email address' });
    if (!phone && lead.email === undefined)
      ctx.addIssue({ code: 'custom', path: ['phone'], message: 'phone or email is required' });
    return z.NEVER;
  }
  if (phone && 'problem' in phone && lead.phone !== undefined)
    flags.push(flagOf('phone', lead.phone, `Could not be read: ${phone.problem}. The lead was kept without a phone.`));
  if (lead.email !== undefined && !email)
    flags.push(
      flagOf('email', lead.email, 'Could not be read: it is not an email address. The lead was kept without an email.'),
    );
  const state = lead.state === undefined ? undefined : normalizeState(lead.state);
  if (lead.state !== undefined && !state)
    flags.push(
      flagOf(
        'state',
        lead.state,
        'Could not be read: it is not a US state. The ZIP’s state is used where the exchange knows it.',
      ),
    );
  const yesNo = (field: 'homeowner' | 'tcpa_consent') => {
    const sent = lead[field];
    const value = parseBoolean(sent);
    if (sent !== undefined && value === null)
      flags.push(
        flagOf(field, sent, 'Could not be read: it is neither a yes nor a no. The lead records it as unknown.'),
      );
    return value ?? undefined;
  };
  const homeowner = yesNo('homeowner');
  const tcpaConsent = yesNo('tcpa_consent');
  const extension = phoneRead?.extension;
  return {
    ...lead,
    phone: phoneRead?.phone,
    email: email ?? undefined,
    state: state ?? undefined,
    /** The state as sent, for the flag when it contradicts the ZIP. */
    state_sent: lead.state,
    homeowner,
    tcpa_consent: tcpaConsent,
    metadata: extension ? { ...lead.metadata, phone_extension: extension } : lead.metadata,
    flags,
  };
}

/** Each flag as the answer's `warnings` say it: the field, what was sent, and the problem. */
export const flagWarning = (flag: LeadFieldFlag) => `${flag.field} “${flag.value}”: ${flag.problem}`;

export const postSchema = z
  .object({
    ping_id: z.string({ error: 'ping_id is required' }).trim().min(1, 'ping_id is required'),
    test: flag('test'),
    trusted_form_ping_url: pingUrl,
    ...contactFields,
  })
  .transform(readContact);
export type PostInput = z.infer<typeof postSchema>;

export const leadSchema = z.object({ ...pingFields, ...contactFields }).transform(readContact);
export type LeadInput = z.infer<typeof leadSchema>;

/** The field names a body schema reads: its object's keys, also behind a transform (post and lead read the contact). */
export function fieldNamesOf(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodPipe) return fieldNamesOf(schema.in as z.ZodType);
  return [];
}

export type ContactInput = Pick<PostInput, keyof typeof contactFields | 'flags' | 'state_sent'>;

import { z } from 'zod';
import {
  normalizeEmail,
  normalizePhone,
  normalizeSha256Hex,
  normalizeZip,
  parseBoolean,
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

/** Contact and consent fields of a post or direct lead. Missing consent is recorded, never refused. */
const contactFields = {
  name: text(200).describe('The consumer’s name (or first_name and last_name); required at the post'),
  first_name: text(100),
  last_name: text(100),
  phone: normalizedText(40, normalizePhone, 'phone must be a 10-digit US phone number').describe(
    '10-digit US phone; punctuation and a leading 1 are dropped. A phone or an email is required',
  ),
  email: normalizedText(254, normalizeEmail, 'email must be a valid email address').describe('Email address'),
  address: text(300),
  city: text(100),
  state: text(2),
  homeowner: flag('homeowner').describe('Whether the consumer owns the home'),
  tcpa_consent: flag('tcpa_consent').describe('Consent to be contacted; missing consent is recorded, not refused'),
  tcpa_language: text(5000).describe('The consent text the consumer agreed to'),
  trusted_form: text(500).describe(
    'TrustedForm certificate URL: https://cert.trustedform.com/ and a certificate id; anything else is kept out of the lead and flagged',
  ),
  jornaya: text(200).describe(
    'Jornaya LeadiD token (XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX); anything else is kept out of the lead and flagged',
  ),
  ip: text(64),
  user_agent: text(1000),
  sub_id: text(200),
  pub_id: text(200),
  metadata: z.record(z.string(), z.unknown()).optional().describe('Any JSON object, kept with the lead'),
};

/** A post needs a name and a phone or an email (DESIGN.md §4). */
function requireContact<
  T extends { name?: string; first_name?: string; last_name?: string; phone?: string; email?: string },
>(lead: T, ctx: z.RefinementCtx) {
  if (!lead.name && !lead.first_name && !lead.last_name)
    ctx.addIssue({ code: 'custom', path: ['name'], message: 'name is required' });
  if (!lead.phone && !lead.email)
    ctx.addIssue({ code: 'custom', path: ['phone'], message: 'phone or email is required' });
}

export const postSchema = z
  .object({
    ping_id: z.string({ error: 'ping_id is required' }).trim().min(1, 'ping_id is required'),
    test: flag('test'),
    trusted_form_ping_url: pingUrl,
    ...contactFields,
  })
  .superRefine(requireContact);
export type PostInput = z.infer<typeof postSchema>;

export const leadSchema = z.object({ ...pingFields, ...contactFields }).superRefine(requireContact);
export type LeadInput = z.infer<typeof leadSchema>;

export type ContactInput = Pick<PostInput, keyof typeof contactFields>;

import { z } from 'zod';

/** What a suppression list holds (issue 34 item 1). */
export const SUPPRESSION_KINDS = ['phone', 'email', 'zip'] as const;
export type SuppressionKind = (typeof SUPPRESSION_KINDS)[number];

/** What a list is for. `opt_outs` is the exchange's own list of revoked consents and erasures. */
export const SUPPRESSION_PURPOSES = ['do_not_contact', 'litigators', 'customers', 'opt_outs', 'other'] as const;
export type SuppressionPurpose = (typeof SUPPRESSION_PURPOSES)[number];

/** How an entry came in. */
export const SUPPRESSION_SOURCES = ['manual', 'api', 'csv', 'opt_out', 'erasure', 'deletion_list'] as const;
export type SuppressionSource = (typeof SUPPRESSION_SOURCES)[number];

/** How a consumer revoked consent (issue 34 item 2): any reasonable means counts (FCC, April 2025). */
export const OPT_OUT_METHODS = ['text_stop', 'call', 'email', 'web_form', 'other'] as const;
export type OptOutMethod = (typeof OPT_OUT_METHODS)[number];

/** Limits of the suppression API. */
export const SUPPRESSION_LIMITS = {
  /** Entries added by one JSON request; more go by CSV upload. */
  entriesPerRequest: 10_000,
  /** A CSV upload's size, in bytes (a million phones with a header is about 12 MB). */
  uploadBytes: 200 * 1024 * 1024,
  /** Opt-outs tell every buyer that bought the consumer within these years. */
  notifyYears: 5,
  /** An opt-out record is kept this many years (Virginia: a texted STOP binds 10 years). */
  retainYears: 10,
} as const;

const name = z.string().trim().min(1, 'Name is required').max(100, 'Name is at most 100 characters');

export const suppressionListCreateSchema = z.object({
  name,
  kind: z.enum(SUPPRESSION_KINDS, { message: 'Kind must be phone, email or zip' }),
  purpose: z.enum(SUPPRESSION_PURPOSES).exclude(['opt_outs']).default('do_not_contact'),
  /** The buyer the list removes; left out for a global list (admin), the caller's own for a buyer. */
  buyer: z.string().min(1).nullable().optional(),
});
export type SuppressionListCreate = z.infer<typeof suppressionListCreateSchema>;

export const suppressionListUpdateSchema = z.object({
  name: name.optional(),
  purpose: z.enum(SUPPRESSION_PURPOSES).exclude(['opt_outs']).optional(),
});
export type SuppressionListUpdate = z.infer<typeof suppressionListUpdateSchema>;

export const suppressionListSchema = z.object({
  _id: z.string(),
  name: z.string(),
  kind: z.enum(SUPPRESSION_KINDS),
  purpose: z.enum(SUPPRESSION_PURPOSES),
  /** null: global (every buyer). */
  buyer: z.string().nullable(),
  buyer_name: z.string().nullable().optional(),
  system: z.boolean(),
  entries: z.number().int(),
  created: z.string(),
  updated: z.string(),
});
export type SuppressionList = z.infer<typeof suppressionListSchema>;

export const suppressionEntriesAddSchema = z.object({
  values: z
    .array(z.string().max(320))
    .min(1, 'Give at least one value')
    .max(SUPPRESSION_LIMITS.entriesPerRequest, `At most ${SUPPRESSION_LIMITS.entriesPerRequest} values a request`),
  reason: z.string().trim().max(200).optional(),
});
export type SuppressionEntriesAdd = z.infer<typeof suppressionEntriesAddSchema>;

export const suppressionValueSchema = z.object({ value: z.string().min(1, 'Value is required').max(320) });

/** What adding entries did: rows read, added, already there, and the lines that are not a value of the list's kind. */
export const suppressionImportResultSchema = z.object({
  read: z.number().int(),
  added: z.number().int(),
  already: z.number().int(),
  invalid: z.number().int(),
  /** The first invalid lines (1-based, the header counted), for the person to fix. */
  invalid_lines: z.array(z.object({ line: z.number().int(), value: z.string() })),
  entries: z.number().int(),
});
export type SuppressionImportResult = z.infer<typeof suppressionImportResultSchema>;

export const suppressionCheckResultSchema = z.object({ value: z.string(), listed: z.boolean() });

export const optOutCreateSchema = z
  .object({
    phone: z.string().trim().max(40).optional(),
    email: z.string().trim().max(320).optional(),
    method: z.enum(OPT_OUT_METHODS, { message: 'Method must be text_stop, call, email, web_form or other' }),
    /** When the consumer revoked consent (ISO 8601); now when left out. */
    revoked_at: z.iso.datetime({ offset: true, message: 'revoked_at must be an ISO 8601 date and time' }).optional(),
    note: z.string().trim().max(500).optional(),
  })
  .refine((o) => Boolean(o.phone || o.email), { message: 'Give a phone or an email', path: ['phone'] });
export type OptOutCreate = z.infer<typeof optOutCreateSchema>;

export const optOutSchema = z.object({
  _id: z.string(),
  kind: z.enum(['phone', 'email']),
  contact: z.string(),
  method: z.enum(OPT_OUT_METHODS),
  revoked_at: z.string(),
  recorded: z.string(),
  recorded_by: z.string(),
  note: z.string().nullable(),
  notified_buyers: z.number().int(),
  retain_until: z.string(),
});
export type OptOut = z.infer<typeof optOutSchema>;

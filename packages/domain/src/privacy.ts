import { z } from 'zod';
import { isoDate, leadRowSchema, namedRefSchema, pageQuery, refSchema, wholeNumber } from './common';
import { emailInput, phoneInput } from './lead';
import { whenMissing } from './messages';

/** What the access log records (issue 35 item 5). */
export const ACCESS_ACTIONS = [
  'lead.view',
  'lead.list',
  'lead.export',
  'erasure.search',
  'erasure',
  'retention',
  'evidence.read',
] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

/** Each action in words, as the Access log screen shows it. */
export const ACCESS_ACTION_LABELS: Record<AccessAction, string> = {
  'lead.view': 'Lead viewed',
  'lead.list': 'Leads list',
  'lead.export': 'Leads exported (CSV)',
  'erasure.search': 'Erasure search',
  erasure: 'Erasure',
  retention: 'Retention erasure',
  'evidence.read': 'Sealed evidence read',
};

/** Rows per page of the Access log and the Erasure requests lists. */
export const COMPLIANCE_PAGE_SIZE = 25;

/** A day of the filter, within the exchange's date bounds like every date field (9999 would overflow). */
const day = (label: string) => isoDate(label).optional();

const optionalFilter = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().max(max).optional(),
  );

/** The access log's filter (GET /api/compliance/access-log and its export): dates are the exchange's days. */
const accessLogFilterFields = {
  /** A user's name or email contains this. */
  user: optionalFilter(200),
  action: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(ACCESS_ACTIONS, { error: `Action must be one of ${ACCESS_ACTIONS.join(', ')}` }).optional(),
  ),
  /** From this day, inclusive. */
  begin: day('Begin'),
  /** To this day, inclusive. */
  end: day('End'),
  /** Entries naming this lead. */
  lead: optionalFilter(100),
};
const beginBeforeEnd = (f: { begin?: string; end?: string }) => !f.begin || !f.end || f.begin <= f.end;
const endAfterBegin = { message: 'End must be on or after Begin', path: ['end'] };

export const accessLogFilterSchema = z.object(accessLogFilterFields).refine(beginBeforeEnd, endAfterBegin);
export type AccessLogFilter = z.infer<typeof accessLogFilterSchema>;

export const accessLogQuery = pageQuery(COMPLIANCE_PAGE_SIZE)
  .extend(accessLogFilterFields)
  .refine(beginBeforeEnd, endAfterBegin);
export type AccessLogQuery = z.infer<typeof accessLogQuery>;

/** One entry of the access log. */
export const accessLogEntrySchema = z.object({
  _id: z.string(),
  /** Epoch seconds. */
  ts: z.number(),
  user: z.object({ _id: z.string(), name: z.string().optional(), email: z.string().optional() }).optional(),
  role: z.string(),
  action: z.enum(ACCESS_ACTIONS),
  lead_ids: z.array(z.string()),
  detail: z.record(z.string(), z.unknown()).optional(),
  address: z.string().optional(),
});
export type AccessLogEntry = z.infer<typeof accessLogEntrySchema>;

/** The contact an erasure looks for: an email or a phone (exactly one). */
export const erasureContactSchema = z
  .object({ email: emailInput, phone: phoneInput })
  .refine((c) => Boolean(c.email) !== Boolean(c.phone), {
    message: 'Enter an email or a phone (one of them)',
    path: ['email'],
  });
export type ErasureContact = z.infer<typeof erasureContactSchema>;

/** POST /api/compliance/erasure: the contact, and who asked. */
export const erasureRequestSchema = z
  .object({
    email: emailInput,
    phone: phoneInput,
    requested_by: z
      .string({ error: whenMissing('Requested by is required') })
      .trim()
      .min(1, 'Requested by is required')
      .max(200, 'Requested by must be at most 200 characters'),
  })
  .refine((c) => Boolean(c.email) !== Boolean(c.phone), {
    message: 'Enter an email or a phone (one of them)',
    path: ['email'],
  });
export type ErasureRequest = z.infer<typeof erasureRequestSchema>;

/** Rows an erasure overwrites, by kind (the preview's counts and the request record's). */
export const erasureCountsSchema = z.record(z.string(), z.number().int());

/** A lead as the erasure preview lists it. */
export const erasureLeadSchema = leadRowSchema.extend({
  source: namedRefSchema,
  /** The buyers that received it. */
  buyers: z.array(z.string()),
});

/** A buyer told of an erasure: its channels (what the notice goes to). */
export const erasureBuyerSchema = z.object({
  _id: z.string(),
  name: z.string(),
  targets: z.array(z.object({ channel: z.string(), target: z.string() })),
});

/** POST /api/compliance/erasure/search: what an erasure of this contact would overwrite. */
export const erasurePreviewSchema = z.object({
  leads: z.array(erasureLeadSchema),
  counts: erasureCountsSchema,
  buyers: z.array(erasureBuyerSchema),
});
export type ErasurePreview = z.infer<typeof erasurePreviewSchema>;

/** A request record (never the erased data). */
export const erasureRecordSchema = z.object({
  _id: z.string(),
  kind: z.enum(['request', 'retention', 'deletion_list']),
  requested_by: z.string(),
  erased_by: refSchema.optional(),
  matched_on: z.enum(['email', 'phone']).optional(),
  counts: erasureCountsSchema,
  lead_ids: z.array(z.string()),
  buyers: z.array(namedRefSchema),
  notices: z.array(
    z.object({
      buyer: z.string(),
      channel: z.string(),
      target: z.string(),
      status: z.string(),
      error: z.string().optional(),
    }),
  ),
  ts: z.number(),
});
export type ErasureRecord = z.infer<typeof erasureRecordSchema>;

export const erasureListQuery = pageQuery(COMPLIANCE_PAGE_SIZE);

/** The retention setting: days after which leads' personal fields are erased; null: off (the default). */
export const retentionSchema = z.object({
  lead_days: wholeNumber('Days', 1, 36_500).nullable(),
});
export type Retention = z.infer<typeof retentionSchema>;

import { z } from 'zod';
import { valuesOf } from './choices';
import { isoDate, namedRefSchema, optionalText, pageQuery, refSchema, tagList, usState } from './common';
import { PAGE_SIZE } from './constants';
import { type CountedPage, countedPageSchema } from './errors';
import { jornayaToken, trustedFormCertificateUrl } from './evidence';
import { whenMissing } from './messages';
import { leadFieldsSchema, SERVICE_FIELD_KEY } from './service-fields';
import { BID_OUTCOMES, pingAnswerFields } from './webhook';

// The leads lists, the lead detail and the CSV export (DESIGN.md §11 "Leads lists"; admin spec §2
// Leads list and Lead detail; portals spec §2 buyer and source leads).

/** The date ranges of the leads lists, in the order the selector shows them (`dateq`). */
export const LEAD_DATE_RANGE_LABELS = {
  today: 'Today',
  last30d: 'Last 30 Days',
  mtd: 'This Month',
  ytd: 'This Year',
  range: 'Custom',
};
export const LEAD_DATE_RANGES = valuesOf(LEAD_DATE_RANGE_LABELS);
export type LeadDateRange = (typeof LEAD_DATE_RANGES)[number];

/** A list counts its rows exactly up to this; beyond, it says "10,000+" (DESIGN.md §11). */
export const LEADS_COUNT_LIMIT = 10_000;

/**
 * A name search counts its rows exactly up to this, then says "1,000+" (docs/decisions.md): every lead
 * holding the letters must be read to count it, and nobody pages through a thousand leads of one name.
 */
export const LEADS_NAME_COUNT_LIMIT = 1_000;

/** Most field filters a leads list takes at once (issue 33). */
export const MAX_LEAD_FIELD_FILTERS = 5;

/** `buyer=none`: the leads nobody bought (admin list, "No Buyer"). */
export const NO_BUYER = 'none';

const leadFilterFields = {
  begin: isoDate('Begin', 'Begin is required for a custom range').optional(),
  end: isoDate('End', 'End is required for a custom range').optional(),
  name: optionalText(200),
  /** A buyer id, or `none` for the leads nobody bought (admins only). */
  buyer: optionalText(100),
  service: optionalText(100),
  zip: optionalText(5),
  /**
   * Filters on the services' own fields (issue 33 item 5): `key:value`, repeatable, all of which must
   * hold. The value is read as the field's type reads a source's (`$120` for money, `yes` for a boolean).
   */
  field: z.preprocess(
    (v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]),
    z
      .array(
        z
          .string()
          .trim()
          .max(300, 'A field filter is at most 300 characters')
          .transform((text, ctx) => {
            const at = text.indexOf(':');
            const key = at < 0 ? '' : text.slice(0, at).trim();
            if (!SERVICE_FIELD_KEY.test(key)) {
              ctx.addIssue({ code: 'custom', message: 'A field filter is key:value (a field’s key, then its value)' });
              return z.NEVER;
            }
            return { key, value: text.slice(at + 1).trim() };
          }),
      )
      .max(MAX_LEAD_FIELD_FILTERS, `At most ${MAX_LEAD_FIELD_FILTERS} field filters`)
      .optional(),
  ),
};

function beginBeforeEnd(query: { begin?: string; end?: string }, ctx: z.RefinementCtx) {
  if (query.begin && query.end && query.begin > query.end)
    ctx.addIssue({ code: 'custom', path: ['end'], message: 'End must be on or after Begin' });
}

/** The filters every leads list, its values and its export take; `begin` and `end` only for `range`. */
export const leadFilterQuery = z.object(leadFilterFields).superRefine(beginBeforeEnd);
export type LeadFilterQuery = z.infer<typeof leadFilterQuery>;

/** A date range as the leads lists take it (`dateq`, and `begin` and `end` for range), `dateq` defaulting to `defaultRange`. */
export const leadRangeQuery = (defaultRange: LeadDateRange) =>
  z
    .object({
      dateq: z.enum(LEAD_DATE_RANGES).default(defaultRange),
      begin: leadFilterFields.begin,
      end: leadFilterFields.end,
    })
    .superRefine(beginBeforeEnd);

/** GET /api/lead/values/{field}: the select filters' values over a date range (default today). */
export const leadValuesQuery = leadRangeQuery('today');

/** The sort columns of the leads lists (admin §2: sortable by date and service). */
export const LEAD_SORTS = ['date', 'service'] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];

export const leadListQuery = z
  .object({ ...pageQuery(PAGE_SIZE.leads).shape, sort: z.enum(LEAD_SORTS).optional(), ...leadFilterFields })
  .superRefine(beginBeforeEnd);
export type LeadListQuery = z.infer<typeof leadListQuery>;

/** The badges of a return (portals §4; admin §2 bill leads). */
export const RETURN_STATUS_LABELS = {
  requested: 'Return Requested',
  approved: 'Returned',
  denied: 'Return Denied',
};
export const RETURN_STATUSES = valuesOf(RETURN_STATUS_LABELS);
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/** A page of leads, counted up to LEADS_COUNT_LIMIT. */
export type LeadPage<T> = CountedPage<T>;

/** A leads-list row as an admin sees it: the 18 columns of admin spec §2. */
/** What every role's leads-list row holds (the rest depends on the role). */
const leadRowFields = {
  _id: z.string(),
  ts: z.number(),
  name: z.string().optional(),
  service: z.string(),
  state: z.string().optional(),
  zip: z.string(),
  /** The service's own fields the role may see (issue 33), money in dollars; a source's list leaves out personal ones. */
  fields: leadFieldsSchema.optional(),
};

export const adminLeadListItemSchema = z.object({
  ...leadRowFields,
  /** Names of the buyers that bought it (rejected matches left out). */
  buyers: z.array(z.string()),
  /** What the source is paid, dollars. */
  cost: z.number(),
  /** What the buyers paid, dollars. */
  price: z.number(),
  source: namedRefSchema,
  channel: z.string().optional(),
  sub_id: z.string().optional(),
  pub_id: z.string().optional(),
  /** Absent: the source did not say (unknown), never No. */
  tcpa_consent: z.boolean().optional(),
  trusted_form: z.boolean(),
  jornaya: z.boolean(),
  phone: z.string().optional(),
  email: z.string().optional(),
  /** Absent: the source did not say (unknown), never No. */
  homeowner: z.boolean().optional(),
  test: z.boolean(),
});
export type AdminLeadListItem = z.infer<typeof adminLeadListItemSchema>;

/** A buyer's row: its own price, never another buyer's. */
export const buyerLeadListItemSchema = z.object({
  ...leadRowFields,
  /** What this buyer paid, dollars. */
  price: z.number(),
  phone: z.string().optional(),
  email: z.string().optional(),
  /** Direct or Ping/Post (portals §3: derived from ping_id). */
  type: z.enum(['Direct', 'Ping/Post']),
  return_status: z.enum(RETURN_STATUSES).optional(),
});
export type BuyerLeadListItem = z.infer<typeof buyerLeadListItemSchema>;

/** A source's row: no buyers, no prices. */
export const sourceLeadListItemSchema = z.object({
  ...leadRowFields,
  channel: z.string().optional(),
  /** What the source is paid for it, dollars (0 while unsold). */
  cost: z.number(),
  sold: z.boolean(),
  test: z.boolean(),
});
export type SourceLeadListItem = z.infer<typeof sourceLeadListItemSchema>;

/** A row of the leads list, as the viewer's role sees it (each branch holds only what that role may see). */
export const leadListItemSchema = z.union(
  [adminLeadListItemSchema, buyerLeadListItemSchema, sourceLeadListItemSchema],
  {
    error: 'A lead row must be an admin’s, a buyer’s or a source’s',
  },
);
export type LeadListItem = z.infer<typeof leadListItemSchema>;
/** GET /api/lead/date/{dateq}. */
export const leadListAnswerSchema = countedPageSchema(leadListItemSchema);

/**
 * The spec's phone display for leads (admin §2): 10 digits formatted, an 11-digit number with a
 * leading 1 drops it, anything else reads Invalid. An absent phone (an email-only lead) is an empty
 * cell, never Invalid: only a phone that was sent and cannot be read is.
 */
export function formatLeadPhone(phone: string | null | undefined): string {
  if ((phone ?? '').trim() === '') return '';
  let digits = (phone ?? '').replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  if (digits.length !== 10 || (phone ?? '').replace(/[\d\s().+-]/g, '') !== '') return 'Invalid';
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** A lead's phone as typed: its 10 digits (a leading 1 dropped), empty for none. */
export const phoneInput = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  z
    .string()
    .trim()
    .max(40)
    .transform((raw, ctx) => {
      let digits = raw.replace(/[\s().+-]/g, '');
      if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
      if (!/^\d{10}$/.test(digits)) {
        ctx.addIssue({ code: 'custom', message: 'Phone must be a 10-digit US phone number' });
        return z.NEVER;
      }
      return digits;
    })
    .nullable()
    .optional(),
);

/** A lead's email as typed: trimmed and lower-cased, empty for none. */
export const emailInput = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  z.string().trim().toLowerCase().max(254).pipe(z.email('Email must be a valid email address')).nullable().optional(),
);

/** An editable text of a lead: empty clears it (null). */
const leadText = (max: number) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), z.string().trim().max(max).nullable());

/**
 * PUT /api/lead/{id} (admin): the changed fields only. The same rules as the source's post (DESIGN.md
 * §4): a 5-digit ZIP, a 10-digit phone, a valid email, true/false flags; a lead keeps a name and a
 * phone or an email (checked against the stored lead by the server).
 */
export const leadUpdateSchema = z
  .object({
    name: leadText(200),
    address: leadText(300),
    city: leadText(100),
    state: usState.nullable(),
    zip: z
      .string({ error: whenMissing('Zip is required') })
      .trim()
      .regex(/^\d{5}$/, 'Zip must be 5 digits'),
    phone: phoneInput,
    email: emailInput,
    service: z.string().trim().toLowerCase().min(1, 'Service is required').max(100),
    tcpa_consent: z.boolean(),
    tcpa_language: leadText(5000),
    // Checked evidence (issue 32 item 8): a link on another host is never stored as a certificate.
    trusted_form: leadText(500).refine(
      (v) => v === null || trustedFormCertificateUrl(v) !== null,
      'Trusted Form must be a TrustedForm certificate URL: https://cert.trustedform.com/ and the certificate id',
    ),
    jornaya: leadText(200).refine(
      (v) => v === null || jornayaToken(v) !== null,
      'LeadiD Token must be a Jornaya LeadiD token: 36 characters as XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX',
    ),
    pub_id: leadText(200),
    sub_id: leadText(200),
    homeowner: z.boolean(),
    tags: tagList,
    /** The quality viewer's Good/Bad button. */
    quality: z.object({ ok: z.boolean() }),
  })
  .partial()
  .strict();
export type LeadUpdate = z.infer<typeof leadUpdateSchema>;

/** The lead detail's editable fields, in the order the admin's form shows them. */
export const LEAD_EDITABLE_FIELDS = [
  'name',
  'phone',
  'email',
  'address',
  'city',
  'state',
  'zip',
  'service',
  'pub_id',
  'sub_id',
  'trusted_form',
  'jornaya',
  'tcpa_language',
  'tcpa_consent',
  'homeowner',
  'tags',
] as const;

/** The CSV export's columns per role (admin spec §2: 18 columns; fewer for buyers and sources). */
export const LEAD_CSV_COLUMNS = {
  admin: [
    'Date',
    'Name',
    'Buyers',
    'Service',
    'State',
    'Zip',
    'Cost',
    'Price',
    'Source',
    'Channel',
    'Sub Id',
    'Pub Id',
    'TCPA Consent',
    'Trusted Form',
    'LeadiD',
    'Phone',
    'Email',
    'Homeowner',
  ],
  buyer: ['Date', 'Name', 'Service', 'State', 'Zip', 'Price', 'Phone', 'Email', 'Type', 'Return Status'],
  source: ['Date', 'Name', 'Service', 'State', 'Zip', 'Channel', 'Cost', 'Sold'],
} as const;

/** One try of a delivery on a match, as the lead detail's delivery logs show it (DESIGN.md §6). */
export const leadDeliveryAttemptSchema = z.object({
  _id: z.string(),
  /** The address, number or URL. */
  target: z.string(),
  attempt: z.number(),
  accept: z.boolean(),
  status_code: z.number().optional(),
  /** Excerpts of what was sent and answered. */
  request: z.string().optional(),
  response: z.string().optional(),
  error: z.string().optional(),
  /** A custom delivery's attempt: the buyer's own reason for not accepting (the delivery's reason field). */
  reason: z.string().optional(),
  duration_ms: z.number(),
  ts: z.number(),
  /** Email: the SMTP server's events (spec: data.event delivered); SMS: delivered, sent or failed. */
  status: z.union([z.string(), z.array(z.object({ data: z.object({ event: z.string() }) }))]).optional(),
  /** A custom delivery's attempt (its target is the delivery's id): the delivery, named (admins). */
  delivery: namedRefSchema.optional(),
});
export type LeadDeliveryAttempt = z.infer<typeof leadDeliveryAttemptSchema>;

/** The delivery channels of a match, in the order the lead detail shows them. */
export const DELIVERY_CHANNEL_LABELS = {
  custom: 'Custom delivery',
  webhook: 'Webhook',
  broadcast_webhooks: 'Broadcast webhooks',
  email: 'Email',
  sms: 'SMS',
};
export const DELIVERY_CHANNELS = valuesOf(DELIVERY_CHANNEL_LABELS);
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/** A return on a match (spec: reason, comment, approve.approve, deny.deny). */
export const leadReturnSchema = z.object({
  reason: z.string().optional(),
  comment: z.string().optional(),
  approve: z.object({ approve: z.boolean() }).optional(),
  deny: z.object({ deny: z.boolean() }).optional(),
});
export type LeadReturn = z.infer<typeof leadReturnSchema>;

/** One buyer's match of a lead (admin: every match; buyer: its own only). */
const attempts = z.array(leadDeliveryAttemptSchema).optional();
export const leadMatchSchema = z.object({
  _id: z.string(),
  buyer: refSchema,
  campaign: namedRefSchema,
  /** exclusive or shared. */
  kind: z.string(),
  price: z.number(),
  shared_price: z.number().optional(),
  reject: z.boolean(),
  ts: z.number(),
  return: leadReturnSchema.optional(),
  /** pending, queued, delivered or undelivered (admins). */
  delivery_status: z.string().optional(),
  /** The bill it is on (buyers and admins). */
  bill: z.string().optional(),
  /** Buyers: whether it may still be returned (sold, no return yet, within the return window). */
  returnable: z.boolean().optional(),
  /** The buyer's own id of the lead, read from its custom delivery's answer (the delivery's `return_id`). */
  buyer_lead_id: z.string().optional(),
  /**
   * Why the buyer's custom delivery did not accept the lead, in the buyer's words (its answer's reason
   * field), when its last attempt was not accepted.
   */
  delivery_reason: z.string().optional(),
  // Each delivery channel's tries (DELIVERY_CHANNELS), in the order the lead detail shows them.
  custom: attempts,
  webhook: attempts,
  broadcast_webhooks: attempts,
  email: attempts,
  sms: attempts,
});
export type LeadMatch = z.infer<typeof leadMatchSchema>;

/** One campaign the engine considered for the lead, and the first rule that excluded it (DESIGN.md §5). */
export const leadExplanationEntrySchema = z.object({
  campaign: z.string(),
  buyer: z.string(),
  /** The buyer's name, read back with the campaign's (absent in what the engine records). */
  buyer_name: z.string().optional(),
  name: z.string(),
  eligible: z.boolean(),
  rule: z.string().optional(),
  detail: z.string().optional(),
  price: z.number().optional(),
  won: z.boolean().optional(),
  /** A Ping/Post buyer's campaign: how its system answered the ping (bid, no bid, timeout, error) or the post (refused). */
  bid_outcome: z.enum(BID_OUTCOMES).optional(),
});
export type LeadExplanationEntry = z.infer<typeof leadExplanationEntrySchema>;

/**
 * One ping of a Ping/Post buyer for the lead (admins, GET /api/lead/{id}): sent at the source's
 * ping (or within POST /api/lead), before the lead existed, and found again by its ping id.
 */
export const leadPingCallSchema = leadDeliveryAttemptSchema
  .pick({ _id: true, status_code: true, request: true, response: true, duration_ms: true, ts: true })
  .extend({
    buyer: refSchema,
    delivery: refSchema,
    ...pingAnswerFields,
    /** Why it is no bid, in words. */
    error: z.string().optional(),
  });
export type LeadPingCall = z.infer<typeof leadPingCallSchema>;

/**
 * A field of a lead the exchange could not read, or that contradicts another (issue 32 item 4): the
 * lead is kept and sold, the value as sent is kept here, and `problem` says in a sentence what is wrong
 * and what the lead holds instead.
 */
export const leadFieldFlagSchema = z.object({
  /** The lead's field (`phone`, `state`, `homeowner`, …), as the source API names it. */
  field: z.string(),
  /** What the source sent, as text. */
  value: z.string(),
  problem: z.string(),
});
export type LeadFieldFlag = z.infer<typeof leadFieldFlagSchema>;

/** GET /api/lead/{id}: what each role sees of a lead (admins everything). */
export const leadDetailSchema = z.object({
  _id: z.string(),
  /** The lead's source; a buyer reads it only when an admin allows it (Show Lead Sources, issue 27). */
  source: namedRefSchema.optional(),
  name: z.string().optional(),
  address: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  zip: z.string(),
  phone: z.string().optional(),
  email: z.string().optional(),
  service: z.string(),
  channel: z.string().optional(),
  /** As stored: the screens offer it as a certificate only when it is one (trustedFormCertificateUrl). */
  trusted_form: z.string().optional(),
  /** A TrustedForm ping URL (issue 32 item 8). */
  trusted_form_ping_url: z.string().optional(),
  /** Absent: the source did not say (unknown), never No. */
  tcpa_consent: z.boolean().optional(),
  tcpa_language: z.string().optional(),
  jornaya: z.string().optional(),
  /** Absent: the source did not say (unknown), never No. */
  homeowner: z.boolean().optional(),
  pub_id: z.string().optional(),
  sub_id: z.string().optional(),
  tags: z.array(z.string()),
  /** no_ping for a direct lead, else ping. */
  ping_id: z.string(),
  test: z.boolean(),
  ts: z.number(),
  // admins
  ip: z.string().optional(),
  user_agent: z.string().optional(),
  /** The quality checks' findings, open-ended: every key is kept. */
  quality: z.looseObject({ ok: z.boolean().optional() }).optional(),
  /** What the source sent beyond the lead's fields, open-ended: kept whole. */
  metadata: z.unknown().optional(),
  /** The fields that could not be read or contradict another (each role sees those of the fields it is shown). */
  field_flags: z.array(leadFieldFlagSchema).optional(),
  /**
   * The service's own fields (issue 33): `{ [key]: value }`, money in dollars (stored in cents), a removed
   * field's value too; labels and types from GET /api/services/fields.
   */
  fields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  /** Source: what it is paid; admin: the payout. */
  cost: z.number().optional(),
  /** Admin: the buyers' revenue; buyer: its own price. */
  price: z.number().optional(),
  buyers: z.array(z.string()).optional(),
  match: z.array(leadMatchSchema).optional(),
  /** Admins: what the source API answered for the lead, kept whole. */
  answer: z.unknown().optional(),
  explanation: z.array(leadExplanationEntrySchema).optional(),
  /** Admins: every ping of a Ping/Post buyer for this lead (the posts are on the matches, under `custom`). */
  pings: z.array(leadPingCallSchema).optional(),
});
export type LeadDetail = z.infer<typeof leadDetailSchema>;

/** POST /api/lead/{id}/match/{matchId}/resend: how many failed deliveries were queued again. */
export const resendAnswerSchema = z.object({ queued: z.number() });
export type ResendAnswer = z.infer<typeof resendAnswerSchema>;

import { z } from 'zod';
import { valuesOf } from './choices';
import {
  isBlank,
  numericText,
  optionalDollars,
  optionalText,
  pageQuery,
  requiredDollars,
  requiredText,
  tagList,
} from './common';
import { PAGE_SIZE, US_STATES } from './constants';
import {
  type FieldFilter,
  type FieldFilterFormRow,
  fieldFilterAnswerSchema,
  fieldFilterFormRow,
  fieldFilterListSchema,
  fieldFilterPayload,
} from './field-filters';
import { whenMissing } from './messages';

/** Campaign (match) status: mutually exclusive flags in the API (admin §4). */
export const CAMPAIGN_STATUS_LABELS = { live: 'Live', draft: 'Draft', pause: 'Paused' };
export const CAMPAIGN_STATUSES = valuesOf(CAMPAIGN_STATUS_LABELS);
export type CampaignStatusValue = (typeof CAMPAIGN_STATUSES)[number];

/** Location types (admin §9): state, zipset (shown as Region) and zip. */
export const LOCATION_LABELS = { state: 'State', zipset: 'Region', zip: 'Zip' };
export const LOCATION_TYPES = valuesOf(LOCATION_LABELS);
export type LocationType = (typeof LOCATION_TYPES)[number];

/** Time zones a campaign's hours are counted in (admin §9); the first is the default. */
export const CAMPAIGN_TIME_ZONES = [
  { value: 'America/New_York', label: 'Eastern' },
  { value: 'America/Chicago', label: 'Central' },
  { value: 'America/Denver', label: 'Mountain' },
  { value: 'America/Los_Angeles', label: 'Pacific' },
] as const;
export type CampaignTimeZone = (typeof CAMPAIGN_TIME_ZONES)[number]['value'];
const ZONE_VALUES = CAMPAIGN_TIME_ZONES.map((z) => z.value) as [CampaignTimeZone, ...CampaignTimeZone[]];

/** Campaign money limits (admin §9): price and shared price up to 5000 dollars; monthly cap up to 1000. */
export const MAX_CAMPAIGN_PRICE = 5000;
export const MAX_MONTHLY_CAP = 1000;
/** No spec limit on the hourly, daily and weekly caps; this keeps them sane integers. */
const MAX_PERIOD_CAP = 1_000_000;

/** Hours a campaign takes leads, in its own time zone; start = end means all day. */
export const campaignTimeAnswerSchema = z.object({
  zone: z.string(),
  weekday: z.object({ start: z.number(), end: z.number() }),
  weekend: z.object({ start: z.number(), end: z.number() }),
});
export type CampaignTime = z.infer<typeof campaignTimeAnswerSchema>;

/** Admin §9: America/New_York, 7 to 19 on weekdays and weekends. */
export const DEFAULT_CAMPAIGN_TIME: CampaignTime = {
  zone: 'America/New_York',
  weekday: { start: 7, end: 19 },
  weekend: { start: 7, end: 19 },
};

/** The spec's validation messages (admin §5, Campaign), word for word. */
export const CAMPAIGN_MESSAGES = {
  stateRequired: 'At least one state is required when location is set to state',
  zipsetRequired: 'Zipset is required when location is set to zipset',
  zipRequired: 'At least one zip code is required when location is set to zip',
  emails: 'Please enter valid email addresses',
  phones: 'Please enter valid phone numbers',
  notifyRequired: 'At least one notification method must be configured',
  /** Not in the spec: a live campaign without a service never buys (issue 27). */
  servicesRequiredLive: 'Choose at least one service before setting the campaign Live',
  sourceRequired: 'Source is required',
  percentNumber: 'Percent must be a number',
  percentMin: 'Percent must be at least 0',
  percentMax: 'Percent must be less than or equal to 100',
} as const;

// ---------------------------------------------------------------------------------------------
// ZIP tags

/** What parseZipTags made of the text: the 5-digit ZIPs (in order, once each) and what it could not read. */
export interface ZipTags {
  zips: string[];
  invalid: string[];
}

/**
 * The Location ZIP tags (admin §2): free text split on commas, whitespace and newlines; 3 or 4
 * digits are padded to 5 with leading zeros (spreadsheets drop them: 501 is 00501); longer text
 * contributes its first 5-digit group (`75201-1234` is 75201); anything else is invalid.
 */
export function parseZipTags(input: string | readonly string[]): ZipTags {
  const entries = (typeof input === 'string' ? [input] : input).flatMap((text) => text.split(/[\s,]+/));
  const zips: string[] = [];
  const invalid: string[] = [];
  for (const entry of entries) {
    if (entry === '') continue;
    let zip: string | undefined;
    if (/^\d{3,5}$/.test(entry)) zip = entry.padStart(5, '0');
    else if (entry.length > 5) zip = /\d{5}/.exec(entry)?.[0];
    if (zip === undefined) {
      if (!invalid.includes(entry)) invalid.push(entry);
    } else if (!zips.includes(zip)) {
      zips.push(zip);
    }
  }
  return { zips, invalid };
}

// ---------------------------------------------------------------------------------------------
// Field rules shared by the API schemas and the form schema

/** Numeric text becomes a number; anything else stays as sent (and fails as "not a number"). */
/** A lead cap: empty means no cap (null). */
const cap = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (v === undefined ? undefined : isBlank(v) ? null : numericText(v)),
    z
      .number({ error: `${label} must be a number` })
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be less than or equal to ${max}`)
      // A refine, not .int(): Zod's int check stops the form's other rules, which must still show.
      .refine(Number.isInteger, `${label} must be a whole number`)
      .nullable()
      .optional(),
  );

/** The largest budget a campaign or a buyer may set, in dollars: counters are integer cents. */
export const MAX_BUDGET = 1_000_000;

/** Budget caps in dollars (issue 33): daily, weekly, monthly; empty = no budget. */
export const campaignBudgetSchema = z.object({
  daily: optionalDollars('Daily budget', MAX_BUDGET),
  weekly: optionalDollars('Weekly budget', MAX_BUDGET),
  monthly: optionalDollars('Monthly budget', MAX_BUDGET),
});
/** The budgets as the API answers them (dollars; null = no budget) and what is spent in the current periods. */
export const campaignBudgetAnswerSchema = z.object({
  daily: z.number().nullable(),
  weekly: z.number().nullable(),
  monthly: z.number().nullable(),
});
export const campaignSpentSchema = z.object({
  daily: z.number(),
  weekly: z.number(),
  monthly: z.number(),
});
export type CampaignBudget = z.infer<typeof campaignBudgetAnswerSchema>;

/** Limits: hourly, daily and weekly at least 1; monthly 0 to 1000 (admin §5). Empty = no cap. */
export const campaignMaxSchema = z.object({
  hourly: cap('Hourly limit', 1, MAX_PERIOD_CAP),
  daily: cap('Daily limit', 1, MAX_PERIOD_CAP),
  weekly: cap('Weekly limit', 1, MAX_PERIOD_CAP),
  monthly: cap('Monthly limit', 0, MAX_MONTHLY_CAP),
});
export const campaignMaxAnswerSchema = z.object({
  hourly: z.number().nullable(),
  daily: z.number().nullable(),
  weekly: z.number().nullable(),
  monthly: z.number().nullable(),
});
export type CampaignMax = z.infer<typeof campaignMaxAnswerSchema>;

const hour = (label: string) =>
  z.preprocess(
    (v) => (isBlank(v) ? undefined : numericText(v)),
    z
      .number({ error: `${label} hour must be a number` })
      .int(`${label} hour must be a whole hour`)
      .min(0, `${label} hour must be from 0 to 23`)
      .max(23, `${label} hour must be from 0 to 23`),
  );

/** Time Restrictions: a zone among Eastern, Central, Mountain, Pacific and hours 0 to 23. */
export const campaignTimeSchema = z.object({
  zone: z.enum(ZONE_VALUES, { error: 'Time zone must be Eastern, Central, Mountain or Pacific' }),
  weekday: z.object({ start: hour('Weekday start'), end: hour('Weekday end') }),
  weekend: z.object({ start: hour('Weekend start'), end: hour('Weekend end') }),
});

/** `time: { delete: true }` (restrictions switched off) or null removes the hours. */
const timeInput = z.preprocess(
  (v) =>
    v === null || (typeof v === 'object' && v !== null && (v as { delete?: unknown }).delete === true) ? null : v,
  campaignTimeSchema.nullable(),
);

const EMAIL = z.email();
const PHONE = /^\+?[\d\s()-]{7,20}$/;
const isHttpUrl = (text: string) => {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};
/** Trimmed, without empty entries, each once. */
const cleanList = (v: unknown) =>
  Array.isArray(v)
    ? [...new Set(v.map((s) => (typeof s === 'string' ? s.trim() : s)).filter((s) => s !== ''))]
    : v === undefined || v === null
      ? []
      : v;

/**
 * Lead Delivery of a campaign: email list, SMS list, webhook, broadcast webhooks. A bad entry
 * marks the whole list (the form shows one message under the list's input).
 */
export const campaignNotifySchema = z.object({
  email: z.preprocess(
    cleanList,
    z
      .array(z.string())
      .max(50, 'At most 50 email addresses')
      .refine((list) => list.every((e) => EMAIL.safeParse(e).success), CAMPAIGN_MESSAGES.emails),
  ),
  sms: z.preprocess(
    cleanList,
    z
      .array(z.string())
      .max(50, 'At most 50 phone numbers')
      .refine((list) => list.every((p) => PHONE.test(p)), CAMPAIGN_MESSAGES.phones),
  ),
  webhook: z.preprocess(
    (v) => (isBlank(v) ? undefined : typeof v === 'string' ? v.trim() : v),
    z.string({ error: 'Webhook must be a valid URL' }).refine(isHttpUrl, 'Webhook must be a valid URL').optional(),
  ),
  broadcast_webhooks: z.preprocess(
    cleanList,
    z
      .array(z.string())
      .max(20, 'At most 20 broadcast webhooks')
      .refine((list) => list.every(isHttpUrl), 'Broadcast webhooks must be valid URLs'),
  ),
});
/** Lead Delivery as the API answers it (a campaign's, a buyer's default). */
export const campaignNotifyAnswerSchema = z.object({
  email: z.array(z.string()),
  sms: z.array(z.string()),
  webhook: z.string().optional(),
  broadcast_webhooks: z.array(z.string()),
});
export type CampaignNotify = z.infer<typeof campaignNotifyAnswerSchema>;

/** One Source Restrictions row; `pctMax` is 100 in the form (percent) and 1 in the API (a share). */
const sourceFilterRow = (pctMax: number) =>
  z.object({
    source: z.preprocess((v) => (v === null ? undefined : v), requiredText(CAMPAIGN_MESSAGES.sourceRequired, 100)),
    channel: z.preprocess((v) => (v === null ? undefined : v), optionalText(100)),
    price: optionalDollars('Price', MAX_CAMPAIGN_PRICE),
    shared_price: optionalDollars('Shared Price', MAX_CAMPAIGN_PRICE),
    pct: z.preprocess(
      (v) => (isBlank(v) ? undefined : numericText(v)),
      z
        .number({ error: CAMPAIGN_MESSAGES.percentNumber })
        .min(0, CAMPAIGN_MESSAGES.percentMin)
        .max(pctMax, CAMPAIGN_MESSAGES.percentMax),
    ),
  });
export const campaignSourceFilterSchema = sourceFilterRow(1);
export type CampaignSourceFilterInput = z.infer<typeof campaignSourceFilterSchema>;

const sourceFilterList = (pctMax: number) =>
  z.array(sourceFilterRow(pctMax)).max(200, 'At most 200 source restrictions');

const stateList = z.preprocess(
  (v) => (Array.isArray(v) ? cleanList(v.map((s) => (typeof s === 'string' ? s.toUpperCase() : s))) : v),
  z
    .array(z.string())
    .refine((list) => list.every((s) => (US_STATES as readonly string[]).includes(s)), 'Choose US states only'),
);

const zipList = z.preprocess(
  cleanList,
  z
    .array(z.string())
    .max(50_000, 'At most 50000 zip codes')
    .refine((list) => list.every((zip) => /^\d{5}$/.test(zip)), 'Zip codes must be 5 digits'),
);

const optionalId = z.preprocess((v) => (isBlank(v) ? undefined : v), z.string().trim().max(100).optional());

const services = z.preprocess(cleanList, z.array(z.string().max(100)).max(100, 'At most 100 services'));

/** The Branded Id: what a source sends as `campaign` to aim a post at this campaign. */
const brandedId = z
  .string({ error: whenMissing('Branded Id is required') })
  .trim()
  .min(1, 'Branded Id is required')
  .max(40, 'Branded Id must be at most 40 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'Branded Id may contain only letters, digits, underscore or hyphen');

/** `exclusive`: 1 means exclusive, anything else shared (admin §3). */
const exclusive = z.preprocess(numericText, z.number({ error: 'Exclusive must be a number' }));

/** Status as the flags `{ live, draft, pause }` (one of them true) or a word; an optional reason. */
const statusInput = z
  .preprocess(
    (v) => (typeof v === 'string' ? { [v.toLowerCase() === 'paused' ? 'pause' : v.toLowerCase()]: true } : v),
    z.object(
      {
        live: z.boolean().optional(),
        draft: z.boolean().optional(),
        pause: z.boolean().optional(),
        reason: optionalText(500),
      },
      { error: 'Status must be Live, Draft or Paused' },
    ),
  )
  .refine(
    (s) => [s.live, s.draft, s.pause].filter(Boolean).length === 1,
    'Status must be exactly one of Live, Draft or Paused',
  )
  .transform((s) => ({
    value: (s.live ? 'live' : s.draft ? 'draft' : 'pause') as CampaignStatusValue,
    reason: s.reason,
  }));

// ---------------------------------------------------------------------------------------------
// Cross-field rules

/** The fields the cross-field rules read; absent ones are not checked. */
export interface CampaignRuleInput {
  location?: LocationType;
  state?: readonly string[];
  zips?: readonly string[];
  zipset?: string | null;
  notify?: Partial<CampaignNotify> | null;
  exclusive?: number;
  shared_price?: number | null;
  status?: CampaignStatusValue;
  services?: readonly string[];
}

export interface FieldIssue {
  /** The field's dotted path in the API (`state`, `notify`, `shared_price`). */
  path: string;
  message: string;
}

/** True when at least one notification method is configured. */
export function hasNotifyMethod(notify: Partial<CampaignNotify> | null | undefined): boolean {
  return Boolean(
    notify &&
      ((notify.email?.length ?? 0) > 0 ||
        (notify.sms?.length ?? 0) > 0 ||
        (notify.webhook ?? '') !== '' ||
        (notify.broadcast_webhooks?.length ?? 0) > 0),
  );
}

/**
 * The rules that read several fields (admin §5): the chosen location needs its values, delivery
 * needs one method, shared leads need a shared price. Used by the schemas below and by the server
 * on an update merged with the stored campaign.
 */
export function campaignRuleIssues(c: CampaignRuleInput): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (c.location === 'state' && (c.state?.length ?? 0) === 0)
    issues.push({ path: 'state', message: CAMPAIGN_MESSAGES.stateRequired });
  if (c.location === 'zipset' && !c.zipset) issues.push({ path: 'zipset', message: CAMPAIGN_MESSAGES.zipsetRequired });
  if (c.location === 'zip' && (c.zips?.length ?? 0) === 0)
    issues.push({ path: 'zips', message: CAMPAIGN_MESSAGES.zipRequired });
  if (c.notify !== undefined && !hasNotifyMethod(c.notify))
    issues.push({ path: 'notify', message: CAMPAIGN_MESSAGES.notifyRequired });
  if (c.exclusive !== undefined && c.exclusive !== 1 && (c.shared_price === undefined || c.shared_price === null))
    issues.push({ path: 'shared_price', message: 'Shared Price is required when leads are shared' });
  if (c.status === 'live' && c.services !== undefined && c.services.length === 0)
    issues.push({ path: 'services', message: CAMPAIGN_MESSAGES.servicesRequiredLive });
  return issues;
}

// The cross-field rules run even when a field failed, so the form shows every message at once.
const ALWAYS = { when: () => true } as const;

function addRuleIssues(c: CampaignRuleInput, ctx: z.RefinementCtx) {
  // A field that failed its own rule (a number where a list goes) already says what is wrong with
  // it; the cross-field rule would call it missing.
  const failed = new Set(ctx.issues.map((issue) => (issue.path ?? []).join('.')));
  for (const issue of campaignRuleIssues(c))
    if (!failed.has(issue.path)) ctx.addIssue({ code: 'custom', path: issue.path.split('.'), message: issue.message });
}

/** Reads the rule fields of a value whose own parse may have failed (so any field may be junk). */
function ruleView(value: unknown): CampaignRuleInput {
  const v = (value ?? {}) as Record<string, unknown>;
  const list = (x: unknown) => (Array.isArray(x) ? (x as string[]) : undefined);
  return {
    location: LOCATION_TYPES.includes(v.location as LocationType) ? (v.location as LocationType) : undefined,
    state: list(v.state),
    zips: list(v.zips),
    zipset: typeof v.zipset === 'string' ? v.zipset : null,
    notify: v.notify === undefined ? undefined : (v.notify as Partial<CampaignNotify>),
    exclusive: typeof v.exclusive === 'number' ? v.exclusive : undefined,
    shared_price: typeof v.shared_price === 'number' ? v.shared_price : null,
    status: CAMPAIGN_STATUSES.includes(v.status as CampaignStatusValue) ? (v.status as CampaignStatusValue) : undefined,
    services: list(v.services),
  };
}

// ---------------------------------------------------------------------------------------------
// API schemas

const campaignFields = {
  name: requiredText('Name is required', 200),
  buyer: requiredText('Buyer is required', 100),
  price: requiredDollars('Price', MAX_CAMPAIGN_PRICE),
  exclusive,
  shared_price: optionalDollars('Shared Price', MAX_CAMPAIGN_PRICE),
  fixed_id: brandedId,
  services,
  tags: tagList,
  notes: z.preprocess((v) => (v === null ? undefined : v), optionalText(5000)),
  location: z.enum(LOCATION_TYPES, { error: 'Location must be state, zipset or zip' }),
  state: stateList,
  zips: zipList,
  zipset: optionalId,
  max: campaignMaxSchema,
  budget: campaignBudgetSchema,
  notify: campaignNotifySchema,
  source_filter: sourceFilterList(1),
  /** Rules on the fields of the campaign's services (issue 33), all of which must hold; money in dollars. */
  field_filters: fieldFilterListSchema,
  time: timeInput,
  /** Buys only leads whose consent language names the buyer's legal name (issue 34 item 4). */
  require_named_consent: z.boolean({ error: 'Require named consent must be true or false' }),
  /** Refuses leads that arrive outside the consumer's calling window: the buyer calls at once (issue 34 item 5). */
  refuse_outside_calling_window: z.boolean({ error: 'Refuse outside the calling window must be true or false' }),
};

/**
 * POST /api/match. A new campaign starts as draft (status is not taken here). Without a Branded Id
 * the server makes one; without `notify` the buyer's default lead delivery is copied. A buyer
 * creates for itself (`buyer` may be left out) and may not send `source_filter`.
 */
export const campaignCreateSchema = z
  .object({
    ...campaignFields,
    buyer: campaignFields.buyer.optional(),
    exclusive: exclusive.default(1),
    fixed_id: z.preprocess((v) => (isBlank(v) ? undefined : v), brandedId.optional()),
    services: services.default([]),
    tags: tagList.default([]),
    location: campaignFields.location.default('state'),
    state: stateList.default([]),
    zips: zipList.default([]),
    max: campaignMaxSchema.default({}),
    budget: campaignBudgetSchema.default({}),
    notify: campaignNotifySchema.optional(),
    source_filter: sourceFilterList(1).optional(),
    field_filters: fieldFilterListSchema.default([]),
    time: timeInput.optional(),
    require_named_consent: campaignFields.require_named_consent.default(false),
    refuse_outside_calling_window: campaignFields.refuse_outside_calling_window.default(false),
  })
  .superRefine((c, ctx) => addRuleIssues(ruleView(c), ctx), ALWAYS);
export type CampaignCreate = z.infer<typeof campaignCreateSchema>;

/**
 * PUT /api/match/{id}: only the changed fields. `max`, `notify`, `time` and `source_filter` are
 * replaced whole; a new `location` clears the other location types' values. The buyer cannot
 * change; the cross-field rules are checked by the server against the stored campaign.
 */
export const campaignUpdateSchema = z
  .object({
    ...campaignFields,
    status: statusInput,
    buyer: z.never({ error: 'Buyer cannot be changed' }),
  })
  .partial();
export type CampaignUpdate = z.infer<typeof campaignUpdateSchema>;

export const CAMPAIGN_SORTS = ['name', 'buyer_name', 'status', 'price', 'ts'] as const;

/** GET /api/match: page size 25, search by buyer name, filter by service (and by buyer id). */
export const campaignListQuery = pageQuery(PAGE_SIZE.campaigns).extend({
  buyer_name: z.string().trim().max(200).optional(),
  buyer: z.string().trim().max(100).optional(),
  service: z.string().trim().max(100).optional(),
  sort: z.enum(CAMPAIGN_SORTS).optional(),
});
export type CampaignListQuery = z.infer<typeof campaignListQuery>;

// ---------------------------------------------------------------------------------------------
// API answers

export const campaignStatusEventSchema = z.object({
  status: z.enum(CAMPAIGN_STATUSES),
  reason: z.string().optional(),
  /** The user who changed it (user id), or `system`. */
  operator: z.string(),
  operator_name: z.string().optional(),
  ts: z.number(),
});
export type CampaignStatusEvent = z.infer<typeof campaignStatusEventSchema>;

/** `status` as the API shows it: the flags, the last change (who, when, why) and the history. */
export const campaignStatusSchema = z.object({
  live: z.boolean(),
  draft: z.boolean(),
  pause: z.boolean(),
  operator: z.string().optional(),
  ts: z.number().optional(),
  reason: z.string().optional(),
  history: z.array(campaignStatusEventSchema),
});
export type CampaignStatus = z.infer<typeof campaignStatusSchema>;

export const campaignSourceFilterAnswerSchema = z.object({
  source: z.string(),
  source_name: z.string().optional(),
  channel: z.string().optional(),
  price: z.number().optional(),
  shared_price: z.number().optional(),
  /** Share of the source's leads admitted, 0 to 1. */
  pct: z.number(),
});
export type CampaignSourceFilter = z.infer<typeof campaignSourceFilterAnswerSchema>;

/**
 * The last failure of the campaign's buyer's custom deliveries (DESIGN.md §6, shown in red on its
 * campaigns): the most recent one among its live deliveries; a success of that delivery clears it.
 */
export const campaignDeliveryFailureSchema = z.object({
  delivery_id: z.string(),
  /** The delivery's name. */
  delivery: z.string(),
  /** `HTTP 500: <excerpt>`, `timeout after 3000 ms`, `Not Accepted`, … */
  message: z.string(),
  /** When it failed, as an ISO date-time. */
  at: z.string(),
  /** `at` in epoch seconds. */
  ts: z.number(),
});
export type CampaignDeliveryFailure = z.infer<typeof campaignDeliveryFailureSchema>;

/** A campaign (match) as the API answers it; buyers get it without `source_filter`. */
export const campaignSchema = z.object({
  _id: z.string(),
  name: z.string(),
  buyer: z.string(),
  buyer_name: z.string(),
  fixed_id: z.string(),
  price: z.number(),
  /** 1 exclusive, 0 shared. */
  exclusive: z.number(),
  shared_price: z.number().optional(),
  services: z.array(z.string()),
  tags: z.array(z.string()),
  notes: z.string().optional(),
  location: z.enum(LOCATION_TYPES),
  state: z.array(z.string()),
  zips: z.array(z.string()),
  zipset: z.string().optional(),
  zipset_name: z.string().optional(),
  max: campaignMaxAnswerSchema,
  /** Budget caps in dollars (issue 33). */
  budget: campaignBudgetAnswerSchema,
  /** Dollars spent in the current budget periods, in the campaign's zone (the campaign detail only). */
  spent: campaignSpentSchema.optional(),
  notify: campaignNotifyAnswerSchema,
  time: campaignTimeAnswerSchema.optional(),
  source_filter: z.array(campaignSourceFilterAnswerSchema).optional(),
  /** Rules on the fields of the campaign's services (issue 33): every one must hold. */
  field_filters: z.array(fieldFilterAnswerSchema).optional(),
  status: campaignStatusSchema,
  ts: z.number(),
  /** `ts` as an ISO date-time. */
  tsdate: z.string(),
  /** The buyer's last custom delivery failure, or null when its live deliveries have none. */
  delivery_failure: campaignDeliveryFailureSchema.nullable(),
  require_named_consent: z.boolean().optional(),
  refuse_outside_calling_window: z.boolean().optional(),
});
export type Campaign = z.infer<typeof campaignSchema>;

/** A row of GET /api/match. */
export const campaignListItemSchema = campaignSchema
  .pick({
    _id: true,
    name: true,
    buyer: true,
    buyer_name: true,
    fixed_id: true,
    price: true,
    exclusive: true,
    shared_price: true,
    services: true,
    tags: true,
    location: true,
    state: true,
    zips: true,
    zipset: true,
    max: true,
    budget: true,
    ts: true,
    delivery_failure: true,
  })
  .extend({ status: campaignStatusSchema.pick({ live: true, draft: true, pause: true }) });
export type CampaignListItem = z.infer<typeof campaignListItemSchema>;

/** The status flags of a status value. */
export const statusFlags = (status: CampaignStatusValue) => ({
  live: status === 'live',
  draft: status === 'draft',
  pause: status === 'pause',
});

// ---------------------------------------------------------------------------------------------
// The Campaign form (web) and its payload rules (admin §7)

/** The Campaign form as its inputs hold it: numbers or '' from number inputs, hours as select strings. */
export interface CampaignFormValues {
  name: string;
  buyer: string;
  price: number | string;
  status: CampaignStatusValue;
  fixed_id: string;
  /** Shared Leads: 'yes' or 'no'. */
  shared: 'yes' | 'no';
  shared_price: number | string;
  services: string[];
  tags: string[];
  notes: string;
  location: LocationType;
  state: string[];
  zips: string[];
  zipset: string;
  max: { hourly: number | string; daily: number | string; weekly: number | string; monthly: number | string };
  budget: { daily: number | string; weekly: number | string; monthly: number | string };
  notify: { email: string[]; sms: string[]; webhook: string; broadcast_webhooks: string[] };
  source_filter: {
    source: string;
    channel: string;
    price: number | string;
    shared_price: number | string;
    /** Percent, 0 to 100. */
    pct: number | string;
  }[];
  /** Field filters (issue 33): a row per rule; `type` is the chosen field's, values as the inputs hold them. */
  field_filters: FieldFilterFormRow[];
  /** The Time Restrictions toggle. */
  timeOn: boolean;
  time: { zone: string; weekday: { start: string; end: string }; weekend: { start: string; end: string } };
  /** Issue 34: named consent, and the consumer's calling window for a buyer that calls at once. */
  require_named_consent: boolean;
  refuse_outside_calling_window: boolean;
}

const hourText = (n: number) => String(n);

/** A new campaign: draft, exclusive, located by state, no time restrictions. */
export function newCampaignFormValues(buyer = ''): CampaignFormValues {
  return {
    name: '',
    buyer,
    price: '',
    status: 'draft',
    fixed_id: '',
    shared: 'no',
    shared_price: '',
    services: [],
    tags: [],
    notes: '',
    location: 'state',
    state: [],
    zips: [],
    zipset: '',
    max: { hourly: '', daily: '', weekly: '', monthly: '' },
    budget: { daily: '', weekly: '', monthly: '' },
    notify: { email: [], sms: [], webhook: '', broadcast_webhooks: [] },
    source_filter: [],
    field_filters: [],
    timeOn: false,
    time: timeFormValues(DEFAULT_CAMPAIGN_TIME),
    require_named_consent: false,
    refuse_outside_calling_window: false,
  };
}

/** The time restriction fields as the form's selects hold them. */
export function timeFormValues(time: CampaignTime): CampaignFormValues['time'] {
  return {
    zone: time.zone,
    weekday: { start: hourText(time.weekday.start), end: hourText(time.weekday.end) },
    weekend: { start: hourText(time.weekend.start), end: hourText(time.weekend.end) },
  };
}

/** A stored campaign as form values. */
export function campaignFormValues(c: Campaign): CampaignFormValues {
  const blank = (n: number | null | undefined) => (n === null || n === undefined ? '' : n);
  return {
    name: c.name,
    buyer: c.buyer,
    price: c.price,
    status: c.status.live ? 'live' : c.status.pause ? 'pause' : 'draft',
    fixed_id: c.fixed_id,
    shared: c.exclusive === 1 ? 'no' : 'yes',
    shared_price: blank(c.shared_price),
    services: c.services,
    tags: c.tags,
    notes: c.notes ?? '',
    location: c.location,
    state: c.state,
    zips: c.zips,
    zipset: c.zipset ?? '',
    max: {
      hourly: blank(c.max.hourly),
      daily: blank(c.max.daily),
      weekly: blank(c.max.weekly),
      monthly: blank(c.max.monthly),
    },
    budget: { daily: blank(c.budget.daily), weekly: blank(c.budget.weekly), monthly: blank(c.budget.monthly) },
    notify: {
      email: c.notify.email,
      sms: c.notify.sms,
      webhook: c.notify.webhook ?? '',
      broadcast_webhooks: c.notify.broadcast_webhooks,
    },
    source_filter: (c.source_filter ?? []).map((f) => ({
      source: f.source,
      channel: f.channel ?? '',
      price: blank(f.price),
      shared_price: blank(f.shared_price),
      // A share of 0.125 shows as 12.5 (percent), without float noise.
      pct: Math.round(f.pct * 100 * 1e6) / 1e6,
    })),
    field_filters: (c.field_filters ?? []).map(fieldFilterFormRow),
    timeOn: Boolean(c.time),
    time: timeFormValues(c.time ?? DEFAULT_CAMPAIGN_TIME),
    require_named_consent: c.require_named_consent ?? false,
    refuse_outside_calling_window: c.refuse_outside_calling_window ?? false,
  };
}

const timeFormField = z.object({ time: campaignTimeSchema });

/**
 * The Campaign form's schema: the API's field rules and messages, with percent 0 to 100, Shared
 * Leads yes/no, and hours checked only while Time Restrictions are on.
 */
export const campaignFormSchema = z
  .object({
    name: campaignFields.name,
    buyer: campaignFields.buyer,
    price: campaignFields.price,
    status: z.enum(CAMPAIGN_STATUSES),
    fixed_id: z.preprocess((v) => (isBlank(v) ? undefined : v), brandedId.optional()),
    shared: z.enum(['yes', 'no']),
    shared_price: campaignFields.shared_price,
    services,
    tags: tagList,
    notes: campaignFields.notes,
    location: campaignFields.location,
    state: stateList,
    zips: zipList,
    zipset: optionalId,
    max: campaignMaxSchema,
    budget: campaignBudgetSchema,
    notify: campaignNotifySchema,
    source_filter: sourceFilterList(100),
    field_filters: z.array(
      z.looseObject({
        field: z.string().min(1, 'Field is required'),
        op: z.string().min(1, 'Operator is required'),
      }),
    ),
    timeOn: z.boolean(),
    time: z.unknown(),
    require_named_consent: z.boolean(),
    refuse_outside_calling_window: z.boolean(),
  })
  .superRefine((v, ctx) => {
    // Runs even when the value is not an object at all (ALWAYS), so every read is guarded.
    const raw = (v ?? {}) as { shared?: unknown; timeOn?: unknown; time?: unknown };
    const view = ruleView(raw);
    addRuleIssues({ ...view, exclusive: raw.shared === 'yes' ? 0 : 1 }, ctx);
    if (raw.timeOn === true) {
      // Parsed under its own key, so the messages name the fields as the form does (`time.zone`).
      const time = timeFormField.safeParse({ time: raw.time });
      if (!time.success)
        for (const issue of time.error.issues)
          ctx.addIssue({ code: 'custom', path: issue.path.map(String), message: issue.message });
    }
  }, ALWAYS);

/** What POST and PUT /api/match take (before the server's parse): the payload built from the form. */
export interface CampaignPayload {
  name: string;
  buyer?: string;
  price: number;
  exclusive: number;
  shared_price?: number;
  fixed_id?: string;
  status: { live: boolean; draft: boolean; pause: boolean };
  services: string[];
  tags: string[];
  notes?: string;
  location: LocationType;
  state?: string[];
  zips?: string[];
  zipset?: string;
  max: CampaignMax;
  budget: CampaignBudget;
  notify: CampaignNotify;
  source_filter?: CampaignSourceFilterInput[];
  field_filters: FieldFilter[];
  time: CampaignTime | { delete: true };
  require_named_consent: boolean;
  refuse_outside_calling_window: boolean;
}

const toNumber = (v: number | string): number => (typeof v === 'number' ? v : Number(v));
const toNumberOrNull = (v: number | string): number | null =>
  v === '' || v === null || v === undefined ? null : toNumber(v);

/**
 * The form's values as the API takes them (admin §7): exclusive as a number, pct divided by 100,
 * an empty channel dropped, hours as numbers, only the chosen location's field kept, empty notes
 * dropped, and time sent as `{ delete: true }` when Time Restrictions are off. Buyers do not send
 * source restrictions (`withSourceFilter: false`).
 */
export function toCampaignPayload(v: CampaignFormValues, options: { withSourceFilter: boolean }): CampaignPayload {
  const shared = v.shared === 'yes';
  const notes = v.notes.trim();
  const fixedId = v.fixed_id.trim();
  const webhook = v.notify.webhook.trim();
  const payload: CampaignPayload = {
    name: v.name.trim(),
    ...(v.buyer ? { buyer: v.buyer } : {}),
    price: toNumber(v.price),
    exclusive: shared ? 0 : 1,
    ...(shared && toNumberOrNull(v.shared_price) !== null ? { shared_price: toNumber(v.shared_price) } : {}),
    ...(fixedId ? { fixed_id: fixedId } : {}),
    status: statusFlags(v.status),
    services: v.services,
    tags: v.tags,
    ...(notes ? { notes } : {}),
    location: v.location,
    ...(v.location === 'state' ? { state: v.state } : {}),
    ...(v.location === 'zip' ? { zips: v.zips } : {}),
    ...(v.location === 'zipset' && v.zipset ? { zipset: v.zipset } : {}),
    max: {
      hourly: toNumberOrNull(v.max.hourly),
      daily: toNumberOrNull(v.max.daily),
      weekly: toNumberOrNull(v.max.weekly),
      monthly: toNumberOrNull(v.max.monthly),
    },
    budget: {
      daily: toNumberOrNull(v.budget.daily),
      weekly: toNumberOrNull(v.budget.weekly),
      monthly: toNumberOrNull(v.budget.monthly),
    },
    notify: {
      email: v.notify.email,
      sms: v.notify.sms,
      ...(webhook ? { webhook } : {}),
      broadcast_webhooks: v.notify.broadcast_webhooks,
    },
    time: v.timeOn
      ? {
          zone: v.time.zone,
          weekday: { start: Number(v.time.weekday.start), end: Number(v.time.weekday.end) },
          weekend: { start: Number(v.time.weekend.start), end: Number(v.time.weekend.end) },
        }
      : { delete: true },
    field_filters: v.field_filters.map(fieldFilterPayload),
    require_named_consent: v.require_named_consent,
    refuse_outside_calling_window: v.refuse_outside_calling_window,
  };
  if (options.withSourceFilter) {
    payload.source_filter = v.source_filter.map((row) => {
      const channel = row.channel.trim();
      const price = toNumberOrNull(row.price);
      const sharedPrice = toNumberOrNull(row.shared_price);
      return {
        source: row.source,
        ...(channel ? { channel } : {}),
        ...(price !== null ? { price } : {}),
        ...(sharedPrice !== null ? { shared_price: sharedPrice } : {}),
        // 12.5 % -> 0.125, without float noise.
        pct: Math.round((toNumber(row.pct) / 100) * 1e8) / 1e8,
      };
    });
  }
  return payload;
}

/** Every location field: a change to one sends the chosen type with its values. */
const LOCATION_FIELDS = ['location', 'state', 'zips', 'zipset'] as const;

/**
 * The PUT body for an edit: the payload fields that differ from the record's (objects and lists
 * whole), the chosen location with its values when any location field changed, `notes: null`
 * when the notes were emptied (empty notes are otherwise dropped), and an emptied Branded Id as ''.
 */
export function campaignChanges(
  before: CampaignFormValues,
  after: CampaignFormValues,
  options: { withSourceFilter: boolean },
): Partial<CampaignPayload> & { notes?: string | null; fixed_id?: string } {
  const old = toCampaignPayload(before, options) as unknown as Record<string, unknown>;
  const next = toCampaignPayload(after, options) as unknown as Record<string, unknown>;
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(next)) {
    if (key === 'buyer') continue;
    if (JSON.stringify(old[key]) !== JSON.stringify(value)) changes[key] = value;
  }
  if (LOCATION_FIELDS.some((key) => key in changes))
    for (const key of LOCATION_FIELDS) if (key in next) changes[key] = next[key];
  if (old.notes !== undefined && next.notes === undefined) changes.notes = null;
  // A Branded Id cannot be removed: sending it empty lets the server say so on the field.
  if (old.fixed_id !== undefined && next.fixed_id === undefined) changes.fixed_id = '';
  if (!('time' in old) || (old.time as { delete?: boolean }).delete) {
    // Off before and off now: nothing to remove.
    if ((next.time as { delete?: boolean }).delete) delete changes.time;
  }
  return changes as Partial<CampaignPayload> & { notes?: string | null; fixed_id?: string };
}

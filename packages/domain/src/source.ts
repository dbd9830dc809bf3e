import { z } from 'zod';
import {
  contactSchema,
  dateOutOfBounds,
  emailAddress,
  isWithinDateBounds,
  leadRowSchema,
  numericText,
  optionalDollars,
  optionalText,
  pageQuery,
  portalUserAnswerSchema,
  repeatedIndexes,
  requiredDollars,
  requiredText,
  tagList,
  usState,
  zipCode,
} from './common';
import { PAGE_SIZE } from './constants';
import { SOURCE_API_ANSWER_FORMATS } from './source-api';

/** Largest lead cost and channel max cost, in dollars (admin §9). */
export const MAX_SOURCE_COST = 5000;

/** A channel's max cost is required (admin §5): empty input counts as missing. */
const channelMaxCost = requiredDollars('Max cost', MAX_SOURCE_COST);

/** The source's lead cost: optional; empty means none (an internal source, paid nothing). */
const leadCost = optionalDollars('Lead cost', MAX_SOURCE_COST);

/** Yes/no flags as forms and older clients send them: booleans, '1'/'0', 'true'/'false'. */
const yesNo = (label: string) =>
  z.preprocess(
    (v) => (v === 1 || v === '1' || v === 'true' ? true : v === 0 || v === '0' || v === 'false' ? false : v),
    z.boolean({ error: `${label} must be yes or no` }),
  );

/** One channel row of the Source form (admin §5). */
export const sourceChannelSchema = z.object({
  name: requiredText('Channel name is required', 100),
  max_cost: channelMaxCost,
});
export type SourceChannelInput = z.infer<typeof sourceChannelSchema>;

/** The channels of a source, sent whole; names are unique within the source. */
const channelList = z
  .array(sourceChannelSchema)
  .max(100, 'At most 100 channels')
  .superRefine((channels, ctx) => {
    for (const i of repeatedIndexes(channels, (channel) => channel.name.toLowerCase()))
      ctx.addIssue({ code: 'custom', path: [i, 'name'], message: 'Channel names must be unique' });
  });

const tier = z.preprocess(
  (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? null : numericText(v)),
  z
    .number({ error: 'Tier must be a number' })
    .int('Tier must be a whole number')
    .min(0, 'Tier must be at least 0')
    .max(100, 'Tier must be less than or equal to 100')
    .nullable(),
);

/** A service name as sources send it: trimmed, lower-cased; empty means none. */
const serviceName = (label: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.string({ error: `${label} must be a service name` }).max(100, `${label} must be at most 100 characters`),
  );

/** The service of a lead sent without one (issue 32 item 3): a service name, or empty/null for none. */
const defaultService = z.preprocess(
  (v) => (v === '' || (typeof v === 'string' && v.trim() === '') ? null : v),
  serviceName('Default service').nullable(),
);

/** How the public API answers a source that names no format (issue 32 item 7); empty/null for JSON. */
const answerFormat = z.preprocess(
  (v) => (v === '' || (typeof v === 'string' && v.trim() === '') ? null : typeof v === 'string' ? v.trim() : v),
  z
    .enum(SOURCE_API_ANSWER_FORMATS, { error: `Answer format must be one of ${SOURCE_API_ANSWER_FORMATS.join(', ')}` })
    .nullable(),
);

/** One row of a source's campaign map: a platform's campaign id and the service its leads are for. */
export const campaignServiceSchema = z.object({
  campaign_id: requiredText('Campaign id is required', 100),
  service: serviceName('Service').pipe(z.string().min(1, 'Service is required')),
});
export type CampaignService = z.infer<typeof campaignServiceSchema>;

/** The campaign map, sent whole; campaign ids are unique within the source. */
const campaignServiceList = z
  .array(campaignServiceSchema)
  .max(200, 'At most 200 campaign ids')
  .superRefine((rows, ctx) => {
    for (const i of repeatedIndexes(rows, (row) => row.campaign_id))
      ctx.addIssue({ code: 'custom', path: [i, 'campaign_id'], message: 'Campaign ids must be unique' });
  });

const sourceFields = {
  name: requiredText('Name is required', 200),
  email: emailAddress('Email is required'),
  phone: requiredText('Phone is required', 40),
  contactName: optionalText(200),
  address: optionalText(200),
  city: optionalText(100),
  state: usState,
  zip: zipCode,
  website: optionalText(300),
  notes: optionalText(5000),
  tags: tagList,
  tier: tier.optional(),
  canPostLead: yesNo('Can Post Direct'),
  max_cost: leadCost,
  channels: channelList,
  default_service: defaultService.optional(),
  campaign_services: campaignServiceList,
  answer_format: answerFormat.optional(),
};

/** POST /api/source: the Source form (admin §5). */
export const sourceCreateSchema = z.object({
  ...sourceFields,
  tags: sourceFields.tags.default([]),
  canPostLead: sourceFields.canPostLead.default(false),
  channels: sourceFields.channels.default([]),
  campaign_services: sourceFields.campaign_services.default([]),
});
export type SourceCreate = z.infer<typeof sourceCreateSchema>;

/** PUT /api/source/{id}: only the changed fields; `channels`, when sent, replaces them all. */
export const sourceUpdateSchema = z.object(sourceFields).partial();
export type SourceUpdate = z.infer<typeof sourceUpdateSchema>;

/** The Source User Details modal: name and email are required (admin §5). */
export const sourceUserSchema = z.object({
  name: requiredText('Name is required', 200),
  email: emailAddress('Email is required'),
});
export type SourceUserInput = z.infer<typeof sourceUserSchema>;

/**
 * PUT /api/source/{id}/approve: the payout may be set with the approval (issue 27: a self-signed-up
 * source is approved only with one, its lead cost or a channel's max cost). No body at all is fine.
 */
export const sourceApproveSchema = z.object({ max_cost: leadCost }).nullish();
export type SourceApprove = NonNullable<z.infer<typeof sourceApproveSchema>>;

/** What approval answers when the source would be paid nothing (issue 27). */
export const APPROVAL_NEEDS_PAYOUT =
  "Set this source's Lead Cost (or a channel's max cost) before approving it: it would be paid nothing per lead";

/**
 * Whether a self-signed-up source (DESIGN.md §8) has no payout at all (no lead cost, no channel with a max
 * cost): it cannot sell real leads until the exchange sets one (issue 27). Only these need one: an
 * admin's source without a lead cost is internal (DESIGN.md §5).
 */
export function needsPayout(
  source: { selfSignedUp: boolean; maxCostCents: number | null },
  channels: readonly { maxCostCents: number | null }[],
): boolean {
  return source.selfSignedUp && source.maxCostCents === null && channels.every((c) => c.maxCostCents === null);
}

/** PUT /api/source/{id}/hold: an optional reason, kept with the hold (no body at all is fine). */
export const sourceHoldSchema = z.object({ reason: optionalText(500) }).nullish();

/** An expiration as epoch seconds, or a date text ('2026-12-31'); empty means none. */
const expiration = z.preprocess(
  (v) => {
    if (v === null || (typeof v === 'string' && v.trim() === '')) return undefined;
    if (typeof v === 'string' && !/^\d+$/.test(v.trim())) {
      const ms = Date.parse(v);
      return Number.isNaN(ms) ? v : Math.floor(ms / 1000);
    }
    return numericText(v);
  },
  z
    .number({ error: 'Expiration must be a date' })
    .int('Expiration must be a date')
    .positive()
    .refine((seconds) => isWithinDateBounds(new Date(seconds * 1000)), dateOutOfBounds('Expiration'))
    .optional(),
);

/** PUT /api/source/{id}/apikey/new: everything optional (a name is chosen, the source's direct posting applies). */
export const apiKeyCreateSchema = z
  .object({
    name: optionalText(100),
    canPostLead: yesNo('Can Post Lead').optional(),
    expiration,
    /** The service of a lead sent with this key without one; wins over the source's default. */
    default_service: defaultService.optional(),
  })
  .nullish();
export type ApiKeyCreate = NonNullable<z.infer<typeof apiKeyCreateSchema>>;

/** PUT /api/source/{id}/apikey/hold: the key is named. */
export const apiKeyHoldSchema = z.object({ name: requiredText('API key name is required', 100) });

export const sourceListQuery = pageQuery(PAGE_SIZE.sources).extend({
  name: z.string().trim().max(200).optional(),
  sort: z.enum(['name', 'ts']).optional(),
});
export type SourceListQuery = z.infer<typeof sourceListQuery>;

export const SOURCE_INCLUDES = ['users', 'leads'] as const;
/** `?include=users&include=leads` or `?include=users,leads`. */
export const sourceGetQuery = z.object({
  include: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(','))))
    // An unknown part is a mistake worth a 400 naming the field, not a silently smaller answer.
    .refine((parts) => parts.every((part) => (SOURCE_INCLUDES as readonly string[]).includes(part)), {
      error: `include takes ${SOURCE_INCLUDES.join(' and ')}`,
    }),
});

/** The derived source status (admin §4). */
export const SOURCE_STATUSES = ['Active', 'On Hold', 'Test Sent', 'No Activity'] as const;
export type SourceStatus = (typeof SOURCE_STATUSES)[number];

/** What the source status is derived from: its hold and the last (test) lead and ping, as epoch seconds. */
export interface SourceActivity {
  hold?: { ts: number } | null;
  lastLeadSent?: number | null;
  lastPingSent?: number | null;
  lastTestLeadSent?: number | null;
  lastTestPingSent?: number | null;
}

/**
 * Admin §4: On Hold when held; Active when a real lead or ping was sent; Test Sent when only test
 * leads or pings were; otherwise No Activity.
 */
export function sourceStatus(source: SourceActivity): SourceStatus {
  if (source.hold) return 'On Hold';
  if (source.lastLeadSent || source.lastPingSent) return 'Active';
  if (source.lastTestLeadSent || source.lastTestPingSent) return 'Test Sent';
  return 'No Activity';
}

export const API_KEY_STATUSES = ['Active', 'On hold', 'Expired'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

/**
 * Admin §4: On hold when it has a hold timestamp, Expired once its expiration (epoch seconds) has
 * passed, else Active. DESIGN.md §8: the spec's seconds-vs-milliseconds quirk is not kept.
 */
export function apiKeyStatus(key: { hold?: number | null; exp?: number | null }, nowSeconds: number): ApiKeyStatus {
  if (key.hold) return 'On hold';
  if (key.exp !== undefined && key.exp !== null && key.exp <= nowSeconds) return 'Expired';
  return 'Active';
}

export const sourceChannelAnswerSchema = z.object({
  name: z.string(),
  /** Dollars; null means the source's lead cost applies. */
  max_cost: z.number().nullable(),
});
export type SourceChannel = z.infer<typeof sourceChannelAnswerSchema>;

/** An API key as the admin and the source's own portal see it: the key is shown so it can be copied. */
export const sourceApiKeySchema = z.object({
  _id: z.string(),
  name: z.string(),
  key: z.string(),
  /** Epoch seconds when put on hold. */
  hold: z.number().optional(),
  /** Expiration, epoch seconds. */
  exp: z.number().optional(),
  canPostLead: z.boolean(),
  status: z.enum(API_KEY_STATUSES),
  ts: z.number(),
  /** The service of a lead sent with this key without one (issue 32 item 3). */
  default_service: z.string().optional(),
});
export type SourceApiKey = z.infer<typeof sourceApiKeySchema>;

export const sourceUserAnswerSchema = portalUserAnswerSchema;
export type SourceUser = z.infer<typeof sourceUserAnswerSchema>;

/** One of the source's latest leads (include=leads); `price` (the buyers' revenue) only for admins. */
export const sourceLeadSchema = leadRowSchema.extend({
  channel: z.string().optional(),
  /** What the source is paid, dollars. */
  cost: z.number(),
  price: z.number().optional(),
  sold: z.boolean(),
  test: z.boolean(),
});
export type SourceLead = z.infer<typeof sourceLeadSchema>;

export const sourceSchema = contactSchema.extend({
  _id: z.string(),
  name: z.string(),
  contactName: z.string().optional(),
  website: z.string().optional(),
  notes: z.string().optional(),
  tags: z.array(z.string()),
  tier: z.number().optional(),
  canPostLead: z.boolean(),
  /** Lead cost in dollars; absent for an internal source. */
  max_cost: z.number().optional(),
  /** False for a self-signed-up source awaiting an admin's approval: it may only test until then. */
  approved: z.boolean(),
  /**
   * True for a self-signed-up source with no payout (no lead cost, no channel's max cost): it cannot
   * sell real leads until the exchange sets one (issue 27).
   */
  needs_payout: z.boolean(),
  channels: z.array(sourceChannelAnswerSchema),
  /** The service of a lead sent without one, when its key has none (issue 32 item 3). */
  default_service: z.string().optional(),
  /** A platform's campaign id -> the service of a lead sent without one (issue 32 item 3). */
  campaign_services: z.array(z.object({ campaign_id: z.string(), service: z.string() })),
  /** How the public API answers the source when a request names no format (issue 32 item 7); absent: JSON. */
  answer_format: z.enum(SOURCE_API_ANSWER_FORMATS).optional(),
  hold: z.object({ ts: z.number(), reason: z.string().optional() }).optional(),
  lastLeadSent: z.number().optional(),
  lastPingSent: z.number().optional(),
  lastTestLeadSent: z.number().optional(),
  lastTestPingSent: z.number().optional(),
  status: z.enum(SOURCE_STATUSES),
  ts: z.number(),
  apikeys: z.array(sourceApiKeySchema),
  users: z.array(sourceUserAnswerSchema).optional(),
  leads: z.array(sourceLeadSchema).optional(),
});
export type Source = z.infer<typeof sourceSchema>;

/** The sources list row (admin §2: name, email, phone, status), with channels for the campaign screens. */
export const sourceListItemSchema = sourceSchema.pick({
  _id: true,
  name: true,
  email: true,
  phone: true,
  status: true,
  channels: true,
  hold: true,
  canPostLead: true,
  max_cost: true,
  approved: true,
  needs_payout: true,
  ts: true,
});
export type SourceListItem = z.infer<typeof sourceListItemSchema>;

/** How many of a source's latest leads its detail page shows. */
export const SOURCE_DETAIL_LEADS = 25;

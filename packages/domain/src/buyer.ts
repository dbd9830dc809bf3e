import { z } from 'zod';
import { billTermsAnswerSchema } from './bill';
import {
  CAMPAIGN_STATUSES,
  campaignNotifyAnswerSchema,
  campaignNotifySchema,
  campaignSchema,
  MAX_BUDGET,
} from './campaign';
import {
  contactSchema,
  emailAddress,
  leadRowSchema,
  optionalDollars,
  optionalText,
  pageQuery,
  portalUserAnswerSchema,
  requiredText,
  tagList,
  usState,
  zipCode,
} from './common';
import { BILL_PERIODS, GRACE_DAYS, MAX_BILLING_DOLLARS, PAGE_SIZE, PAY_METHODS } from './constants';
import { whenMissing } from './messages';

export const USERNAME_MESSAGES = {
  required: 'Username is required',
  tooShort: 'Usernames must be at least 4 characters long.',
  badCharacters: 'Username must contain only alphanumeric, underscore or hyphen characters.',
} as const;

/**
 * Sign-in name rules shared by the buyer form, user invitations and sign-up (spec §5); sign-up says
 * an empty one in its own words.
 */
export const usernameField = (requiredMessage: string = USERNAME_MESSAGES.required) =>
  z
    .string({ error: whenMissing(requiredMessage) })
    .trim()
    .min(1, requiredMessage)
    .min(4, USERNAME_MESSAGES.tooShort)
    .max(64, 'Username must be at most 64 characters')
    .regex(/^[a-z0-9_-]+$/, USERNAME_MESSAGES.badCharacters);

export const username = usernameField();

/** Whole dollars from 0 to 100000 (prepay balance, credit threshold). */
const wholeDollars = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number of dollars`)
    .min(0, `${label} must be at least 0`)
    .max(MAX_BILLING_DOLLARS, `${label} must be less than or equal to ${MAX_BILLING_DOLLARS}`);

const billFields = {
  pay: z.enum(PAY_METHODS, { error: whenMissing('Payment method is required') }),
  prepay: wholeDollars('Prepay'),
  period: z.enum(BILL_PERIODS, { error: 'Billing period must be weekly or monthly' }),
  grace: z.coerce
    .number({ error: 'Grace period must be 0, 3, 5 or 7 days' })
    .refine((d) => (GRACE_DAYS as readonly number[]).includes(d), 'Grace period must be 0, 3, 5 or 7 days'),
  threshold: wholeDollars('Credit threshold'),
};

/** Billing of a new buyer: the pay method is required, the rest defaults (invoice, monthly, 3 days' grace). */
export const buyerBillSchema = z.object(
  {
    pay: billFields.pay,
    prepay: billFields.prepay.default(0),
    period: billFields.period.default('monthly'),
    grace: billFields.grace.default(3),
    threshold: billFields.threshold.default(0),
  },
  { error: whenMissing('Billing information is required') },
);
export type BuyerBill = z.infer<typeof buyerBillSchema>;

/**
 * Default lead delivery of a buyer (email list, SMS list, webhook, broadcast webhooks), copied onto
 * its new campaigns: the campaign's Lead Delivery rules and messages, so a bad entry marks its whole
 * list as the form shows it. Unlike a campaign, a buyer may have no default delivery at all.
 */
export const notifySchema = campaignNotifySchema;
export type Notify = z.infer<typeof notifySchema>;

/** Share of a bill's leads returned without an admin, 0 to 1 (the form's slider shows 0 to 100%). */
const autoApproveReturns = z.coerce
  .number({ error: 'Auto Approve Returns must be a number' })
  .min(0, 'Auto Approve Returns must be at least 0')
  .max(1, 'Auto Approve Returns must be at most 100%');

/**
 * Whether the buyer sees each lead's source (issue 27): off by default, exchanges keep their
 * suppliers from their buyers; only an admin turns it on (docs/decisions.md).
 */
const showSource = z.boolean({ error: 'Show Lead Sources must be on or off' });

/**
 * A buyer's legal names (issue 34 item 4): each as registered ("Acme Home Services, LLC"); the
 * named-consent rule reads them case-insensitively, without punctuation or "Inc."/"LLC" (compliance.ts).
 */
const legalNamesSchema = z
  .array(z.string().trim().min(1, 'A legal name cannot be empty').max(200, 'A legal name is at most 200 characters'), {
    error: 'Legal names must be a list of names',
  })
  .max(20, 'At most 20 legal names')
  .refine((names) => names.every((n) => /[A-Za-z0-9]/.test(n)), 'A legal name needs a letter or a digit');

const buyerFields = {
  name: requiredText('Name is required', 200),
  email: emailAddress('Email is required'),
  phone: requiredText('Phone is required', 40),
  address: optionalText(200),
  city: optionalText(100),
  state: usState,
  zip: zipCode,
  notes: optionalText(5000),
  tags: tagList.default([]),
  notify: notifySchema.default({ email: [], sms: [], broadcast_webhooks: [] }),
  bill: buyerBillSchema,
  autoApproveReturns: autoApproveReturns.default(0),
  showSource: showSource.default(false),
  /** The buyer's daily budget across its campaigns, in dollars (issue 33); empty = none. */
  budget_daily: optionalDollars('Daily budget', MAX_BUDGET),
  /** The company's legal names, as consent must name it (issue 34 item 4). */
  legal_names: legalNamesSchema.optional(),
};

/** PUT /api/buyer/{id}/legal-names: the buyer (its portal, its API key holder) or the admin names the company. */
export const buyerLegalNamesSchema = z.object({ legal_names: legalNamesSchema });
export type BuyerLegalNames = z.infer<typeof buyerLegalNamesSchema>;

/** POST /api/buyer: the buyer and its primary user's sign-in (Username, Email). */
export const buyerCreateSchema = z.object({ username, ...buyerFields });
export type BuyerCreate = z.infer<typeof buyerCreateSchema>;

/**
 * PUT /api/buyer/{id}: only the changed fields. The username is the primary user's sign-in and
 * cannot change after creation.
 */
export const buyerUpdateSchema = z
  .object({
    name: buyerFields.name,
    email: buyerFields.email,
    phone: buyerFields.phone,
    address: buyerFields.address,
    city: buyerFields.city,
    state: buyerFields.state,
    zip: buyerFields.zip,
    notes: buyerFields.notes,
    tags: tagList,
    notify: notifySchema,
    // No defaults here: a field not sent is a field not changed.
    bill: z.object(billFields).partial(),
    autoApproveReturns,
    showSource,
    budget_daily: buyerFields.budget_daily,
    legal_names: legalNamesSchema,
    username: z.never({ error: 'Username cannot be changed' }),
  })
  .partial();
export type BuyerUpdate = z.infer<typeof buyerUpdateSchema>;

/** A buyer as the API answers it (DESIGN.md §4: `ts` in epoch seconds, money in dollars). */
export const buyerUserAnswerSchema = portalUserAnswerSchema.extend({ username: z.string().optional() });
export type BuyerUser = z.infer<typeof buyerUserAnswerSchema>;

/** A campaign in the buyer's Campaigns table (admin §2: services, zips, price, exclusive, status). */
export const buyerCampaignSchema = campaignSchema
  .pick({
    _id: true,
    name: true,
    fixed_id: true,
    services: true,
    location: true,
    state: true,
    zips: true,
    zipset: true,
    zipset_name: true,
    price: true,
    exclusive: true,
    shared_price: true,
    // The buyer's last custom delivery failure (the same on each of its campaigns), or null.
    delivery_failure: true,
  })
  .extend({ status: z.record(z.enum(CAMPAIGN_STATUSES), z.boolean()) });
export type BuyerCampaign = z.infer<typeof buyerCampaignSchema>;

/** A lead sold to the buyer; `price` is what this buyer paid for it. */
export const buyerLeadSchema = leadRowSchema.extend({ price: z.number() });
export type BuyerLead = z.infer<typeof buyerLeadSchema>;

/** A buyer as the API answers it (DESIGN.md §4: `ts` in epoch seconds, money in dollars). */
export const buyerSchema = contactSchema.extend({
  _id: z.string(),
  username: z.string(),
  name: z.string(),
  notes: z.string().optional(),
  tags: z.array(z.string()),
  notify: campaignNotifyAnswerSchema,
  bill: billTermsAnswerSchema.extend({ stripe: z.string().optional() }),
  autoApproveReturns: z.number(),
  /** Whether the buyer sees each lead's source (its bills' Source column, its leads' `source`). */
  showSource: z.boolean(),
  /** The daily budget across the buyer's campaigns, in dollars; null = none (issue 33). */
  budget_daily: z.number().nullable(),
  /** The legal names a consumer's consent must name for a named-consent campaign (issue 34 item 4). */
  legal_names: z.array(z.string()),
  /** Dollars spent today against it, in the exchange's zone (the buyer detail only). */
  spent_today: z.number().optional(),
  ts: z.number(),
  users: z.array(buyerUserAnswerSchema).optional(),
  /** The buyer's campaigns, on `include=matches`. */
  matches: z.array(buyerCampaignSchema).optional(),
  /** The latest leads sold to the buyer, newest first, on `include=leads`. */
  leads: z.array(buyerLeadSchema).optional(),
});
export type Buyer = z.infer<typeof buyerSchema>;

/** How many of the latest leads GET /api/buyer/{id}?include=leads answers. */
export const BUYER_DETAIL_LEADS = 50;

/** Admin §4: the reason sent when the admin pauses all campaigns of a buyer. */
export const PAUSE_ALL_REASON = 'Admin paused all campaigns';

/** PUT /api/buyer/{id}/pause: pauses every live campaign of the buyer, with the reason recorded. */
export const buyerPauseSchema = z.object(
  { reason: requiredText('Reason is required', 500) },
  { error: whenMissing('Reason is required') },
);
export type BuyerPause = z.infer<typeof buyerPauseSchema>;

/** The answer of PUT /api/buyer/{id}/pause: how many campaigns were live and are paused now. */
export const buyerPauseResultSchema = z.object({ paused: z.number() });
export type BuyerPauseResult = z.infer<typeof buyerPauseResultSchema>;

/** The buyers list row (admin §2 Buyers list: Buyer, User, email, phone, state, zip). */
export const buyerListItemSchema = buyerSchema.pick({
  _id: true,
  name: true,
  username: true,
  email: true,
  phone: true,
  state: true,
  zip: true,
  ts: true,
});
export type BuyerListItem = z.infer<typeof buyerListItemSchema>;

export const buyerListQuery = pageQuery(PAGE_SIZE.buyers).extend({
  name: z.string().trim().max(200).optional(),
  sort: z.enum(['name', 'ts']).optional(),
});
export type BuyerListQuery = z.infer<typeof buyerListQuery>;

export const BUYER_INCLUDES = ['users', 'matches', 'leads'] as const;
export const buyerGetQuery = z.object({
  include: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')))),
});

/** The Buyer User Details modal: name and email are required (admin §5). */
export const buyerUserSchema = z.object({
  name: requiredText('Name is required', 200),
  email: emailAddress('Email is required'),
});

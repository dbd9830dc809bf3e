import type { StoredFieldFilter } from '@leadex/domain';
import { boolean, index, integer, jsonb, pgTable, primaryKey, real, text } from 'drizzle-orm/pg-core';
import type { CampaignTime } from '../../lib/time';
import type { NotifyConfig } from './buyers';
import { buyers } from './buyers';
import { parentId, primaryId, requiredRef, timestamps, timestamptz } from './columns';
import { sources } from './sources';
import { zipsets } from './zips';

export type { CampaignTime } from '../../lib/time';

export const campaigns = pgTable(
  'campaigns',
  {
    id: primaryId(),
    buyerId: requiredRef('buyer_id', () => buyers.id),
    name: text('name').notNull(),
    /** The Branded Id a source sends as `campaign` to target this campaign. */
    fixedId: text('fixed_id').notNull().unique(),
    priceCents: integer('price_cents').notNull(),
    shared: boolean('shared').notNull().default(false),
    sharedPriceCents: integer('shared_price_cents'),
    services: text('services').array().notNull().default([]),
    /** state, zip or zipset. */
    location: text('location').notNull().default('state'),
    states: text('states').array().notNull().default([]),
    zips: text('zips').array().notNull().default([]),
    zipsetId: text('zipset_id').references(() => zipsets.id),
    maxHourly: integer('max_hourly'),
    maxDaily: integer('max_daily'),
    maxWeekly: integer('max_weekly'),
    maxMonthly: integer('max_monthly'),
    /** Budget caps in cents (issue 33): null = no budget; counted like the lead caps, in budget_counters. */
    budgetDailyCents: integer('budget_daily_cents'),
    budgetWeeklyCents: integer('budget_weekly_cents'),
    budgetMonthlyCents: integer('budget_monthly_cents'),
    /** Rules on the fields of the campaign's services (issue 33): money in cents, with each field's type. */
    fieldFilters: jsonb('field_filters').$type<StoredFieldFilter[]>().notNull().default([]),
    notify: jsonb('notify').$type<NotifyConfig>(),
    time: jsonb('time').$type<CampaignTime>(),
    /** live, draft or pause. */
    status: text('status').notNull().default('draft'),
    notes: text('notes'),
    tags: text('tags').array().notNull().default([]),
    lastSoldAt: timestamptz('last_sold_at'),
    /** Buys only leads whose consent language names one of its buyer's legal names (issue 34 item 4). */
    requireNamedConsent: boolean('require_named_consent').notNull().default(false),
    /** Refuses a lead that arrives outside the consumer's calling window: its buyer calls at once (issue 34 item 5). */
    refuseOutsideCallingWindow: boolean('refuse_outside_calling_window').notNull().default(false),
    ...timestamps(),
  },
  (t) => [index('campaigns_buyer_id_idx').on(t.buyerId), index('campaigns_status_idx').on(t.status)],
);

/** The status history of a campaign. */
export const campaignStatusEvents = pgTable(
  'campaign_status_events',
  {
    id: primaryId(),
    campaignId: parentId('campaign_id', () => campaigns.id),
    status: text('status').notNull(),
    reason: text('reason'),
    /** The user who changed it, or `system`. */
    actor: text('actor').notNull(),
    at: timestamptz('at').notNull(),
  },
  (t) => [index('campaign_status_events_campaign_idx').on(t.campaignId, t.at)],
);

/** Source restrictions: who may sell to the campaign, at what price, what share. */
export const campaignSourceFilters = pgTable(
  'campaign_source_filters',
  {
    id: primaryId(),
    campaignId: parentId('campaign_id', () => campaigns.id),
    sourceId: requiredRef('source_id', () => sources.id),
    channel: text('channel'),
    priceCents: integer('price_cents'),
    sharedPriceCents: integer('shared_price_cents'),
    /** Share of the source's leads admitted, 0 to 1. */
    pct: real('pct').notNull().default(1),
  },
  (t) => [index('campaign_source_filters_campaign_idx').on(t.campaignId)],
);

/** Leads sold per campaign and cap period; incremented atomically in the sale (DESIGN.md §5). */
export const capCounters = pgTable(
  'cap_counters',
  {
    campaignId: parentId('campaign_id', () => campaigns.id),
    /** hourly, daily, weekly or monthly. */
    period: text('period').notNull(),
    periodStart: timestamptz('period_start').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.period, t.periodStart] })],
);

/**
 * Cents spent per campaign or buyer and budget period (issue 33), raised atomically in the sale like
 * cap_counters. `owner_id` is a campaign id (periods daily, weekly, monthly) or a buyer id (period
 * buyer_daily); no foreign key, since it names either.
 */
export const budgetCounters = pgTable(
  'budget_counters',
  {
    ownerId: text('owner_id').notNull(),
    /** daily, weekly or monthly (a campaign's); buyer_daily (a buyer's). */
    period: text('period').notNull(),
    periodStart: timestamptz('period_start').notNull(),
    spentCents: integer('spent_cents').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.ownerId, t.period, t.periodStart] })],
);

import { boolean, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp } from 'drizzle-orm/pg-core';
import type { NotifyConfig } from './buyers';
import { buyers } from './buyers';
import { timestamps } from './columns';
import { sources } from './sources';
import { zipsets } from './zips';

/** Hours a campaign takes leads, in its own time zone (DESIGN.md §5 rule 4). */
export interface CampaignTime {
  zone: string;
  weekday: { start: number; end: number };
  weekend: { start: number; end: number };
}

export const campaigns = pgTable(
  'campaigns',
  {
    id: text('id').primaryKey(),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => buyers.id),
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
    notify: jsonb('notify').$type<NotifyConfig>(),
    time: jsonb('time').$type<CampaignTime>(),
    /** live, draft or pause. */
    status: text('status').notNull().default('draft'),
    notes: text('notes'),
    tags: text('tags').array().notNull().default([]),
    lastSoldAt: timestamp('last_sold_at', { withTimezone: true }),
    ...timestamps(),
  },
  (t) => [index('campaigns_buyer_id_idx').on(t.buyerId), index('campaigns_status_idx').on(t.status)],
);

/** The status history of a campaign. */
export const campaignStatusEvents = pgTable(
  'campaign_status_events',
  {
    id: text('id').primaryKey(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    reason: text('reason'),
    /** The user who changed it, or `system`. */
    actor: text('actor').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('campaign_status_events_campaign_idx').on(t.campaignId, t.at)],
);

/** Source restrictions: who may sell to the campaign, at what price, what share. */
export const campaignSourceFilters = pgTable(
  'campaign_source_filters',
  {
    id: text('id').primaryKey(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    sourceId: text('source_id')
      .notNull()
      .references(() => sources.id),
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
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    /** hourly, daily, weekly or monthly. */
    period: text('period').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.period, t.periodStart] })],
);

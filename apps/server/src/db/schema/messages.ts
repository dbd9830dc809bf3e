import type { ServiceFieldStage, ServiceFieldType } from '@leadex/domain';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { primaryId, timestamps, timestamptz } from './columns';

/** Messages for the admins: undelivered leads, buyers' "Message Us", system events. */
export const messages = pgTable(
  'messages',
  {
    id: primaryId(),
    text: text('text').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
    hiddenAt: timestamptz('hidden_at'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('messages_created_at_idx').on(t.createdAt)],
);

/** Outgoing mail or SMS kept because no provider is configured, or before a provider took it. */
export const outbox = pgTable(
  'outbox',
  {
    id: primaryId(),
    /** email or sms. */
    channel: text('channel').notNull(),
    to: text('to').notNull(),
    subject: text('subject'),
    text: text('text').notNull(),
    html: text('html'),
    /** pending (no provider), sent (a provider accepted it) or failed. */
    status: text('status').notNull(),
    error: text('error'),
    createdAt: timestamptz('created_at').notNull(),
    sentAt: timestamptz('sent_at'),
  },
  (t) => [index('outbox_created_at_idx').on(t.createdAt)],
);

/** Key/value settings (revenue target, shared buyers N, duplicate window, mock date, integrations). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  /** Category, as in GET /api/setting/allForCat/{cat}. */
  category: text('category').notNull().default('general'),
  value: jsonb('value').notNull(),
  updatedAt: timestamptz('updated_at').notNull(),
});

/** The services leads are sold for (roofing, solar, …). */
export const services = pgTable('services', {
  name: text('name').primaryKey(),
  label: text('label').notNull(),
  /** Medicare marketing (42 CFR 422.2274): every campaign buys its leads only with consent naming the buyer. */
  medicare: boolean('medicare').notNull().default(false),
});

/**
 * The fields a service's leads carry beyond the fixed ones (issue 33), defined by the admin. Never
 * deleted: a removed field stays, flagged, so old leads still show it with its label.
 */
export const serviceFields = pgTable(
  'service_fields',
  {
    service: text('service')
      .notNull()
      .references(() => services.name, { onDelete: 'cascade', onUpdate: 'cascade' }),
    key: text('key').notNull(),
    /** The order the screens, the docs and the CSV show the service's fields in. */
    position: integer('position').notNull(),
    label: text('label').notNull(),
    type: text('type').$type<ServiceFieldType>().notNull(),
    options: text('options').array().notNull().default([]),
    required: boolean('required').notNull().default(false),
    stage: text('stage').$type<ServiceFieldStage>().notNull().default('post'),
    personal: boolean('personal').notNull().default(false),
    aliases: text('aliases').array().notNull().default([]),
    help: text('help').notNull().default(''),
    removed: boolean('removed').notNull().default(false),
    ...timestamps(),
  },
  (t) => [primaryKey({ columns: [t.service, t.key] }), index('service_fields_position_idx').on(t.service, t.position)],
);

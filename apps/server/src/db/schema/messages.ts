import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Messages for the admins: undelivered leads, buyers' "Message Us", system events. */
export const messages = pgTable(
  'messages',
  {
    id: text('id').primaryKey(),
    text: text('text').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('messages_created_at_idx').on(t.createdAt)],
);

/** Outgoing mail or SMS kept because no provider is configured, or before a provider took it. */
export const outbox = pgTable(
  'outbox',
  {
    id: text('id').primaryKey(),
    /** email or sms. */
    channel: text('channel').notNull(),
    to: text('to').notNull(),
    subject: text('subject'),
    text: text('text').notNull(),
    html: text('html'),
    /** pending (no provider), sent (a provider accepted it) or failed. */
    status: text('status').notNull(),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('outbox_created_at_idx').on(t.createdAt)],
);

/** Key/value settings (revenue target, shared buyers N, duplicate window, mock date, integrations). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  /** Category, as in GET /api/setting/allForCat/{cat}. */
  category: text('category').notNull().default('general'),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** The services leads are sold for (roofing, solar, …). */
export const services = pgTable('services', {
  name: text('name').primaryKey(),
  label: text('label').notNull(),
});

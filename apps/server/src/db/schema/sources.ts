import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { contactColumns, timestamps } from './columns';

export const sources = pgTable('sources', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  contactName: text('contact_name'),
  ...contactColumns(),
  website: text('website'),
  notes: text('notes'),
  tags: text('tags').array().notNull().default([]),
  tier: integer('tier'),
  canPostLead: boolean('can_post_lead').notNull().default(false),
  /** Payout per sold lead; null for an internal source (paid nothing, DESIGN.md §5). */
  maxCostCents: integer('max_cost_cents'),
  /** A self-signed-up source sells real leads only once an admin approves it. */
  approvedAt: timestamp('approved_at', { withTimezone: true }),
  heldAt: timestamp('held_at', { withTimezone: true }),
  holdReason: text('hold_reason'),
  lastLeadSentAt: timestamp('last_lead_sent_at', { withTimezone: true }),
  lastPingSentAt: timestamp('last_ping_sent_at', { withTimezone: true }),
  lastTestLeadSentAt: timestamp('last_test_lead_sent_at', { withTimezone: true }),
  lastTestPingSentAt: timestamp('last_test_ping_sent_at', { withTimezone: true }),
  ...timestamps(),
});

export const sourceChannels = pgTable(
  'source_channels',
  {
    id: text('id').primaryKey(),
    sourceId: text('source_id')
      .notNull()
      .references(() => sources.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    maxCostCents: integer('max_cost_cents'),
  },
  (t) => [uniqueIndex('source_channels_source_name_idx').on(t.sourceId, t.name)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    sourceId: text('source_id')
      .notNull()
      .references(() => sources.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Readable start of the key, shown in logs and lists. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the key: the look-up on every public API call. */
    keyHash: text('key_hash').notNull().unique(),
    /** AES-GCM copy (key from LEADEX_SECRET) so the portal can show the key; never the plain key. */
    keyEncrypted: text('key_encrypted').notNull(),
    canPostLead: boolean('can_post_lead').notNull().default(false),
    heldAt: timestamp('held_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('api_keys_source_id_idx').on(t.sourceId)],
);

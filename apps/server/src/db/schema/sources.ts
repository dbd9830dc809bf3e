import type { SourceApiAnswerFormat } from '@leadex/domain';
import { boolean, date, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { contactColumns, parentId, primaryId, requiredRef, timestamps, timestamptz } from './columns';

export const sources = pgTable('sources', {
  id: primaryId(),
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
  approvedAt: timestamptz('approved_at'),
  /**
   * Made by the sign-up form, not by an admin: such a source needs a payout to sell real leads (issue 27),
   * where an admin's source without a lead cost is internal (DESIGN.md §5).
   */
  selfSignedUp: boolean('self_signed_up').notNull().default(false),
  /** The service of a lead sent without one (issue 32 item 3); a key's own default wins over it. */
  defaultService: text('default_service'),
  /**
   * How the public API answers this source when its request names no `response_format` (issue 32 item 7):
   * one of SOURCE_API_ANSWER_FORMATS; null for the default JSON.
   */
  answerFormat: text('answer_format').$type<SourceApiAnswerFormat>(),
  /**
   * The platform campaign ids (LeadsPedia's `lp_campaign_id`, boberdoo's `TYPE`, …) -> our service, for a
   * lead sent without `service`; read whole (DESIGN.md §10: jsonb for configuration).
   */
  campaignServices: jsonb('campaign_services')
    .$type<{ campaign_id: string; service: string }[]>()
    .notNull()
    .default([]),
  heldAt: timestamptz('held_at'),
  holdReason: text('hold_reason'),
  lastLeadSentAt: timestamptz('last_lead_sent_at'),
  lastPingSentAt: timestamptz('last_ping_sent_at'),
  lastTestLeadSentAt: timestamptz('last_test_lead_sent_at'),
  lastTestPingSentAt: timestamptz('last_test_ping_sent_at'),
  ...timestamps(),
});

export const sourceChannels = pgTable(
  'source_channels',
  {
    id: primaryId(),
    sourceId: parentId('source_id', () => sources.id),
    name: text('name').notNull(),
    maxCostCents: integer('max_cost_cents'),
  },
  (t) => [uniqueIndex('source_channels_source_name_idx').on(t.sourceId, t.name)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: primaryId(),
    sourceId: parentId('source_id', () => sources.id),
    name: text('name').notNull(),
    /** Readable start of the key, shown in logs and lists. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the key: the look-up on every public API call. */
    keyHash: text('key_hash').notNull().unique(),
    /** AES-GCM copy (key from LEADEX_SECRET) so the portal can show the key; never the plain key. */
    keyEncrypted: text('key_encrypted').notNull(),
    canPostLead: boolean('can_post_lead').notNull().default(false),
    /** The service of a lead sent with this key without one (issue 32 item 3): wins over the source's. */
    defaultService: text('default_service'),
    heldAt: timestamptz('held_at'),
    expiresAt: timestamptz('expires_at'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('api_keys_source_id_idx').on(t.sourceId)],
);

/**
 * A day's ad spend of an internal source (DESIGN.md §11 Integrations): imported from an ad integration
 * or entered by an admin; it is the cost of the source's leads on the dashboard and in the reports.
 * One row per New York day, source and origin (an import or an entry replaces its own row only).
 */
export const adSpend = pgTable(
  'ad_spend',
  {
    id: primaryId(),
    day: date('day', { mode: 'string' }).notNull(),
    sourceId: requiredRef('source_id', () => sources.id),
    /** manual, facebook-ads or google-ads. */
    origin: text('origin').notNull(),
    amountCents: integer('amount_cents').notNull(),
    updatedAt: timestamptz('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('ad_spend_day_source_origin_idx').on(t.day, t.sourceId, t.origin),
    index('ad_spend_source_day_idx').on(t.sourceId, t.day),
  ],
);

import type { WebhookPing } from '@leadex/domain';
import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { buyers } from './buyers';
import { primaryId, requiredRef, timestamps, timestamptz } from './columns';

export interface FieldValue {
  field: string;
  value: string;
}

/** A buyer's custom delivery (spec §3 Delivery); lists read whole, so jsonb. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: primaryId(),
    buyerId: requiredRef('buyer_id', () => buyers.id),
    name: text('name').notNull(),
    url: text('url').notNull(),
    method: text('method').notNull().default('POST'),
    headers: jsonb('headers').$type<{ header: string; value: string }[]>().notNull().default([]),
    accept: jsonb('accept').$type<FieldValue[]>().notNull().default([]),
    map: jsonb('map').$type<FieldValue[]>().notNull().default([]),
    static: jsonb('static').$type<FieldValue[]>().notNull().default([]),
    key: text('key'),
    keyName: text('key_name'),
    secret: text('secret'),
    secretName: text('secret_name'),
    returnId: text('return_id'),
    /** The answer's field holding the buyer's reason for not accepting a lead (issue 32). */
    reasonField: text('reason_field'),
    /** The "try again" rules: all hold -> the delivery is retried, not refused (issue 32). */
    retry: jsonb('retry').$type<FieldValue[]>().notNull().default([]),
    sendContentType: text('send_content_type').notNull().default('json'),
    returnContentType: text('return_content_type').notNull().default('json'),
    wrapKey: text('wrap_key'),
    /** The spec's type flag: `no_ping` is Direct, `ping_post` Ping/Post. */
    pingId: text('ping_id').notNull().default('no_ping'),
    /** Ping/Post: the ping asking the buyer's system for a bid (DESIGN.md §6); null for Direct. Read whole. */
    ping: jsonb('ping').$type<WebhookPing>(),
    status: text('status').notNull().default('draft'),
    tags: text('tags').array().notNull().default([]),
    /** The last failed delivery of a lead (DESIGN.md §6: shown in red on the buyer's campaigns); cleared by a success. */
    lastFailure: text('last_failure'),
    lastFailureAt: timestamptz('last_failure_at'),
    ...timestamps(),
  },
  (t) => [index('webhooks_buyer_idx').on(t.buyerId)],
);

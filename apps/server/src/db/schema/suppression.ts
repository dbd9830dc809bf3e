import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { buyers } from './buyers';
import { parentId, primaryId, timestamps, timestamptz } from './columns';

/**
 * A suppression list (issue 34 item 1): phones, emails or ZIPs nobody (a global list, `buyer_id`
 * null) or one buyer may be sold. Its entries are keyed hashes, so the list leaks nothing.
 */
export const suppressionLists = pgTable(
  'suppression_lists',
  {
    id: primaryId(),
    /** null: exchange-wide (every buyer); else the one buyer the list removes. */
    buyerId: text('buyer_id').references(() => buyers.id),
    name: text('name').notNull(),
    /** phone, email or zip: what every entry of the list is. */
    kind: text('kind').notNull(),
    /** do_not_contact, litigators, customers, opt_outs or other: what the list is for. */
    purpose: text('purpose').notNull().default('do_not_contact'),
    /** A list the exchange keeps itself (opt-outs, erasures): no route deletes it. */
    system: boolean('system').notNull().default(false),
    entryCount: integer('entry_count').notNull().default(0),
    ...timestamps(),
  },
  (t) => [
    index('suppression_lists_buyer_idx').on(t.buyerId),
    // One opt-out list per scope and kind, made on first use by whichever process gets there first.
    uniqueIndex('suppression_lists_system_idx').on(sql`coalesce(${t.buyerId}, '')`, t.kind).where(sql`${t.system}`),
  ],
);

/**
 * One entry: HMAC-SHA-256 (a key derived from LEADEX_SECRET) of `kind:normalised value`, in
 * base64url. The index on the hash alone serves the sale's lookup (every list at once).
 */
export const suppressionEntries = pgTable(
  'suppression_entries',
  {
    listId: parentId('list_id', () => suppressionLists.id),
    hash: text('hash').notNull(),
    /** manual, api, csv, opt_out or erasure. */
    source: text('source').notNull(),
    reason: text('reason'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.listId, t.hash] }), index('suppression_entries_hash_idx').on(t.hash)],
);

/**
 * A consumer's revocation of consent (issue 34 item 2), kept 10 years (`retain_until`): the
 * contact as a keyed hash and masked, how and when it was revoked, who recorded it.
 */
export const optOuts = pgTable(
  'opt_outs',
  {
    id: primaryId(),
    kind: text('kind').notNull(),
    hash: text('hash').notNull(),
    /** The contact masked (•••-•••-1234, j•••@example.com): enough to read the record, not to call. */
    masked: text('masked').notNull(),
    /** text_stop, call, email, web_form or other. */
    method: text('method').notNull(),
    revokedAt: timestamptz('revoked_at').notNull(),
    note: text('note'),
    /** The buyer that recorded it; null when the admin did. */
    recordedByBuyerId: text('recorded_by_buyer_id').references(() => buyers.id),
    recordedByUserId: text('recorded_by_user_id'),
    /** The buyers told (those that bought the consumer in the 5 years before). */
    notifiedBuyerIds: text('notified_buyer_ids').array().notNull().default([]),
    retainUntil: timestamptz('retain_until').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('opt_outs_hash_idx').on(t.hash), index('opt_outs_created_at_idx').on(t.createdAt)],
);

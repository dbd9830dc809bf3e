import type { FieldValue, LeadFieldFlag } from '@leadex/domain';
import { type SQL, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { callExchange, callTiming, parentId, primaryId, timestamptz } from './columns';

/**
 * The (Monday) week of a lead's arrival, in UTC: the key of the name search's index, written the same
 * in the index and in the queries, which the planner matches by expression.
 */
export const leadWeek = (createdAt: AnyPgColumn): SQL => sql`(date_trunc('week', ${createdAt} at time zone 'UTC'))`;

export const leads = pgTable(
  'leads',
  {
    id: primaryId(),
    /**
     * No foreign key to sources (nor from matches to campaigns and buyers): each sale would take a
     * KEY SHARE lock on those few hot rows, and concurrent sales would pile multixacts on them
     * (DESIGN.md §5: keep hot rows out of the sale). They are never deleted; the sale takes the
     * ids from the engine's index of existing rows.
     */
    sourceId: text('source_id').notNull(),
    channel: text('channel'),
    apiKeyId: text('api_key_id'),
    service: text('service').notNull(),
    zip: text('zip').notNull(),
    state: text('state'),
    city: text('city'),
    name: text('name'),
    firstName: text('first_name'),
    lastName: text('last_name'),
    address: text('address'),
    /** Ten digits, normalised. */
    phone: text('phone'),
    /** Lower-cased. */
    email: text('email'),
    tcpaConsent: boolean('tcpa_consent'),
    tcpaLanguage: text('tcpa_language'),
    /** A TrustedForm certificate URL as checked at the source API (issue 32 item 8); what failed the check is a field flag. */
    trustedForm: text('trusted_form'),
    /** A TrustedForm ping URL (https://ping.trustedform.com/…): not a certificate, and not personal. */
    trustedFormPingUrl: text('trusted_form_ping_url'),
    /** A Jornaya LeadiD token as checked at the source API. */
    jornaya: text('jornaya'),
    /** The consumer's IP and user agent as the source sent them; null when it sent none (never the poster's). */
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** The request that brought the lead: the poster's own address and client (issue 32 item 5), kept apart from the consumer's. */
    request: jsonb('request').$type<{ ip: string; user_agent?: string }>(),
    pubId: text('pub_id'),
    subId: text('sub_id'),
    homeowner: boolean('homeowner'),
    quality: jsonb('quality').$type<Record<string, unknown>>(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    /** The fields that could not be read or contradict another, with the value sent (issue 32 item 4); null: none. */
    fieldFlags: jsonb('field_flags').$type<LeadFieldFlag[]>(),
    /** The service's own fields (issue 33): `{ [key]: value }`, money in integer cents; what could not be read is a field flag. */
    fields: jsonb('fields').$type<Record<string, FieldValue>>().notNull().default({}),
    tags: text('tags').array().notNull().default([]),
    costCents: integer('cost_cents').notNull().default(0),
    priceCents: integer('price_cents').notNull().default(0),
    /** `no_ping` for a direct lead, else the ping's id. */
    pingId: text('ping_id').notNull().default('no_ping'),
    test: boolean('test').notNull().default(false),
    /** The answer the source got, replayed when it posts the same ping id again. */
    answer: jsonb('answer').$type<Record<string, unknown>>(),
    /** Every campaign considered and the first rule that excluded it, or the winning bids. */
    explanation: jsonb('explanation').$type<unknown[]>(),
    /**
     * Whether a buyer took it (an unrejected match), written with the lead by the sale, which is the
     * only time matches are added. The No Buyer list reads the unsold leads' own index instead of
     * probing the matches of every lead in the range.
     */
    sold: boolean('sold').notNull().default(false),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    // One lead per ping: a second post of the same ping id finds the first and never sells twice.
    uniqueIndex('leads_ping_id_idx').on(t.pingId).where(sql`${t.pingId} <> 'no_ping'`),
    // The lists' order (date, then id) and range, read from the index alone when counting (DESIGN.md §11).
    index('leads_created_id_idx').on(t.createdAt, t.id),
    index('leads_source_created_idx').on(t.sourceId, t.createdAt),
    index('leads_source_service_created_idx').on(t.sourceId, t.service, t.createdAt),
    // Name contains (ILIKE '%x%'): trigrams (pg_trgm and btree_gin, loaded in PGlite by db/client.ts). The
    // source in the same GIN index serves a source's own name search; an admin's uses the name alone. The
    // lead's UTC week narrows a search over a few months to their candidates within the index itself
    // (leadsRepo adds the weeks of the range), where a range of dates would be read from a second index.
    index('leads_source_week_name_trgm_idx').using('gin', t.sourceId, leadWeek(t.createdAt), t.name.op('gin_trgm_ops')),
    // A service filter by date, and the service sort (service, then the newest first) both ways.
    index('leads_service_created_idx').on(t.service, t.createdAt, t.id),
    // DESC NULLS FIRST, as ORDER BY … DESC means: with NULLS LAST the planner would not use it for that order.
    index('leads_service_newest_idx').on(t.service, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    // No Buyer: the unsold leads by date, counted from the index alone.
    index('leads_unsold_created_idx').on(t.createdAt, t.id).where(sql`not ${t.sold}`),
    // The tags in use (GET /api/tag/lead): the few tagged leads, not every lead's tags.
    index('leads_tagged_idx').on(t.id).where(sql`cardinality(${t.tags}) > 0`),
    // A ZIP filter over a range, from the index alone (the date checked, the id joined to a buyer's sales).
    index('leads_zip_created_idx').on(t.zip, t.createdAt, t.id),
    index('leads_phone_idx').on(t.phone),
    index('leads_email_idx').on(t.email),
  ],
);

export const leadMatches = pgTable(
  'lead_matches',
  {
    id: primaryId(),
    leadId: parentId('lead_id', () => leads.id),
    /** No foreign keys to campaigns and buyers: see `leads.source_id`. */
    campaignId: text('campaign_id').notNull(),
    buyerId: text('buyer_id').notNull(),
    /**
     * The lead's service, copied by the sale (and by an admin's edit of the lead's service), so a
     * buyer's list filtered by service reads the buyer's own sales index instead of every sale's lead.
     */
    service: text('service'),
    /** The lead's name, copied as the service is: a buyer's name search reads the buyer's own sales. */
    name: text('name'),
    /** exclusive or shared. */
    kind: text('kind').notNull(),
    priceCents: integer('price_cents').notNull(),
    rejected: boolean('rejected').notNull().default(false),
    buyerLeadId: text('buyer_lead_id'),
    billId: text('bill_id'),
    returnReason: text('return_reason'),
    returnComment: text('return_comment'),
    /** requested, approved or denied. */
    returnStatus: text('return_status'),
    returnRequestedAt: timestamptz('return_requested_at'),
    returnDecidedAt: timestamptz('return_decided_at'),
    returnDecidedBy: text('return_decided_by'),
    /**
     * The notify channels' outcome (DESIGN.md §6): pending (a new sale: the match is its own outbox
     * row), queued (jobs sent), delivered (a channel accepted it) or undelivered (none did: unbilled).
     */
    deliveryStatus: text('delivery_status').notNull().default('pending'),
    /** When the dispatcher queued the jobs: a match queued long ago with no outcome is re-queued. */
    deliveryQueuedAt: timestamptz('delivery_queued_at'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    index('lead_matches_lead_idx').on(t.leadId),
    index('lead_matches_delivery_idx')
      .on(t.deliveryStatus, t.createdAt)
      .where(sql`${t.deliveryStatus} in ('pending', 'queued')`),
    index('lead_matches_buyer_created_idx').on(t.buyerId, t.createdAt),
    // A buyer's sales by date, with the lead, from the index alone: the buyer's list and the admin's buyer filter.
    index('lead_matches_buyer_sold_idx').on(t.buyerId, t.createdAt, t.leadId).where(sql`not ${t.rejected}`),
    // The same by service: a buyer's list, or the admin's buyer filter, with a service.
    index('lead_matches_buyer_service_sold_idx')
      .on(t.buyerId, t.service, t.createdAt, t.leadId)
      .where(sql`not ${t.rejected}`),
    // Name contains within a buyer's sales (trigrams with the buyer, btree_gin): a buyer's list, or an admin's buyer filter.
    index('lead_matches_buyer_name_idx')
      .using('gin', t.buyerId, t.name.op('gin_trgm_ops'))
      .where(sql`not ${t.rejected}`),
    // Sales since a time: the engine's recent-sales refresh (every second) reads only the new ones.
    index('lead_matches_sold_created_idx').on(t.createdAt).where(sql`not ${t.rejected}`),
    // Whether a lead sold, and to whom and when, from the index alone: a lead's sales, and a buyer's list
    // filtered by the lead's ZIP (the ZIP's leads of the range, each probed for the buyer's sale).
    index('lead_matches_lead_buyer_sold_idx').on(t.leadId, t.buyerId, t.createdAt).where(sql`not ${t.rejected}`),
    index('lead_matches_campaign_idx').on(t.campaignId),
    // A stamped bill's leads and totals (bills.repo.ts).
    index('lead_matches_bill_idx').on(t.billId).where(sql`${t.billId} is not null`),
    // The Returns screen: the few matches with a return, by status.
    index('lead_matches_returns_idx').on(t.returnStatus, t.returnRequestedAt).where(sql`${t.returnStatus} is not null`),
  ],
);

/** Pings as answered, written in batches after the answer (the ping path waits on no database). */
export const pings = pgTable(
  'pings',
  {
    id: primaryId(),
    sourceId: text('source_id').notNull(),
    apiKeyId: text('api_key_id'),
    channel: text('channel'),
    service: text('service').notNull(),
    zip: text('zip').notNull(),
    /** The payout quoted; null when nothing matched. */
    priceCents: integer('price_cents'),
    reason: text('reason'),
    test: boolean('test').notNull().default(false),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('pings_created_at_idx').on(t.createdAt), index('pings_source_created_idx').on(t.sourceId, t.createdAt)],
);

/**
 * Every ping of a Ping/Post buyer's system (DESIGN.md §6): written in batches after the source's
 * answer, like `pings`. A ping comes before its lead exists, so a call is found again by the ping's
 * id (`leads.ping_id`), or, within POST /api/lead, by the lead's id.
 */
export const pingCalls = pgTable(
  'ping_calls',
  {
    id: primaryId(),
    /** The exchange's ping (`png_…`); null for the bidding inside POST /api/lead. */
    pingId: text('ping_id'),
    /** The lead of POST /api/lead; null for a source's ping (its lead is found by ping id). */
    leadId: text('lead_id'),
    buyerId: text('buyer_id').notNull(),
    /** The Ping/Post delivery pinged. */
    deliveryId: text('delivery_id').notNull(),
    /** bid, no_bid, timeout or error. */
    outcome: text('outcome').notNull(),
    bidCents: integer('bid_cents'),
    /** The buyer's id of its bid, echoed in the post. */
    buyerPingId: text('buyer_ping_id'),
    /** `error`: why it is no bid, in words. */
    ...callExchange(),
    ...callTiming(),
  },
  (t) => [
    index('ping_calls_ping_idx').on(t.pingId).where(sql`${t.pingId} is not null`),
    index('ping_calls_lead_idx').on(t.leadId).where(sql`${t.leadId} is not null`),
    // The admin's Pings screen: the pings of sources' pings, newest first, all or one buyer's.
    index('ping_calls_pings_at_idx').on(t.at, t.id).where(sql`${t.pingId} is not null`),
    index('ping_calls_pings_buyer_at_idx').on(t.buyerId, t.at, t.id).where(sql`${t.pingId} is not null`),
  ],
);

/** Unmatched pings per day, ZIP and service: the dashboard's Buyer Gaps. */
export const unmatchedPings = pgTable(
  'unmatched_pings',
  {
    day: text('day').notNull(),
    zip: text('zip').notNull(),
    service: text('service').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.zip, t.service] })],
);

/** Replayable answers of POST /api/post and /api/lead for an Idempotency-Key (24 h). */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    apiKeyId: text('api_key_id').notNull(),
    key: text('key').notNull(),
    /**
     * The fingerprint of the request that claimed the key (sha256 of its route and normalized body):
     * the same key with another request is refused, never answered with the first one's lead (issue
     * 28). '' on keys kept from before it was stored: they match no request, so a reused key is told.
     */
    requestHash: text('request_hash').notNull().default(''),
    statusCode: integer('status_code').notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.apiKeyId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** Every attempt of a notify channel on a match (DESIGN.md §6): the lead detail's delivery logs. */
export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    id: primaryId(),
    matchId: parentId('match_id', () => leadMatches.id),
    /** email, sms, webhook or broadcast. */
    channel: text('channel').notNull(),
    /** The address, number or URL. */
    target: text('target').notNull(),
    /** 1 for the first try, counting on over retries and resends. */
    attempt: integer('attempt').notNull(),
    accepted: boolean('accepted').notNull(),
    ...callExchange(),
    /** A custom delivery's answer: the buyer's own reason for not accepting (its `reason_field`). */
    reason: text('reason'),
    /** The provider's id (Twilio message SID, webhook-id) that a status callback names. */
    providerId: text('provider_id'),
    /** The last try of its chain (retries exhausted, or a provider's final failure). */
    last: boolean('last').notNull().default(false),
    ...callTiming(),
  },
  (t) => [index('delivery_attempts_match_idx').on(t.matchId), index('delivery_attempts_provider_idx').on(t.providerId)],
);

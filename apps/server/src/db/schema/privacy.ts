import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { primaryId, timestamptz } from './columns';

/**
 * Who saw what (issue 35 item 5): one row per view of a lead's personal data, export, erasure or
 * sealed read. Append-only: a trigger (migration 0032) refuses UPDATE, DELETE and TRUNCATE, so no
 * route, role or bug can change or remove an entry.
 */
export const accessLog = pgTable(
  'access_log',
  {
    id: primaryId(),
    at: timestamptz('at').notNull(),
    /** The signed-in user (null for a system job, such as the retention erasure). */
    userId: text('user_id'),
    /** admin, buyer, source, or system. */
    role: text('role').notNull(),
    /** lead.view, lead.list, lead.export, erasure.search, erasure, retention, evidence.read. */
    action: text('action').notNull(),
    /** The leads shown (a list: the page's ids); empty for an export, which records its filter. */
    leadIds: text('lead_ids').array().notNull().default([]),
    /** The list's or the export's filter, and what else says what was done (never a contact). */
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    /** The client address (Fastify's request.ip, honouring TRUST_PROXY). */
    address: text('address'),
  },
  (t) => [
    index('access_log_at_idx').on(t.at, t.id),
    index('access_log_user_at_idx').on(t.userId, t.at),
    index('access_log_lead_ids_idx').using('gin', t.leadIds),
  ],
);

/**
 * An erasure (issue 35 item 1): who asked, who erased, when, and how many rows of each kind; never the
 * erased data itself. Kept at least 24 months (CCPA's record of requests); nothing deletes one.
 */
export const erasureRequests = pgTable(
  'erasure_requests',
  {
    id: primaryId(),
    /** request (an admin's, on a person's request) or retention (the daily job). */
    kind: text('kind').notNull(),
    /** Who asked, in the admin's words (the consumer, an agent, a ticket number). */
    requestedBy: text('requested_by').notNull(),
    /** The admin who erased (null for the retention job). */
    erasedBy: text('erased_by'),
    /** email or phone: which kind of contact was matched (not its value). */
    matchedOn: text('matched_on'),
    /** Rows overwritten per kind (leads, matches, delivery_attempts, ping_calls, outbox, messages). */
    counts: jsonb('counts').$type<Record<string, number>>().notNull(),
    leadIds: text('lead_ids').array().notNull().default([]),
    /** The buyers told (their ids). */
    buyerIds: text('buyer_ids').array().notNull().default([]),
    at: timestamptz('at').notNull(),
  },
  (t) => [index('erasure_requests_at_idx').on(t.at, t.id)],
);

/** One notice of an erasure to a buyer that received the lead, on one of its delivery channels. */
export const erasureNotices = pgTable(
  'erasure_notices',
  {
    id: primaryId(),
    requestId: text('request_id').notNull(),
    buyerId: text('buyer_id').notNull(),
    /** The buyer's matches (the leads it received): their ids and its own lead ids, all a notice says. */
    matchIds: text('match_ids').array().notNull(),
    /** email, sms, webhook or broadcast. */
    channel: text('channel').notNull(),
    target: text('target').notNull(),
    /** pending, sending, sent or failed (after its tries). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    sentAt: timestamptz('sent_at'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('erasure_notices_request_idx').on(t.requestId), index('erasure_notices_status_idx').on(t.status)],
);

/**
 * The hashes California's deletion mechanism (DROP) matches a lead on (issue 35 item 3): SHA-256 (hex)
 * of the normalised email, of the phone, and of name + date of birth + ZIP where sent. Written by the
 * database as the lead is stored (the `leads_drop_hashes` trigger, migration 0039), deleted with the
 * lead's erasure. Never the raw values.
 */
export const leadDropHashes = pgTable(
  'lead_drop_hashes',
  {
    leadId: text('lead_id').notNull(),
    /** email, phone or name_dob_zip. */
    kind: text('kind').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.leadId, t.kind] }), index('lead_drop_hashes_hash_idx').on(t.hash)],
);

/** One run of a deletion list: an admin's upload or the daily job's file. */
export const dropRuns = pgTable(
  'drop_runs',
  {
    id: primaryId(),
    at: timestamptz('at').notNull(),
    /** upload or directory. */
    origin: text('origin').notNull(),
    fileName: text('file_name').notNull(),
    /** The directory's file as name, size and modification time: a file is run once. */
    fileKey: text('file_key'),
    /** running, done or failed. */
    status: text('status').notNull(),
    entries: integer('entries').notNull().default(0),
    invalid: integer('invalid').notNull().default(0),
    matched: integer('matched').notNull().default(0),
    erased: integer('erased').notNull().default(0),
    error: text('error'),
    userId: text('user_id'),
    finishedAt: timestamptz('finished_at'),
  },
  (t) => [index('drop_runs_at_idx').on(t.at, t.id), index('drop_runs_file_key_idx').on(t.fileKey)],
);

/** The deletion lists' hashes (each once), with the run that first and last listed it. */
export const dropEntries = pgTable(
  'drop_entries',
  {
    hash: text('hash').primaryKey(),
    /** email, phone or name_dob_zip. */
    kind: text('kind').notNull(),
    firstRunId: text('first_run_id').notNull(),
    lastRunId: text('last_run_id').notNull(),
  },
  (t) => [index('drop_entries_last_run_idx').on(t.lastRunId)],
);

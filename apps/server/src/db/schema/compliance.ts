import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';

/**
 * A lead's consent evidence (issue 34 item 3), written by the database itself as the lead is stored
 * (the `leads_consent_evidence` trigger, migration 0032): the sale's statement is not widened, and no
 * lead is stored without it. Never changed: a trigger refuses UPDATE, and DELETE except by the
 * retention job (`leadex.evidence_retention`). No foreign key: leads are hot rows (DESIGN.md §5).
 */
export const consentEvidence = pgTable(
  'consent_evidence',
  {
    leadId: text('lead_id').primaryKey(),
    /** The lead's arrival: the retention runs from it. */
    recordedAt: timestamptz('recorded_at').notNull(),
    /** The record: its jsonb text is what is hashed (the canonical form, docs/compliance.md). */
    record: jsonb('record').$type<Record<string, unknown>>().notNull(),
    /** SHA-256 (hex) of the record's canonical text. */
    hash: text('hash').notNull(),
  },
  (t) => [index('consent_evidence_recorded_idx').on(t.recordedAt)],
);

/** A legal hold on a lead's evidence: kept past the retention until the admin lifts it. */
export const consentEvidenceHolds = pgTable('consent_evidence_holds', {
  leadId: text('lead_id').primaryKey(),
  reason: text('reason'),
  setBy: text('set_by'),
  setAt: timestamptz('set_at').notNull(),
});

/**
 * A lead's consent evidence sealed by the erasure of its lead (issue 35 item 2): kept under the
 * legal-claims exception, read by the admin only, with a reason, each read logged; the evidence's own
 * retention deletes it (and this row with it).
 */
export const consentEvidenceSeals = pgTable('consent_evidence_seals', {
  leadId: text('lead_id').primaryKey(),
  sealedAt: timestamptz('sealed_at').notNull(),
  /** The erasure request that sealed it. */
  requestId: text('request_id').notNull(),
});

import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  type CallingWindowAnswer,
  type ConsentEvidence,
  DEFAULT_EVIDENCE_RETENTION_YEARS,
  type LeadCompliance,
} from '@leadex/domain';
import PDFDocument from 'pdfkit';
import type { Db } from '../../db/client';
import type { Engine } from '../../distribution/engine';
import { callingWindowOf } from '../../lib/calling-window';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { jsonbText } from '../../lib/jsonb-text';
import type { Viewer } from '../../lib/scope';
import type { LeadsService } from '../leads/leads.service';
import type { AccessLogService } from './access-log.service';
import { complianceRepo } from './compliance.repo';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** `years` calendar years after `at` (UTC), as a day. */
function yearsAfter(at: Date, years: number): string {
  const d = new Date(at.getTime());
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.toISOString().slice(0, 10);
}

/**
 * Consent evidence and the consumer's calling window (issue 34 items 3 and 5): shown to the lead's
 * buyers and the admin, exported as JSON or PDF, held by an admin, purged past its retention.
 */
export function createComplianceService({
  db,
  clock,
  leads,
  engine,
  accessLog,
}: {
  db: Db;
  clock: Clock;
  leads: Pick<LeadsService, 'soldLeadFor'>;
  /** A Medicare service is the engine's: its change reloads every process's index. */
  engine: Pick<Engine, 'change'>;
  /** Each read of sealed evidence is one entry, with the admin's reason (issue 35 item 2). */
  accessLog: Pick<AccessLogService, 'record'>;
}) {
  async function retentionYears(): Promise<number> {
    const stored = Number(await complianceRepo.retentionYears(db));
    return Number.isInteger(stored) && stored > 0 ? stored : DEFAULT_EVIDENCE_RETENTION_YEARS;
  }

  async function leadFor(viewer: Viewer, id: string) {
    const lead = await leads.soldLeadFor(viewer, id);
    if (!lead) throw AppError.notFound('Lead');
    return lead;
  }

  async function evidenceOf(leadId: string): Promise<ConsentEvidence | null> {
    const row = await complianceRepo.evidenceOf(db, leadId);
    if (!row) return null;
    const hold = await complianceRepo.holdOf(db, leadId);
    // Both: the database's text gives the stored hash, and the record read back prints the same text.
    const checks = sha256(row.canonical) === row.hash && jsonbText(row.record) === row.canonical;
    return {
      lead_id: row.lead_id,
      recorded_at: row.recorded_at.toISOString(),
      record: row.record,
      canonical: row.canonical,
      hash: row.hash,
      hash_checks: checks,
      retained_until: hold ? null : yearsAfter(row.recorded_at, await retentionYears()),
      legal_hold: hold ? { reason: hold.reason, set_at: hold.setAt.toISOString() } : null,
    };
  }

  /**
   * The evidence of an erased lead is sealed (issue 35 item 2): a buyer (or anyone but the admin) is
   * answered as if there were none; the admin reads it with a reason, and each read is logged.
   */
  async function sealedRead(viewer: Viewer, id: string, reason: string | undefined, format: string) {
    if (viewer.role !== 'admin') throw AppError.notFound('Consent evidence');
    if (!reason?.trim()) throw AppError.field('reason', 'Reason is required to read sealed evidence');
    const evidence = await evidenceOf(id);
    if (!evidence) throw AppError.notFound('Consent evidence');
    await accessLog.record(viewer, 'evidence.read', { leadIds: [id], detail: { reason: reason.trim(), format } });
    return evidence;
  }

  function windowOf(lead: { zip: string; phone: string | null; state: string | null; createdAt: Date }) {
    const at = (when: Date) => {
      const w = callingWindowOf(lead, when);
      return w && { open: w.open, until: w.until, reason: w.reason, local_time: w.localTime, window: w };
    };
    const arrival = at(lead.createdAt);
    const now = at(clock.now());
    if (!arrival || !now) return null;
    const w = arrival.window;
    const strip = ({ window: _w, ...rest }: NonNullable<typeof arrival>) => rest;
    const answer: CallingWindowAnswer = {
      zone: w.zone,
      zone_from: w.zoneFrom,
      state: w.state,
      text: now.window.text,
      max_per_24h: now.window.rule.maxPer24h,
      rule: { state: now.window.rule.state, effective: now.window.rule.effective, source: now.window.rule.source },
      at_arrival: strip(arrival),
      now: strip(now),
    };
    return answer;
  }

  return {
    /** A lead's consent evidence and the consumer's calling window (GET /api/lead/{id}/compliance). */
    async compliance(viewer: Viewer, id: string): Promise<LeadCompliance> {
      const lead = await leadFor(viewer, id);
      const seal = await complianceRepo.sealOf(db, id);
      if (seal && viewer.role !== 'admin') throw AppError.notFound('Consent evidence');
      return {
        evidence: seal ? null : await evidenceOf(id),
        calling_window: windowOf(lead),
        sealed: seal ? { sealed_at: seal.sealedAt.toISOString(), request_id: seal.requestId } : null,
      };
    },

    /** GET /api/lead/{id}/sealed-evidence: the admin reads a sealed record, with a reason (logged). */
    async readSealed(viewer: Viewer, id: string, reason: string) {
      // Anyone but the admin is answered as if there were none: nothing tells that a record is sealed.
      if (viewer.role !== 'admin') throw AppError.notFound('Consent evidence');
      await leadFor(viewer, id);
      if (!(await complianceRepo.sealOf(db, id))) throw AppError.notFound('Sealed evidence');
      return { evidence: await sealedRead(viewer, id, reason, 'view') };
    },

    /**
     * The evidence as a download: JSON (the record, its canonical text and hash) or a PDF of the same.
     * A sealed record is the admin's only, with a reason (each download logged).
     */
    async evidenceFile(viewer: Viewer, id: string, format: 'json' | 'pdf', reason?: string) {
      await leadFor(viewer, id);
      const sealed = (await complianceRepo.sealOf(db, id)) !== null;
      const evidence = sealed ? await sealedRead(viewer, id, reason, format) : await evidenceOf(id);
      if (!evidence) throw AppError.notFound('Consent evidence');
      const fileName = `consent-evidence-${id}.${format}`;
      if (format === 'json')
        return { fileName, type: 'application/json', body: `${JSON.stringify(evidence, null, 2)}\n` };
      return { fileName, type: 'application/pdf', body: evidencePdf(evidence) };
    },

    /** Puts a lead's evidence under a legal hold (kept until lifted), or lifts it. Admins only (the route). */
    async setHold(id: string, hold: { reason?: string } | null, viewer: Viewer) {
      await leadFor(viewer, id);
      if (hold) await complianceRepo.hold(db, id, hold.reason ?? null, viewer.userId, clock.now());
      else await complianceRepo.release(db, id);
      // A sealed record is answered only to a read with a reason.
      return { evidence: (await complianceRepo.sealOf(db, id)) ? null : await evidenceOf(id) };
    },

    /** The services and whether each is Medicare (its leads sell only with consent naming the buyer). */
    services: () => complianceRepo.services(db),

    async setMedicare(name: string, medicare: boolean) {
      return engine.change('services', async (tx) => {
        const row = await complianceRepo.setMedicare(tx, name, medicare);
        if (!row) throw AppError.notFound('Service');
        return row;
      });
    },

    async retention() {
      return { years: await retentionYears() };
    },

    async setRetention(years: number) {
      await complianceRepo.saveRetentionYears(db, years, clock.now());
      return { years };
    },

    /** The daily job: deletes the evidence past its retention, except under a legal hold; answers how many. */
    async purgeExpired(): Promise<number> {
      const years = await retentionYears();
      const before = new Date(clock.now().getTime());
      before.setUTCFullYear(before.getUTCFullYear() - years);
      return complianceRepo.purge(db, before);
    },
  };
}

export type ComplianceService = ReturnType<typeof createComplianceService>;

/** What a record field is called in the PDF, in its order. */
const PDF_FIELDS: [string, (r: Record<string, unknown>) => unknown][] = [
  ['Lead', (r) => r.lead_id],
  ['Recorded at (UTC)', (r) => r.recorded_at],
  ['Service', (r) => r.service],
  ['Consent given', (r) => r.consent],
  ['Consent language', (r) => r.consent_language],
  ['Legal names the consent covers', (r) => (r.legal_names_covered as string[] | undefined)?.join('; ') || 'none'],
  ['Consumer', (r) => r.consumer],
  ['Page URL', (r) => r.page_url],
  ['TrustedForm certificate', (r) => r.trusted_form],
  ['Jornaya LeadiD', (r) => r.jornaya],
  ['Consent page snapshot', (r) => r.consent_page_snapshot],
];

const pdfValue = (v: unknown): string =>
  v === null || v === undefined
    ? '(not sent)'
    : typeof v === 'object'
      ? Object.entries(v as Record<string, unknown>)
          .map(([k, x]) => `${k}: ${x ?? '(not sent)'}`)
          .join('\n')
      : String(v);

/** The evidence as a PDF, streamed: each field, then the canonical text and its SHA-256. */
function evidencePdf(evidence: ConsentEvidence): Readable {
  const doc = new PDFDocument({ size: 'LETTER', margin: 54, info: { Title: `Consent evidence ${evidence.lead_id}` } });
  doc.fontSize(16).text('Consent evidence', { underline: false });
  doc.moveDown(0.5);
  for (const [label, read] of PDF_FIELDS) {
    doc.font('Helvetica-Bold').fontSize(10).text(label);
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(pdfValue(read(evidence.record)));
    doc.moveDown(0.4);
  }
  doc.moveDown(0.5);
  doc.font('Helvetica-Bold').text('SHA-256 of the canonical text');
  doc.font('Courier').fontSize(9).text(evidence.hash);
  doc
    .font('Helvetica')
    .fontSize(9)
    .text(evidence.hash_checks ? 'The stored record still gives this hash.' : 'THE RECORD NO LONGER GIVES THIS HASH.');
  doc.moveDown(0.5);
  doc.font('Helvetica-Bold').fontSize(10).text('Canonical text (PostgreSQL jsonb text of the record)');
  doc.font('Courier').fontSize(8).text(evidence.canonical);
  doc.end();
  return doc as unknown as Readable;
}

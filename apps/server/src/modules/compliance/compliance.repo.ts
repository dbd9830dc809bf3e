import { asc, eq, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client';
import { consentEvidence, consentEvidenceHolds, consentEvidenceSeals, services } from '../../db/schema';
import { readSetting, writeSetting } from '../../db/settings';

/** The settings key of the evidence's retention, in years. */
export const RETENTION_KEY = 'consent_evidence_retention_years';

/** Consent evidence and legal holds (issue 34 item 3): read, held, purged; never written here (a trigger writes it). */
export const complianceRepo = {
  /** A lead's evidence with its canonical text as the database prints it, or null. */
  async evidenceOf(db: Db, leadId: string) {
    const rows = rowsOf<{
      lead_id: string;
      recorded_at: string | Date;
      record: Record<string, unknown>;
      canonical: string;
      hash: string;
    }>(
      await db.execute(sql`select lead_id, recorded_at, record, record::text as canonical, hash
        from ${consentEvidence} where lead_id = ${leadId}`),
    );
    const row = rows[0];
    return row ? { ...row, recorded_at: new Date(row.recorded_at) } : null;
  },

  /** The seal an erasure put on a lead's evidence, or null. */
  async sealOf(db: Db, leadId: string) {
    const [row] = await db.select().from(consentEvidenceSeals).where(eq(consentEvidenceSeals.leadId, leadId));
    return row ?? null;
  },

  async holdOf(db: Db, leadId: string) {
    const [row] = await db.select().from(consentEvidenceHolds).where(eq(consentEvidenceHolds.leadId, leadId));
    return row ?? null;
  },

  async hold(db: Db, leadId: string, reason: string | null, setBy: string, at: Date) {
    await db
      .insert(consentEvidenceHolds)
      .values({ leadId, reason, setBy, setAt: at })
      .onConflictDoUpdate({ target: consentEvidenceHolds.leadId, set: { reason, setBy, setAt: at } });
  },

  async release(db: Db, leadId: string) {
    await db.delete(consentEvidenceHolds).where(eq(consentEvidenceHolds.leadId, leadId));
  },

  services: (db: Db) =>
    db
      .select({ name: services.name, label: services.label, medicare: services.medicare })
      .from(services)
      .orderBy(asc(services.name)),

  async setMedicare(db: Db | Tx, name: string, medicare: boolean) {
    const [row] = await db
      .update(services)
      .set({ medicare })
      .where(eq(services.name, name))
      .returning({ name: services.name, label: services.label, medicare: services.medicare });
    return row ?? null;
  },

  retentionYears: (db: Db) => readSetting<number>(db, RETENTION_KEY),
  saveRetentionYears: (db: Db, years: number, at: Date) => writeSetting(db, RETENTION_KEY, 'compliance', years, at),

  /**
   * Deletes the evidence recorded before `before` and not under a legal hold, in batches; answers how
   * many. Each batch says it is the retention job, the one DELETE the evidence's trigger lets through.
   */
  async purge(db: Db, before: Date, batch = 5_000): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('leadex.evidence_retention', 'on', true)`);
        const gone = rowsOf<{ n: number }>(
          await tx.execute(sql`with gone as (
            delete from ${consentEvidence} where lead_id in (
              select e.lead_id from ${consentEvidence} e
              where e.recorded_at < ${before.toISOString()}::timestamptz
                and not exists (select 1 from ${consentEvidenceHolds} h where h.lead_id = e.lead_id)
              limit ${batch})
            returning lead_id),
          unsealed as (delete from ${consentEvidenceSeals} where lead_id in (select lead_id from gone))
          select count(*)::int as n from gone`),
        );
        return gone[0]?.n ?? 0;
      });
      total += n;
      if (n < batch) return total;
    }
  },
};

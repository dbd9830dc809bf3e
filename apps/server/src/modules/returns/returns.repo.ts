import { and, asc, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { billedMatches } from '../../db/billable';
import type { Db, Tx } from '../../db/client';
import { pageWithTotal } from '../../db/records';
import {
  billAdjustments,
  bills,
  buyers,
  leadMatches,
  leads,
  messages,
  settings,
  sourceChargebacks,
} from '../../db/schema';
import { splitCents } from '../bills/money';

export type ReturnMatch = typeof leadMatches.$inferSelect;

/** What a return decision changes on a match. */
export interface ReturnChange {
  returnStatus: 'requested' | 'approved' | 'denied';
  returnReason?: string | null;
  returnComment?: string | null;
  returnRequestedAt?: Date;
  returnDecidedAt?: Date | null;
  returnDecidedBy?: string | null;
}

export const returnsRepo = {
  /** The match `matchId` of lead `leadId` (null when the lead has no such match). */
  async match(db: Db | Tx, leadId: string, matchId: string): Promise<ReturnMatch | null> {
    const [row] = await db
      .select()
      .from(leadMatches)
      .where(and(eq(leadMatches.id, matchId), eq(leadMatches.leadId, leadId)));
    return row ?? null;
  },

  /**
   * The buyer, locked for the rest of the transaction: a buyer's returns are decided one at a time,
   * so two requests at once cannot both take the last approval its auto-approve share allows. (The
   * sale takes no lock on buyers: DESIGN.md §5.)
   */
  async lockBuyer(tx: Tx, buyerId: string) {
    const [row] = await tx
      .select({
        id: buyers.id,
        name: buyers.name,
        period: buyers.period,
        autoApproveReturns: buyers.autoApproveReturns,
      })
      .from(buyers)
      .where(eq(buyers.id, buyerId))
      .for('update');
    return row ?? null;
  },

  /** The buyer's billed leads in [start, end) and how many of them are approved returns. */
  async billShare(db: Db | Tx, buyerId: string, start: Date, end: Date) {
    const [row] = await db
      .select({
        leads: count(),
        approved: sql<number>`count(*) filter (where ${leadMatches.returnStatus} = 'approved')`.mapWith(Number),
      })
      .from(leadMatches)
      .where(billedMatches(buyerId, start, end));
    return { leads: row?.leads ?? 0, approved: row?.approved ?? 0 };
  },

  /** Sets a match's return, only from the status it was read in (null: none yet), so a race changes nothing. */
  async setReturn(
    db: Db | Tx,
    matchId: string,
    from: string | null,
    change: ReturnChange,
  ): Promise<ReturnMatch | null> {
    const [row] = await db
      .update(leadMatches)
      .set(change)
      .where(
        and(
          eq(leadMatches.id, matchId),
          from === null ? sql`${leadMatches.returnStatus} is null` : eq(leadMatches.returnStatus, from),
        ),
      )
      .returning();
    return row ?? null;
  },

  /** The match by id alone (a delivery job knows no more). */
  async matchById(db: Db | Tx, matchId: string): Promise<ReturnMatch | null> {
    const [row] = await db.select().from(leadMatches).where(eq(leadMatches.id, matchId));
    return row ?? null;
  },

  /**
   * Charges an approved return back to the source (source_chargebacks): the returned sale's part of
   * the lead's payout, split over the lead's sales by price with the largest remainder (splitCents), in
   * the order the sales were made, so the parts of a fully returned lead add up to its payout. Once per
   * sale; a source paid nothing (internal, or a lead cost of 0) is charged nothing.
   */
  async chargeBack(tx: Tx, id: string, matchId: string, at: Date): Promise<void> {
    const [lead] = await tx
      .select({ id: leads.id, sourceId: leads.sourceId, costCents: leads.costCents })
      .from(leadMatches)
      .innerJoin(leads, eq(leads.id, leadMatches.leadId))
      .where(eq(leadMatches.id, matchId));
    if (!lead || lead.costCents <= 0) return;
    const sales = await tx
      .select({ id: leadMatches.id, priceCents: leadMatches.priceCents })
      .from(leadMatches)
      .where(and(eq(leadMatches.leadId, lead.id), eq(leadMatches.rejected, false)))
      .orderBy(asc(leadMatches.createdAt), asc(leadMatches.id));
    const index = sales.findIndex((s) => s.id === matchId);
    if (index < 0 || !sales.some((s) => s.priceCents > 0)) return;
    const part = splitCents(
      lead.costCents,
      sales.map((s) => s.priceCents),
    )[index] as number;
    await tx
      .insert(sourceChargebacks)
      .values({ id, sourceId: lead.sourceId, leadId: lead.id, matchId, amountCents: part, createdAt: at })
      .onConflictDoNothing({ target: sourceChargebacks.matchId });
  },

  /**
   * A credit on `billId` returning a sale refused after its bill closed: once per sale (a reported
   * refusal run again adds nothing). Answers whether it was added.
   */
  async addRefusalCredit(
    tx: Tx,
    row: { id: string; billId: string; matchId: string; amountCents: number; description: string; at: Date },
  ): Promise<boolean> {
    const [last] = await tx
      .select({ position: sql<number>`coalesce(max(${billAdjustments.position}), -1)`.mapWith(Number) })
      .from(billAdjustments)
      .where(and(eq(billAdjustments.billId, row.billId), eq(billAdjustments.kind, 'credit')));
    const inserted = await tx
      .insert(billAdjustments)
      .values({
        id: row.id,
        billId: row.billId,
        kind: 'credit',
        amountCents: row.amountCents,
        description: row.description,
        position: (last?.position ?? -1) + 1,
        matchId: row.matchId,
        createdAt: row.at,
      })
      .onConflictDoNothing()
      .returning({ id: billAdjustments.id });
    return inserted.length > 0;
  },

  /** The status of the bill the match is on (null while it accrues: its sales carry no bill id yet). */
  async billStatus(db: Db | Tx, matchId: string): Promise<string | null> {
    const [row] = await db
      .select({ status: bills.status })
      .from(leadMatches)
      .innerJoin(bills, eq(bills.id, leadMatches.billId))
      .where(eq(leadMatches.id, matchId));
    return row?.status ?? null;
  },

  async leadName(db: Db | Tx, leadId: string): Promise<string | null> {
    const [row] = await db.select({ name: leads.name }).from(leads).where(eq(leads.id, leadId));
    return row?.name ?? null;
  },

  async insertMessage(db: Db | Tx, row: typeof messages.$inferInsert) {
    await db.insert(messages).values(row);
  },

  /**
   * Resolves the admin message of a match's return request once it is decided (issue 27): hidden,
   * its data saying how and when it was decided.
   */
  async resolveRequestMessage(db: Db | Tx, matchId: string, decision: 'approved' | 'denied', at: Date) {
    await db
      .update(messages)
      .set({
        hiddenAt: at,
        data: sql`coalesce(${messages.data}, '{}'::jsonb) || ${JSON.stringify({ resolved: decision, resolved_at: at.toISOString() })}::jsonb`,
      })
      .where(
        and(
          sql`${messages.data}->>'kind' = 'return_requested'`,
          sql`${messages.data}->>'match_id' = ${matchId}`,
          isNull(messages.hiddenAt),
        ),
      );
  },

  /** A numeric setting, or null when it is not set. */
  async numberSetting(db: Db | Tx, key: string): Promise<number | null> {
    const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
    const value = Number(row?.value);
    return row && Number.isFinite(value) ? value : null;
  },

  /** The Returns screen's page: waiting requests first, then the newest; with its total. */
  async page(db: Db, status: string, offset: number, limit: number) {
    const where = and(
      isNotNull(leadMatches.returnStatus),
      status === 'all' ? undefined : eq(leadMatches.returnStatus, status),
    );
    return pageWithTotal(
      db
        .select({
          match: leadMatches,
          leadName: leads.name,
          service: leads.service,
          zip: leads.zip,
          buyerName: buyers.name,
        })
        .from(leadMatches)
        .innerJoin(leads, eq(leads.id, leadMatches.leadId))
        .innerJoin(buyers, eq(buyers.id, leadMatches.buyerId))
        .where(where)
        .orderBy(
          desc(sql`${leadMatches.returnStatus} = 'requested'`),
          desc(sql`coalesce(${leadMatches.returnRequestedAt}, ${leadMatches.returnDecidedAt})`),
          asc(leadMatches.id),
        )
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(leadMatches).where(where),
    );
  },
};

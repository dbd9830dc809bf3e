import { and, asc, count, desc, eq, ilike, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { billable } from '../../db/billable';
import type { Db, Tx } from '../../db/client';
import { likeContains, pageWithTotal } from '../../db/records';
import {
  billAdjustments,
  bills,
  buyerSpend,
  buyers,
  leadMatches,
  leads,
  prepayEntries,
  sources,
} from '../../db/schema';

export type BillRow = typeof bills.$inferSelect;
export type BillAdjustmentRow = typeof billAdjustments.$inferSelect;

/** Charges and approved returns of a bill's sales, credits and debits, in cents. */
export interface BillTotals {
  chargesCents: number;
  returnsCents: number;
  creditsCents: number;
  debitsCents: number;
}

/**
 * The sales on a bill. After its end a bill's sales carry its id; while it accrues they are the buyer's
 * sales not on a bill yet, sold before its end (a sale never writes a bill: DESIGN.md §5 write path).
 * A sale delivered by a resend after its bill rolled joins the bill accruing then.
 */
export function salesOn(bill: Pick<BillRow, 'id' | 'buyerId' | 'status' | 'endAt'>): SQL {
  const on =
    bill.status === 'accruing'
      ? and(eq(leadMatches.buyerId, bill.buyerId), isNull(leadMatches.billId), lt(leadMatches.createdAt, bill.endAt))
      : eq(leadMatches.billId, bill.id);
  return and(on, billable) as SQL;
}

export const billsRepo = {
  async findById(db: Db | Tx, id: string): Promise<BillRow | null> {
    const [row] = await db.select().from(bills).where(eq(bills.id, id));
    return row ?? null;
  },

  /** The bill, locked for the rest of the transaction: closing it and changing its adjustments take turns. */
  async lock(tx: Tx, id: string): Promise<BillRow | null> {
    const [row] = await tx.select().from(bills).where(eq(bills.id, id)).for('update');
    return row ?? null;
  },

  /** The buyer, locked: its bills roll and close one run at a time, and returns wait for them (returns.repo). */
  async lockBuyer(tx: Tx, buyerId: string) {
    const [row] = await tx.select().from(buyers).where(eq(buyers.id, buyerId)).for('update');
    return row ?? null;
  },

  async accruing(db: Db | Tx, buyerId: string): Promise<BillRow | null> {
    const [row] = await db
      .select()
      .from(bills)
      .where(and(eq(bills.buyerId, buyerId), eq(bills.status, 'accruing')));
    return row ?? null;
  },

  /** The end of the buyer's latest bill: where its next bill starts (null before its first). */
  async lastEnd(db: Db | Tx, buyerId: string): Promise<Date | null> {
    const [row] = await db
      .select({ end: bills.endAt })
      .from(bills)
      .where(eq(bills.buyerId, buyerId))
      .orderBy(desc(bills.endAt))
      .limit(1);
    return row?.end ?? null;
  },

  /** Whether the buyer has billable sales on no bill: it needs an accruing bill. */
  async hasUnbilledSales(db: Db | Tx, buyerId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: leadMatches.id })
      .from(leadMatches)
      .where(and(eq(leadMatches.buyerId, buyerId), isNull(leadMatches.billId), billable))
      .limit(1);
    return Boolean(row);
  },

  /** When the buyer's earliest billable sale on no bill was made (null without one): its first bill opens there. */
  async firstUnbilledSale(db: Db | Tx, buyerId: string): Promise<Date | null> {
    const [row] = await db
      .select({ at: leadMatches.createdAt })
      .from(leadMatches)
      .where(and(eq(leadMatches.buyerId, buyerId), isNull(leadMatches.billId), billable))
      .orderBy(asc(leadMatches.createdAt))
      .limit(1);
    return row?.at ?? null;
  },

  /** Inserts an accruing bill unless the buyer has one already (answers null then). */
  async insertAccruing(db: Db | Tx, row: typeof bills.$inferInsert): Promise<BillRow | null> {
    const [inserted] = await db.insert(bills).values(row).onConflictDoNothing().returning();
    return inserted ?? null;
  },

  /** Puts the accruing bill's sales on it by id, and starts its grace period under the terms it closes with. */
  async roll(tx: Tx, bill: BillRow, terms: { payMethod: string; graceDays: number }, now: Date): Promise<void> {
    await tx.update(leadMatches).set({ billId: bill.id }).where(salesOn(bill));
    await tx
      .update(bills)
      .set({ status: 'grace', payMethod: terms.payMethod, graceDays: terms.graceDays, rolledAt: now })
      .where(eq(bills.id, bill.id));
  },

  /** Closes the bill with its final totals. */
  async close(tx: Tx, id: string, totals: BillTotals & { netCents: number }, now: Date): Promise<void> {
    await tx
      .update(bills)
      .set({ status: 'closed', ...totals, closedAt: now })
      .where(eq(bills.id, id));
  },

  /** The bills the run has work on at `now`: accruing ones past their end, graced ones past their grace. */
  async due(db: Db | Tx, now: Date, buyerId?: string): Promise<Array<Pick<BillRow, 'id' | 'buyerId' | 'status'>>> {
    return db
      .select({ id: bills.id, buyerId: bills.buyerId, status: bills.status })
      .from(bills)
      .where(
        and(
          buyerId ? eq(bills.buyerId, buyerId) : undefined,
          sql`((${bills.status} = 'accruing' and ${bills.endAt} <= ${now})
            or (${bills.status} = 'grace' and ${bills.endAt} + make_interval(days => ${bills.graceDays}) <= ${now}))`,
        ),
      )
      .orderBy(asc(bills.endAt), asc(bills.id));
  },

  async spendOf(db: Db | Tx, buyerId: string) {
    const [row] = await db.select().from(buyerSpend).where(eq(buyerSpend.buyerId, buyerId));
    return row ?? null;
  },

  /** Buyers with a spend limit (prepay, credit): each run sets their spend afresh. */
  async limitedBuyers(db: Db): Promise<string[]> {
    return (await db.select({ id: buyerSpend.buyerId }).from(buyerSpend)).map((r) => r.id);
  },

  /** Auto-pay buyers with a threshold and an accruing bill: the run checks whether to charge them now. */
  async autoPayWithThreshold(db: Db): Promise<string[]> {
    const rows = await db
      .select({ id: buyers.id })
      .from(buyers)
      .innerJoin(bills, and(eq(bills.buyerId, buyers.id), eq(bills.status, 'accruing')))
      .where(and(eq(buyers.payMethod, 'auto'), sql`${buyers.thresholdCents} > 0`));
    return rows.map((r) => r.id);
  },

  /** Buyers with billable sales and no bill to hold them yet (before their first bill). */
  async buyersWithoutBill(db: Db): Promise<string[]> {
    const rows = await db
      .selectDistinct({ buyerId: leadMatches.buyerId })
      .from(leadMatches)
      .where(
        and(
          isNull(leadMatches.billId),
          billable,
          sql`not exists (select 1 from ${bills} where ${bills.buyerId} = ${leadMatches.buyerId} and ${bills.status} = 'accruing')`,
        ),
      );
    return rows.map((r) => r.buyerId);
  },

  /** Charges, approved returns, credits and debits of a bill as they stand. */
  async liveTotals(db: Db | Tx, bill: BillRow): Promise<BillTotals> {
    const [[sales], [adjustments]] = await Promise.all([
      db
        .select({
          chargesCents: sql<number>`coalesce(sum(${leadMatches.priceCents}), 0)`.mapWith(Number),
          returnsCents:
            sql<number>`coalesce(sum(${leadMatches.priceCents}) filter (where ${leadMatches.returnStatus} = 'approved'), 0)`.mapWith(
              Number,
            ),
        })
        .from(leadMatches)
        .where(salesOn(bill)),
      db
        .select({
          creditsCents:
            sql<number>`coalesce(sum(${billAdjustments.amountCents}) filter (where ${billAdjustments.kind} = 'credit'), 0)`.mapWith(
              Number,
            ),
          debitsCents:
            sql<number>`coalesce(sum(${billAdjustments.amountCents}) filter (where ${billAdjustments.kind} = 'debit'), 0)`.mapWith(
              Number,
            ),
        })
        .from(billAdjustments)
        .where(eq(billAdjustments.billId, bill.id)),
    ]);
    return {
      chargesCents: sales?.chargesCents ?? 0,
      returnsCents: sales?.returnsCents ?? 0,
      creditsCents: adjustments?.creditsCents ?? 0,
      debitsCents: adjustments?.debitsCents ?? 0,
    };
  },

  async adjustments(db: Db | Tx, billId: string): Promise<BillAdjustmentRow[]> {
    return db
      .select()
      .from(billAdjustments)
      .where(eq(billAdjustments.billId, billId))
      .orderBy(asc(billAdjustments.kind), asc(billAdjustments.position));
  },

  /** Replaces the bill's credits and debits with the lists sent (admin edit mode sends them whole). */
  async replaceAdjustments(tx: Tx, billId: string, rows: Array<typeof billAdjustments.$inferInsert>): Promise<void> {
    await tx.delete(billAdjustments).where(eq(billAdjustments.billId, billId));
    if (rows.length > 0) await tx.insert(billAdjustments).values(rows);
  },

  /** The bill's sales with their lead and source, oldest first (the bill detail's Leads table). */
  async leadsOn(db: Db, bill: BillRow) {
    return db
      .select({
        match: leadMatches,
        zip: leads.zip,
        service: leads.service,
        sourceName: sources.name,
      })
      .from(leadMatches)
      .innerJoin(leads, eq(leads.id, leadMatches.leadId))
      .leftJoin(sources, eq(sources.id, leads.sourceId))
      .where(salesOn(bill))
      .orderBy(asc(leadMatches.createdAt), asc(leadMatches.id));
  },

  /** Closed bills with something to pay whose payment has not started or not finished (the run's last step). */
  async toInvoice(db: Db): Promise<BillRow[]> {
    return db
      .select()
      .from(bills)
      .where(
        and(
          eq(bills.status, 'closed'),
          isNull(bills.invoicedAt),
          sql`${bills.netCents} > 0`,
          inArray(bills.payMethod, ['auto', 'invoice', 'credit', 'prepay']),
        ),
      )
      .orderBy(asc(bills.closedAt), asc(bills.id));
  },

  /**
   * Takes the bill for invoicing unless another run holds it (a claim older than `staleBefore` is
   * abandoned: its run died); answers the bill as taken, or null.
   */
  async claimForPayment(db: Db, id: string, now: Date, staleBefore: Date): Promise<BillRow | null> {
    const [row] = await db
      .update(bills)
      .set({ paymentClaimedAt: now })
      .where(
        and(
          eq(bills.id, id),
          isNull(bills.invoicedAt),
          sql`(${bills.paymentClaimedAt} is null or ${bills.paymentClaimedAt} < ${staleBefore})`,
        ),
      )
      .returning();
    return row ?? null;
  },

  async findByStripeInvoice(db: Db | Tx, stripeInvoiceId: string): Promise<BillRow | null> {
    const [row] = await db.select().from(bills).where(eq(bills.stripeInvoiceId, stripeInvoiceId));
    return row ?? null;
  },

  async update(db: Db | Tx, id: string, change: Partial<typeof bills.$inferInsert>): Promise<void> {
    await db.update(bills).set(change).where(eq(bills.id, id));
  },

  async setStripeCustomer(db: Db | Tx, buyerId: string, customerId: string): Promise<void> {
    await db.update(buyers).set({ stripeCustomerId: customerId }).where(eq(buyers.id, buyerId));
  },

  /** The buyer's prepay balance: the sum of its ledger. */
  async prepayBalance(db: Db | Tx, buyerId: string): Promise<number> {
    const [row] = await db
      .select({ cents: sql<number>`coalesce(sum(${prepayEntries.amountCents}), 0)`.mapWith(Number) })
      .from(prepayEntries)
      .where(eq(prepayEntries.buyerId, buyerId));
    return row?.cents ?? 0;
  },

  async prepayEntries(db: Db, buyerId: string) {
    return db
      .select()
      .from(prepayEntries)
      .where(eq(prepayEntries.buyerId, buyerId))
      .orderBy(desc(prepayEntries.createdAt), desc(prepayEntries.id));
  },

  /** Adds a ledger entry; a bill's second draw is ignored (answers false). */
  async addPrepayEntry(db: Db | Tx, row: typeof prepayEntries.$inferInsert): Promise<boolean> {
    const inserted = await db
      .insert(prepayEntries)
      .values(row)
      .onConflictDoNothing()
      .returning({ id: prepayEntries.id });
    return inserted.length > 0;
  },

  /**
   * Sets what a prepay or credit buyer has spent and may spend (rule 7, `buyer_spend`) from its sales,
   * returns, adjustments, deposits and paid bills; removes the limit of a buyer paying otherwise. The
   * row is locked first, so a sale at the same moment either is counted here or adds its price after.
   * Call it inside a transaction.
   */
  async recomputeSpend(tx: Tx, buyer: { id: string; payMethod: string; thresholdCents: number }): Promise<void> {
    if (buyer.payMethod !== 'prepay' && buyer.payMethod !== 'credit') {
      await tx.delete(buyerSpend).where(eq(buyerSpend.buyerId, buyer.id));
      return;
    }
    await tx.insert(buyerSpend).values({ buyerId: buyer.id, spentCents: 0, limitCents: 0 }).onConflictDoNothing();
    await tx.select().from(buyerSpend).where(eq(buyerSpend.buyerId, buyer.id)).for('update');
    const prepay = buyer.payMethod === 'prepay';
    const sold = sql`(select coalesce(sum(m.price_cents) filter (where m.return_status is distinct from 'approved'), 0)
      from ${leadMatches} m left join ${bills} b on b.id = m.bill_id
      where m.buyer_id = ${buyer.id} and not m.rejected and m.delivery_status <> 'undelivered'
        and (${prepay} or b.paid_at is null))`;
    const adjusted = sql`(select coalesce(sum(case when a.kind = 'debit' then a.amount_cents else -a.amount_cents end), 0)
      from ${billAdjustments} a join ${bills} b on b.id = a.bill_id where b.buyer_id = ${buyer.id})`;
    const deposits = sql`(select coalesce(sum(e.amount_cents), 0) from ${prepayEntries} e
      where e.buyer_id = ${buyer.id} and e.kind = 'deposit')`;
    await tx
      .update(buyerSpend)
      .set({
        spentCents: prepay ? sql`${sold} + ${adjusted}` : sold,
        limitCents: prepay ? deposits : sql`${buyer.thresholdCents}`,
      })
      .where(eq(buyerSpend.buyerId, buyer.id));
  },

  /** recomputeSpend for a buyer by id (nothing for a buyer that does not exist). */
  async recomputeSpendOf(tx: Tx, buyerId: string): Promise<void> {
    const [buyer] = await tx.select().from(buyers).where(eq(buyers.id, buyerId));
    if (buyer) await billsRepo.recomputeSpend(tx, buyer);
  },

  /** The buyer's bills, the accruing one first, then by end, newest first. */
  async ofBuyer(db: Db, buyerId: string): Promise<BillRow[]> {
    return db
      .select()
      .from(bills)
      .where(eq(bills.buyerId, buyerId))
      .orderBy(desc(sql`${bills.status} = 'accruing'`), desc(bills.endAt));
  },

  /**
   * The admin's Bills list: buyer name and invoice number contain the filters (any case); the accruing
   * bills first, then by end, newest first; with the total.
   */
  async page(db: Db, filter: { buyer?: string; invoice?: string; offset: number; limit: number }) {
    const where = and(
      filter.buyer ? ilike(buyers.name, likeContains(filter.buyer)) : undefined,
      filter.invoice ? ilike(bills.stripeInvoiceNumber, likeContains(filter.invoice)) : undefined,
    );
    return pageWithTotal(
      db
        .select({ bill: bills, buyer: buyers })
        .from(bills)
        .innerJoin(buyers, eq(buyers.id, bills.buyerId))
        .where(where)
        .orderBy(desc(sql`${bills.status} = 'accruing'`), desc(bills.endAt), asc(bills.id))
        .limit(filter.limit)
        .offset(filter.offset),
      db.select({ n: count() }).from(bills).innerJoin(buyers, eq(buyers.id, bills.buyerId)).where(where),
    );
  },
};

import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { buyers } from './buyers';
import { parentId, primaryId, requiredRef, timestamptz } from './columns';
import { sources } from './sources';

/**
 * A buyer's bills (DESIGN.md §7). One per period: `accruing` while its period runs (new sales join it),
 * `grace` after its end (its matches are stamped with its id; returns and adjustments still change it),
 * `closed` after end plus grace (totals final, stored here). A sale never writes here: the accruing
 * bill's matches are the buyer's unstamped ones sold before its end.
 */
export const bills = pgTable(
  'bills',
  {
    id: primaryId(),
    buyerId: requiredRef('buyer_id', () => buyers.id),
    /** The buyer's initial bill starts at the epoch (shown as Initial Bill). */
    startAt: timestamptz('start_at').notNull(),
    /** The first instant after the period. */
    endAt: timestamptz('end_at').notNull(),
    period: text('period').notNull(),
    /** accruing, grace or closed. */
    status: text('status').notNull(),
    /** The terms the bill closed under; null while it accrues (the buyer's current terms apply). */
    payMethod: text('pay_method'),
    graceDays: integer('grace_days'),
    /** Final totals, written when the bill closes. */
    chargesCents: integer('charges_cents'),
    returnsCents: integer('returns_cents'),
    creditsCents: integer('credits_cents'),
    debitsCents: integer('debits_cents'),
    netCents: integer('net_cents'),
    stripeInvoiceId: text('stripe_invoice_id'),
    stripeInvoiceNumber: text('stripe_invoice_number'),
    stripeInvoiceUrl: text('stripe_invoice_url'),
    createdAt: timestamptz('created_at').notNull(),
    rolledAt: timestamptz('rolled_at'),
    closedAt: timestamptz('closed_at'),
    /** When the Stripe invoice was finalized and charged or sent (the bill's `invoiced` flag). */
    invoicedAt: timestamptz('invoiced_at'),
    /** When Stripe said the invoice was paid (the charge at once, or its `invoice.paid` webhook). */
    paidAt: timestamptz('paid_at'),
    /** Who is invoicing the bill now: a run takes it for a few minutes, so two runs never pay one bill at once. */
    paymentClaimedAt: timestamptz('payment_claimed_at'),
    /** The last failed or declined payment, in Stripe's words; cleared when the invoice is paid. */
    paymentError: text('payment_error'),
  },
  (t) => [
    // One accruing bill per buyer, whatever runs at once: the run and the reads insert it "if absent".
    uniqueIndex('bills_one_accruing_idx').on(t.buyerId).where(sql`${t.status} = 'accruing'`),
    uniqueIndex('bills_buyer_start_idx').on(t.buyerId, t.startAt),
    index('bills_end_idx').on(t.endAt),
    // The closed bills whose payment is still to start (the billing run's last step).
    index('bills_to_invoice_idx').on(t.closedAt).where(sql`${t.status} = 'closed' and ${t.invoicedAt} is null`),
    uniqueIndex('bills_stripe_invoice_idx').on(t.stripeInvoiceId),
  ],
);

/** An admin's credit or debit line on a bill (admin §2 Bill detail edit mode). */
export const billAdjustments = pgTable(
  'bill_adjustments',
  {
    id: primaryId(),
    billId: parentId('bill_id', () => bills.id),
    /** credit or debit. */
    kind: text('kind').notNull(),
    amountCents: integer('amount_cents').notNull(),
    description: text('description').notNull(),
    /** The line's place in its list, as the admin entered it. */
    position: integer('position').notNull(),
    /**
     * Set on the credit that returns a sale refused after its bill closed (a late Not Accepted,
     * DESIGN.md §6): one such credit per sale, however often the refusal is reported.
     */
    matchId: text('match_id'),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    index('bill_adjustments_bill_idx').on(t.billId),
    uniqueIndex('bill_adjustments_match_idx').on(t.matchId).where(sql`${t.matchId} is not null`),
  ],
);

/**
 * A prepay buyer's ledger (DESIGN.md §5 write path: balances are entries, never a mutable balance):
 * deposits (the buyer form's prepay amount: a change records the difference) and the draws of its
 * closed bills (one per bill). The balance is the sum.
 */
export const prepayEntries = pgTable(
  'prepay_entries',
  {
    id: primaryId(),
    buyerId: requiredRef('buyer_id', () => buyers.id),
    /** deposit or draw. */
    kind: text('kind').notNull(),
    /** Signed: a deposit adds, a draw takes away. */
    amountCents: integer('amount_cents').notNull(),
    billId: text('bill_id').references(() => bills.id),
    description: text('description').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    index('prepay_entries_buyer_idx').on(t.buyerId, t.createdAt),
    // A bill is drawn once, however many runs try.
    uniqueIndex('prepay_entries_draw_idx').on(t.billId).where(sql`${t.kind} = 'draw'`),
  ],
);

/**
 * What a prepay or credit buyer may still buy (DESIGN.md §5 rule 7), reserved at the sale like a cap:
 * the sale adds the price only while `spent + price <= limit`, in its one statement, so no number of
 * concurrent sales on any number of processes overspends. A row exists only for prepay and credit
 * buyers. Prepay: limit = deposits, spent = every sale less approved returns, less credits plus debits.
 * Credit: limit = the credit threshold, spent = the sales (less approved returns) on bills not yet paid.
 * Everything but the sale recomputes `spent` from the sales (bills.repo.ts recomputeSpend).
 */
export const buyerSpend = pgTable('buyer_spend', {
  buyerId: text('buyer_id')
    .primaryKey()
    .references(() => buyers.id),
  spentCents: bigint('spent_cents', { mode: 'number' }).notNull().default(0),
  limitCents: bigint('limit_cents', { mode: 'number' }).notNull(),
});

/**
 * Returns charged back to the source (issue 13): an approved return takes the returned sale's part of
 * the lead's payout back from the source that sold it, one entry per returned sale. A shared lead's
 * payout is split over its sales by price, so returning every sale of a lead charges back its whole
 * payout. A source's payout for a range is its leads' cost less these entries.
 */
export const sourceChargebacks = pgTable(
  'source_chargebacks',
  {
    id: primaryId(),
    sourceId: requiredRef('source_id', () => sources.id),
    leadId: text('lead_id').notNull(),
    matchId: text('match_id').notNull(),
    amountCents: integer('amount_cents').notNull(),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('source_chargebacks_match_idx').on(t.matchId),
    index('source_chargebacks_source_idx').on(t.sourceId, t.createdAt),
  ],
);

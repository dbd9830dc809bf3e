import { z } from 'zod';
import { optionalText, pageQuery, requiredDollars, requiredText } from './common';
import { type BillPeriod, PAGE_SIZE, type PayMethod } from './constants';
import type { ReturnStatus } from './lead';

/** The web route's alias of a buyer's accruing bill (admin §2: /bill/next/buyer/{buyerId}). */
export const NEXT_BILL_ID = 'next';

/** Largest credit or debit line, in dollars. */
export const MAX_BILL_ADJUSTMENT = 100_000;

/** A bill's totals in dollars: net = charges - returns - credits + debits (DESIGN.md §7). */
export interface BillTotal {
  charges: number;
  returns: number;
  credits: number;
  debits: number;
  net: number;
}

/** The status flags of a bill (admin §3). */
export interface BillStatus {
  /** Opened: every stored bill. */
  start: boolean;
  /** Closed by the billing run after its end plus grace: its totals are final. */
  complete: boolean;
  /** Charged, invoiced or drawn from the prepay balance. */
  invoiced: boolean;
  cancelled: boolean;
}

/** One credit or debit line of a bill, dollars. */
export interface BillAdjustment {
  amount: number;
  description: string;
}

/** A bill's row in the lists (GET /api/bill/date/all, GET /api/bill/buyer/{buyerId}). */
export interface BillSummary {
  _id: string;
  buyer: string;
  buyer_name: string;
  /** The billing terms the bill runs under: the buyer's while it accrues, the closing terms after. */
  buyer_bill: { pay: PayMethod; prepay: number; period: BillPeriod; grace: number; threshold: number };
  /** Period start (0 for the buyer's initial bill) and end (the period's last second), epoch seconds. */
  start: number;
  end: number;
  /** When the grace period after the end runs out, epoch seconds. */
  grace: number;
  status: BillStatus;
  /** The buyer's accruing bill: the one new sales go to ("next"). */
  accruing: boolean;
  stripe?: { invoice?: string; invoice_number?: string; invoice_url?: string };
  /** Whether Stripe says the invoice is paid, and the last failed payment in Stripe's words. */
  payment: { paid: boolean; error?: string };
  /** Opened, epoch seconds. */
  ts: number;
  total: BillTotal;
}

/** A lead on a bill (admin §3 Bill lead): the buyer's match with its return. */
export interface BillLead {
  /** The lead's id: a row opens /lead/{id}. */
  _id: string;
  /** The lead's source; absent for a buyer not allowed to see it (Show Lead Sources, issue 27). */
  source_name?: string;
  zip: string;
  service: string;
  /** The buyer's price, dollars. */
  price: number;
  match: Array<{
    _id: string;
    /** The sale, epoch seconds. */
    ts: number;
    return?: { status: ReturnStatus; reason?: string; comment?: string };
  }>;
}

/** GET /api/bill/{id}: the bill with its credits, debits and leads. */
export interface Bill extends BillSummary {
  credits: BillAdjustment[];
  debits: BillAdjustment[];
  leads: BillLead[];
}

const adjustment = z.object({
  amount: requiredDollars('Amount', MAX_BILL_ADJUSTMENT).refine((v) => v > 0, 'Amount must be more than 0'),
  description: requiredText('Description is required', 200),
});

/** PUT /api/bill/{id}: the admin's credits and debits, each list sent whole (admin §2 Bill detail, edit mode). */
export const billAdjustmentsSchema = z.object({
  credits: z.array(adjustment).max(100, 'A bill takes at most 100 credits'),
  debits: z.array(adjustment).max(100, 'A bill takes at most 100 debits'),
});
export type BillAdjustmentsInput = z.infer<typeof billAdjustmentsSchema>;

/** GET /api/bill/date/all: the admin's Bills list (page size 25), filters contain buyer name and invoice number. */
export const billListQuery = pageQuery(PAGE_SIZE.bills).extend({
  buyer: optionalText(200),
  invoice: optionalText(200),
});
export type BillListQuery = z.infer<typeof billListQuery>;

/** A saved card of a buyer (portals spec §3 Buyer: stripe.paymentMethods). */
export interface PaymentCard {
  id: string;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
  /** The card the billing run charges. */
  default: boolean;
}

/** GET /api/buyer/{id}/stripe/paymentMethods: the buyer's saved cards, and whether cards can be added here. */
export interface PaymentInformation {
  /** False when the exchange has no Stripe account set up: saved cards still list. */
  enabled: boolean;
  /** The browser's key for the card form (Stripe Elements); absent without one. */
  publishableKey?: string;
  customer?: { id: string };
  paymentMethods: PaymentCard[];
  /** A prepay buyer's balance in dollars: its deposits less what its closed bills drew. */
  prepay_balance?: number;
  /**
   * What a prepay or credit buyer may still buy, in dollars (rule 7): its deposits, or its credit
   * threshold, less what it has bought and not yet returned (or, on credit, not yet paid).
   */
  available?: number;
}

/** PUT …/updateDefaultPaymentMethod and …/deletePaymentMethod: which card. */
export const paymentMethodBodySchema = z.object({
  paymentMethodId: requiredText('Payment method is required', 255),
});

import { z } from 'zod';
import { optionalText, pageQuery, requiredDollars, requiredText } from './common';
import { BILL_PERIODS, PAGE_SIZE, PAY_METHODS } from './constants';
import { RETURN_STATUSES } from './lead';

/** The web route's alias of a buyer's accruing bill (admin §2: /bill/next/buyer/{buyerId}). */
export const NEXT_BILL_ID = 'next';

/** Largest credit or debit line, in dollars. */
export const MAX_BILL_ADJUSTMENT = 100_000;

/** A bill's totals in dollars: net = charges - returns - credits + debits (DESIGN.md §7). */
export const billTotalSchema = z.object({
  charges: z.number(),
  returns: z.number(),
  credits: z.number(),
  debits: z.number(),
  net: z.number(),
});
export type BillTotal = z.infer<typeof billTotalSchema>;

/** The status flags of a bill (admin §3). */
export const billStatusSchema = z.object({
  /** Opened: every stored bill. */
  start: z.boolean(),
  /** Closed by the billing run after its end plus grace: its totals are final. */
  complete: z.boolean(),
  /** Charged, invoiced or drawn from the prepay balance. */
  invoiced: z.boolean(),
  cancelled: z.boolean(),
});
export type BillStatus = z.infer<typeof billStatusSchema>;

/** One credit or debit line of a bill, dollars. */
export const billAdjustmentSchema = z.object({ amount: z.number(), description: z.string() });
export type BillAdjustment = z.infer<typeof billAdjustmentSchema>;

/** A buyer's billing terms as the API answers them (its profile's, and the terms a bill runs under). */
export const billTermsAnswerSchema = z.object({
  pay: z.enum(PAY_METHODS),
  prepay: z.number(),
  period: z.enum(BILL_PERIODS),
  grace: z.number(),
  threshold: z.number(),
});

/** A bill's row in the lists (GET /api/bill/date/all, GET /api/bill/buyer/{buyerId}). */
export const billSummarySchema = z.object({
  _id: z.string(),
  buyer: z.string(),
  buyer_name: z.string(),
  /** The billing terms the bill runs under: the buyer's while it accrues, the closing terms after. */
  buyer_bill: billTermsAnswerSchema,
  /** Period start (0 for the buyer's initial bill) and end (the period's last second), epoch seconds. */
  start: z.number(),
  end: z.number(),
  /** When the grace period after the end runs out, epoch seconds. */
  grace: z.number(),
  status: billStatusSchema,
  /** The buyer's accruing bill: the one new sales go to ("next"). */
  accruing: z.boolean(),
  stripe: z
    .object({
      invoice: z.string().optional(),
      invoice_number: z.string().optional(),
      invoice_url: z.string().optional(),
    })
    .optional(),
  /** Whether Stripe says the invoice is paid, and the last failed payment in Stripe's words. */
  payment: z.object({ paid: z.boolean(), error: z.string().optional() }),
  /** Opened, epoch seconds. */
  ts: z.number(),
  total: billTotalSchema,
});
export type BillSummary = z.infer<typeof billSummarySchema>;

/** A lead on a bill (admin §3 Bill lead): the buyer's match with its return. */
export const billLeadSchema = z.object({
  /** The lead's id: a row opens /lead/{id}. */
  _id: z.string(),
  /** The lead's source; absent for a buyer not allowed to see it (Show Lead Sources, issue 27). */
  source_name: z.string().optional(),
  zip: z.string(),
  service: z.string(),
  /** The buyer's price, dollars. */
  price: z.number(),
  match: z.array(
    z.object({
      _id: z.string(),
      /** The sale, epoch seconds. */
      ts: z.number(),
      return: z
        .object({ status: z.enum(RETURN_STATUSES), reason: z.string().optional(), comment: z.string().optional() })
        .optional(),
    }),
  ),
});
export type BillLead = z.infer<typeof billLeadSchema>;

/** GET /api/bill/{id}: the bill with its credits, debits and leads. */
export const billSchema = billSummarySchema.extend({
  credits: z.array(billAdjustmentSchema),
  debits: z.array(billAdjustmentSchema),
  leads: z.array(billLeadSchema),
});
export type Bill = z.infer<typeof billSchema>;

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
export const paymentCardSchema = z.object({
  id: z.string(),
  card: z.object({ brand: z.string(), last4: z.string(), exp_month: z.number(), exp_year: z.number() }),
  /** The card the billing run charges. */
  default: z.boolean(),
});
export type PaymentCard = z.infer<typeof paymentCardSchema>;

/** GET /api/buyer/{id}/stripe/paymentMethods: the buyer's saved cards, and whether cards can be added here. */
export const paymentInformationSchema = z.object({
  /** False when the exchange has no Stripe account set up: saved cards still list. */
  enabled: z.boolean(),
  /** The browser's key for the card form (Stripe Elements); absent without one. */
  publishableKey: z.string().optional(),
  customer: z.object({ id: z.string() }).optional(),
  paymentMethods: z.array(paymentCardSchema),
  /** A prepay buyer's balance in dollars: its deposits less what its closed bills drew. */
  prepay_balance: z.number().optional(),
  /**
   * What a prepay or credit buyer may still buy, in dollars (rule 7): its deposits, or its credit
   * threshold, less what it has bought and not yet returned (or, on credit, not yet paid).
   */
  available: z.number().optional(),
});
export type PaymentInformation = z.infer<typeof paymentInformationSchema>;

/** PUT …/updateDefaultPaymentMethod and …/deletePaymentMethod: which card. */
export const paymentMethodBodySchema = z.object({
  paymentMethodId: requiredText('Payment method is required', 255),
});

/** GET /api/buyer/{id}/stripe/setupPaymentIntent: what the card form confirms a new card with. */
export const setupIntentAnswerSchema = z.object({ client_secret: z.string().nullable() });
export type SetupIntentAnswer = z.infer<typeof setupIntentAnswerSchema>;

/** POST /api/stripe/webhook: the event was read, and whether it moved a bill. */
export const stripeWebhookAnswerSchema = z.object({ received: z.literal(true), handled: z.boolean() });

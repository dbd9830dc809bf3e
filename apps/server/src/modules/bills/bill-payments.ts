import type Stripe from 'stripe';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/ids';
import type { Logger } from '../../lib/logger';
import { formatMoney } from '../../lib/money';
import type { BuyerRow, BuyersService } from '../buyers/buyers.service';
import type { MessagesService } from '../messages/messages.service';
import { type BillRow, billsRepo } from './bills.repo';
import { buyerSpend } from './buyer-spend';
import { ensureStripeCustomer } from './stripe-customer';

/** How long a run holds a bill it invoices: longer than the Stripe calls of one bill can take. */
const CLAIM_MS = 10 * 60_000;

/** The Stripe invoice's lines: what the bill's net is made of (DESIGN.md §7), the zero ones left out. */
function invoiceLines(bill: BillRow): Array<{ key: string; amount: number; description: string }> {
  const lines = [
    { key: 'charges', amount: bill.chargesCents ?? 0, description: 'Leads' },
    { key: 'returns', amount: -(bill.returnsCents ?? 0), description: 'Returned leads' },
    { key: 'credits', amount: -(bill.creditsCents ?? 0), description: 'Credits' },
    { key: 'debits', amount: bill.debitsCents ?? 0, description: 'Debits' },
  ];
  return lines.filter((l) => l.amount !== 0);
}

/** Stripe's words for a failed call, for the bill and the admin's message. */
const reasonOf = (error: unknown) =>
  error instanceof Error ? error.message : typeof error === 'string' ? error : 'Stripe refused the payment';

/**
 * Payment of closed bills through Stripe (DESIGN.md §7, §11 Payments): auto (card or ACH) is an
 * invoice charged to the buyer's default payment method at once; invoice and credit are invoices Stripe
 * sends, due after the grace days. Every write carries an idempotency key derived from the bill, and
 * each step is recorded before the next, so a run killed at any point and run again charges nobody
 * twice. Prepay bills are drawn from the buyer's prepay ledger, with or without Stripe.
 */
export function createBillPayments({
  db,
  clock,
  stripe,
  logger,
  buyers,
  messages,
}: {
  db: Db;
  clock: Clock;
  stripe: Stripe | null;
  logger: Pick<Logger, 'error'>;
  buyers: Pick<BuyersService, 'findRow'>;
  /** Where a failed payment or a prepay shortfall is told to the admins. */
  messages: Pick<MessagesService, 'raise'>;
}) {
  const keyOf = (bill: BillRow, step: string) => `leadex-bill-${bill.id}-${step}`;

  async function paymentFailed(bill: BillRow, buyer: BuyerRow, reason: string) {
    await billsRepo.update(db, bill.id, { paymentError: reason });
    await messages.raise({
      id: newId('msg'),
      text: `The payment of ${buyer.name}'s bill of ${formatMoney(bill.netCents ?? 0)} dollars failed: ${reason}`,
      data: { kind: 'payment_failed', bill_id: bill.id, buyer_id: buyer.id, reason, link: `/bill/${bill.id}` },
      createdAt: clock.now(),
    });
  }

  /**
   * A prepay bill is drawn from the buyer's prepay ledger (one draw per bill, whatever runs at once). A
   * balance that does not cover it is recorded on the bill, and an admin is told.
   */
  async function drawPrepay(bill: BillRow): Promise<void> {
    const buyer = await buyers.findRow(bill.buyerId);
    if (!buyer) return;
    const now = clock.now();
    const net = bill.netCents ?? 0;
    await billsRepo.addPrepayEntry(db, {
      id: newId('ppe'),
      buyerId: buyer.id,
      kind: 'draw',
      amountCents: -net,
      billId: bill.id,
      description: `Bill ${bill.id}`,
      createdAt: now,
    });
    const balance = await billsRepo.prepayBalance(db, buyer.id);
    if (balance < 0) {
      await billsRepo.update(db, bill.id, { invoicedAt: now });
      await paymentFailed(
        bill,
        buyer,
        `The prepay balance is ${formatMoney(balance)} dollars after this bill: a deposit is due`,
      );
      return;
    }
    await billsRepo.update(db, bill.id, { invoicedAt: now, paidAt: now, paymentError: null });
  }

  /** Invoices one closed bill, continuing from the step a previous run reached. */
  async function invoice(client: Stripe, bill: BillRow): Promise<void> {
    const buyer = await buyers.findRow(bill.buyerId);
    if (!buyer) return;
    const customer = await ensureStripeCustomer(db, client, buyer);
    const auto = bill.payMethod === 'auto';
    let current: Stripe.Invoice;
    if (bill.stripeInvoiceId) {
      current = await client.invoices.retrieve(bill.stripeInvoiceId);
    } else {
      current = await client.invoices.create(
        {
          customer,
          collection_method: auto ? 'charge_automatically' : 'send_invoice',
          ...(auto ? {} : { days_until_due: Math.max(bill.graceDays ?? 0, 1) }),
          auto_advance: false,
          pending_invoice_items_behavior: 'exclude',
          description: `Leadex leads, bill ${bill.id}`,
          metadata: { bill_id: bill.id, buyer_id: buyer.id },
        },
        { idempotencyKey: keyOf(bill, 'invoice') },
      );
      // Recorded at once: a run after this point continues with this invoice, whatever the key's lifetime.
      await billsRepo.update(db, bill.id, { stripeInvoiceId: current.id });
    }
    if (current.status === 'draft') {
      for (const line of invoiceLines(bill))
        await client.invoiceItems.create(
          {
            customer,
            invoice: current.id,
            amount: line.amount,
            currency: 'usd',
            description: line.description,
            metadata: { bill_id: bill.id },
          },
          { idempotencyKey: keyOf(bill, `item-${line.key}`) },
        );
      current = await client.invoices.finalizeInvoice(current.id, {}, { idempotencyKey: keyOf(bill, 'finalize') });
    }
    const now = clock.now();
    await billsRepo.update(db, bill.id, {
      stripeInvoiceNumber: current.number ?? null,
      stripeInvoiceUrl: current.hosted_invoice_url ?? null,
    });
    if (auto && current.status === 'open') {
      try {
        current = await client.invoices.pay(current.id, {}, { idempotencyKey: keyOf(bill, 'pay') });
      } catch (error) {
        // A declined card leaves the invoice open: the bill is invoiced, unpaid, and an admin is told.
        await billsRepo.update(db, bill.id, { invoicedAt: now });
        await paymentFailed(bill, buyer, reasonOf(error));
        return;
      }
    } else if (!auto && current.status === 'open') {
      await client.invoices.sendInvoice(current.id, {}, { idempotencyKey: keyOf(bill, 'send') });
    }
    await billsRepo.update(db, bill.id, {
      invoicedAt: now,
      ...(current.status === 'paid' ? { paidAt: now, paymentError: null } : {}),
    });
    if (current.status === 'paid') await freeCredit(bill.buyerId);
  }

  /** A paid bill no longer counts against a credit buyer's threshold (rule 7). */
  async function freeCredit(buyerId: string): Promise<void> {
    await db.transaction((tx) => buyerSpend.recomputeOf(tx, buyerId));
  }

  return {
    /** Invoices every closed bill still to pay; answers how many it invoiced. One failure does not stop the rest. */
    async invoiceClosedBills(): Promise<number> {
      let invoiced = 0;
      for (const listed of await billsRepo.toInvoice(db)) {
        // Prepay bills need no Stripe; the others wait for it.
        if (listed.payMethod !== 'prepay' && !stripe) continue;
        const now = clock.now();
        const bill = await billsRepo.claimForPayment(db, listed.id, now, new Date(now.getTime() - CLAIM_MS));
        if (!bill) continue;
        try {
          if (bill.payMethod === 'prepay') await drawPrepay(bill);
          else await invoice(stripe as Stripe, bill);
          invoiced += 1;
        } catch (error) {
          // Stripe unreachable or refusing: the next run continues from the recorded step.
          logger.error({ err: error, billId: bill.id }, 'billing: invoicing a bill failed (the next run retries it)');
        } finally {
          await billsRepo.update(db, bill.id, { paymentClaimedAt: null });
        }
      }
      return invoiced;
    },

    /**
     * Stripe's webhook events (DESIGN.md §11): `invoice.paid` marks the bill paid; `invoice.payment_failed`
     * records Stripe's reason and raises an admin message. Answers whether the event was about a bill.
     */
    async onEvent(event: Stripe.Event): Promise<boolean> {
      if (event.type !== 'invoice.paid' && event.type !== 'invoice.payment_failed') return false;
      const stripeInvoice = event.data.object as Stripe.Invoice;
      if (!stripeInvoice.id) return false;
      const bill = await billsRepo.findByStripeInvoice(db, stripeInvoice.id);
      if (!bill) return false;
      if (event.type === 'invoice.paid') {
        await billsRepo.update(db, bill.id, { paidAt: clock.now(), paymentError: null });
        await freeCredit(bill.buyerId);
        return true;
      }
      const buyer = await buyers.findRow(bill.buyerId);
      if (buyer) await paymentFailed(bill, buyer, 'Stripe could not collect the invoice');
      return true;
    },
  };
}

export type BillPayments = ReturnType<typeof createBillPayments>;

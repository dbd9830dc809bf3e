import {
  type Bill,
  type BillAdjustment,
  type BillListQuery,
  type BillPeriod,
  type BillSummary,
  billAdjustmentsSchema,
  type PayMethod,
  type ReturnStatus,
} from '@leadex/domain';
import type { Db, Tx } from '../../db/client';
import { type Clock, toEpochSeconds } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { exchangeZone } from '../../lib/exchange-zone';
import { newId } from '../../lib/ids';
import { centsToDollars, dollarsToCents } from '../../lib/money';
import type { Viewer } from '../../plugins/auth';
import type { BuyerRow, BuyersService } from '../buyers/buyers.service';
import type { BillPayments } from './bill-payments';
import { type BillAdjustmentRow, type BillRow, type BillTotals, billsRepo } from './bills.repo';
import { buyerSpend } from './buyer-spend';
import { billingPeriodIn, netCents } from './money';

const DAY_MS = 86_400_000;

/** The billing period containing `now`, in the exchange's zone (America/New_York by default; DESIGN.md §7). */
export function billingPeriod(period: BillPeriod, now: Date): { start: Date; next: Date } {
  return billingPeriodIn(period, exchangeZone(), now);
}

/** When a bill's grace period runs out: the billing run closes it then. */
const graceEnd = (bill: BillRow, graceDays: number) => new Date(bill.endAt.getTime() + graceDays * DAY_MS);

/** What one billing run did. */
export interface BillingRunResult {
  /** Initial bills opened for buyers whose first sales had none. */
  opened: number;
  /** Bills past their end: their sales stamped, the next bill opened. */
  rolled: number;
  /** Bills past their grace: totals final. */
  closed: number;
  /** Closed bills invoiced through Stripe (only when the run does payments). */
  invoiced: number;
}

export interface BillsServiceDeps {
  db: Db;
  clock: Clock;
  /** Pays closed bills (Stripe); without it the run only rolls and closes. */
  payments?: BillPayments;
  /** The buyer of a bill, as stored (its terms). */
  buyers: Pick<BuyersService, 'findRow'>;
}

/**
 * The buyer's accruing bill, opened if it has sales on no bill (or, with `evenWithoutSales`, to carry
 * a credit); null when it has neither.
 */
export async function ensureAccruingBill(
  tx: Db | Tx,
  buyer: Pick<BuyerRow, 'id' | 'period'>,
  now: Date,
  evenWithoutSales = false,
): Promise<BillRow | null> {
  const existing = await billsRepo.accruing(tx, buyer.id);
  if (existing) return existing;
  const period = buyer.period as BillPeriod;
  const lastEnd = await billsRepo.lastEnd(tx, buyer.id);
  let start: Date;
  if (lastEnd) {
    if (!evenWithoutSales && !(await billsRepo.hasUnbilledSales(tx, buyer.id))) return null;
    start = lastEnd;
  } else {
    // The first bill opens at the period of the first sale (not of the run that opens it), so a run
    // days or weeks later rolls it period by period like any later bill.
    const firstSale = await billsRepo.firstUnbilledSale(tx, buyer.id);
    if (!firstSale && !evenWithoutSales) return null;
    start = billingPeriod(period, firstSale ?? now).start;
  }
  const inserted = await billsRepo.insertAccruing(tx, {
    id: newId('bil'),
    buyerId: buyer.id,
    startAt: start,
    endAt: billingPeriod(period, start).next,
    period,
    status: 'accruing',
    createdAt: now,
  });
  // Another request opened it at the same moment: the unique index kept one; read it.
  return inserted ?? (await billsRepo.accruing(tx, buyer.id));
}

/**
 * A buyer's bills (DESIGN.md §7). The accruing bill is stored from the buyer's first sale, starting
 * at the epoch; the billing run rolls it at its end (its sales get its id, the next period's bill
 * opens) and closes it after the grace days, when its totals become final. Until then its totals are
 * computed from its sales, returns and adjustments.
 */
export function createBillsService({ db, clock, payments, buyers }: BillsServiceDeps) {
  /** The buyer a viewer may see bills of: an admin any, a buyer only its own; anyone else's is not found. */
  async function visibleBuyer(viewer: Viewer, buyerId: string): Promise<BuyerRow> {
    const visible = viewer.role === 'admin' || (viewer.role === 'buyer' && viewer.roleId === buyerId);
    const buyer = visible ? await buyers.findRow(buyerId) : null;
    if (!buyer) throw AppError.notFound('Buyer');
    return buyer;
  }

  async function totalsOf(bill: BillRow): Promise<BillTotals> {
    if (bill.status === 'closed')
      return {
        chargesCents: bill.chargesCents ?? 0,
        returnsCents: bill.returnsCents ?? 0,
        creditsCents: bill.creditsCents ?? 0,
        debitsCents: bill.debitsCents ?? 0,
      };
    return billsRepo.liveTotals(db, bill);
  }

  /** A bill as the API answers it: money in dollars, times in epoch seconds (admin §3 Bill). */
  function summaryOf(
    bill: BillRow,
    buyer: Pick<BuyerRow, 'id' | 'name' | 'payMethod' | 'prepayCents' | 'graceDays' | 'thresholdCents'>,
    totals: BillTotals,
  ): BillSummary {
    // An accruing bill runs under the buyer's terms as they are now; a rolled one under those it rolled with.
    const grace = bill.graceDays ?? buyer.graceDays;
    const invoice = bill.stripeInvoiceId
      ? {
          invoice: bill.stripeInvoiceId,
          invoice_number: bill.stripeInvoiceNumber ?? undefined,
          invoice_url: bill.stripeInvoiceUrl ?? undefined,
        }
      : undefined;
    return {
      _id: bill.id,
      buyer: buyer.id,
      buyer_name: buyer.name,
      buyer_bill: {
        pay: (bill.payMethod ?? buyer.payMethod) as PayMethod,
        prepay: centsToDollars(buyer.prepayCents),
        period: bill.period as BillPeriod,
        grace,
        threshold: centsToDollars(buyer.thresholdCents),
      },
      start: toEpochSeconds(bill.startAt),
      end: toEpochSeconds(bill.endAt) - 1,
      grace: toEpochSeconds(graceEnd(bill, grace)),
      status: { start: true, complete: bill.status === 'closed', invoiced: bill.invoicedAt !== null, cancelled: false },
      accruing: bill.status === 'accruing',
      ...(invoice ? { stripe: invoice } : {}),
      payment: { paid: bill.paidAt !== null, ...(bill.paymentError ? { error: bill.paymentError } : {}) },
      ts: toEpochSeconds(bill.createdAt),
      total: {
        charges: centsToDollars(totals.chargesCents),
        returns: centsToDollars(totals.returnsCents),
        credits: centsToDollars(totals.creditsCents),
        debits: centsToDollars(totals.debitsCents),
        net: centsToDollars(netCents(totals)),
      },
    };
  }

  async function summariesOf(bills: BillRow[], buyer: BuyerRow): Promise<BillSummary[]> {
    return Promise.all(bills.map(async (bill) => summaryOf(bill, buyer, await totalsOf(bill))));
  }

  const adjustmentsOf = (rows: BillAdjustmentRow[], kind: 'credit' | 'debit'): BillAdjustment[] =>
    rows
      .filter((r) => r.kind === kind)
      .map((r) => ({ amount: centsToDollars(r.amountCents), description: r.description }));

  /**
   * The whole bill: its summary, credits, debits and leads. Each lead's source only for the admin,
   * or for a buyer an admin allows to see it (Show Lead Sources, issue 27).
   */
  async function detailOf(bill: BillRow, buyer: BuyerRow, viewer: Pick<Viewer, 'role'>): Promise<Bill> {
    const showSource = viewer.role === 'admin' || buyer.showSource;
    const [totals, adjustments, sales] = await Promise.all([
      totalsOf(bill),
      billsRepo.adjustments(db, bill.id),
      billsRepo.leadsOn(db, bill),
    ]);
    return {
      ...summaryOf(bill, buyer, totals),
      credits: adjustmentsOf(adjustments, 'credit'),
      debits: adjustmentsOf(adjustments, 'debit'),
      leads: sales.map(({ match: m, zip, service, sourceName }) => ({
        _id: m.leadId,
        ...(showSource ? { source_name: sourceName ?? '' } : {}),
        zip,
        service,
        price: centsToDollars(m.priceCents),
        match: [
          {
            _id: m.id,
            ts: toEpochSeconds(m.createdAt),
            ...(m.returnStatus
              ? {
                  return: {
                    status: m.returnStatus as ReturnStatus,
                    reason: m.returnReason ?? undefined,
                    comment: m.returnComment ?? undefined,
                  },
                }
              : {}),
          },
        ],
      })),
    };
  }

  /** The bill `id` with its buyer, if the viewer may see it; else not found. */
  async function visibleBill(viewer: Viewer, id: string): Promise<{ bill: BillRow; buyer: BuyerRow }> {
    const bill = await billsRepo.findById(db, id);
    const visible = bill && (viewer.role === 'admin' || (viewer.role === 'buyer' && viewer.roleId === bill.buyerId));
    const buyer = visible ? await buyers.findRow(bill.buyerId) : null;
    if (!bill || !buyer) throw AppError.notFound('Bill');
    return { bill, buyer };
  }

  /** Whether an auto-pay buyer's accruing charges have reached its threshold (0: no threshold). */
  async function reachedThreshold(tx: Tx, buyer: BuyerRow, bill: BillRow, now: Date): Promise<boolean> {
    if (buyer.payMethod !== 'auto' || buyer.thresholdCents <= 0 || bill.startAt >= now) return false;
    const { chargesCents } = await billsRepo.liveTotals(tx, { ...bill, endAt: now });
    return chargesCents >= buyer.thresholdCents;
  }

  /**
   * One buyer's turn of the billing run, under its lock: opens its first bill if its sales have none,
   * rolls every accruing bill whose end has passed (a run after a long pause rolls period by period),
   * and closes every bill whose grace has run out. Each step is idempotent: a run killed half-way and
   * run again finishes the work without doing any of it twice.
   */
  async function runForBuyer(buyerId: string, now: Date, result: BillingRunResult): Promise<void> {
    await db.transaction(async (tx) => {
      const buyer = await billsRepo.lockBuyer(tx, buyerId);
      if (!buyer) return;
      const hadBill = (await billsRepo.lastEnd(tx, buyer.id)) !== null;
      let bill = await ensureAccruingBill(tx, buyer, now);
      if (bill && !hadBill) result.opened += 1;
      while (bill && bill.endAt <= now) {
        await billsRepo.roll(tx, bill, { payMethod: buyer.payMethod, graceDays: buyer.graceDays }, now);
        result.rolled += 1;
        const next = billingPeriod(buyer.period as BillPeriod, bill.endAt).next;
        bill = await billsRepo.insertAccruing(tx, {
          id: newId('bil'),
          buyerId: buyer.id,
          startAt: bill.endAt,
          endAt: next,
          period: buyer.period,
          status: 'accruing',
          createdAt: now,
        });
      }
      if (bill && (await reachedThreshold(tx, buyer, bill, now))) {
        // An auto-pay buyer is charged as soon as its charges reach its threshold (DESIGN.md §7): the bill
        // ends now and closes at once, and the rest of the period accrues on the next one.
        await billsRepo.update(tx, bill.id, { endAt: now });
        const cut = { ...bill, endAt: now };
        await billsRepo.roll(tx, cut, { payMethod: buyer.payMethod, graceDays: 0 }, now);
        const totals = await billsRepo.liveTotals(tx, { ...cut, status: 'grace' });
        await billsRepo.close(tx, bill.id, { ...totals, netCents: netCents(totals) }, now);
        await billsRepo.insertAccruing(tx, {
          id: newId('bil'),
          buyerId: buyer.id,
          startAt: now,
          endAt: bill.endAt,
          period: bill.period,
          status: 'accruing',
          createdAt: now,
        });
        result.rolled += 1;
        result.closed += 1;
      }
      for (const due of await billsRepo.due(tx, now, buyer.id)) {
        if (due.status !== 'grace') continue;
        const graced = await billsRepo.lock(tx, due.id);
        if (graced?.status !== 'grace') continue;
        const totals = await billsRepo.liveTotals(tx, graced);
        await billsRepo.close(tx, graced.id, { ...totals, netCents: netCents(totals) }, now);
        result.closed += 1;
      }
      // Each run also sets the buyer's spend afresh from its sales (rule 7), whatever happened in between.
      await buyerSpend.recompute(tx, buyer);
    });
  }

  return {
    /** GET /api/bill/buyer/{buyerId}: the buyer's bills, the accruing one first. */
    async listForBuyer(viewer: Viewer, buyerId: string): Promise<BillSummary[]> {
      const buyer = await visibleBuyer(viewer, buyerId);
      await ensureAccruingBill(db, buyer, clock.now());
      return summariesOf(await billsRepo.ofBuyer(db, buyer.id), buyer);
    },

    /** GET /api/bill/buyer/{buyerId}/current: the accruing bill, with its leads (the web's /bill/next/buyer/{id}). */
    async current(viewer: Viewer, buyerId: string): Promise<Bill> {
      const buyer = await visibleBuyer(viewer, buyerId);
      const bill = await ensureAccruingBill(db, buyer, clock.now());
      if (!bill) throw new AppError('not_found', 'This buyer has no bill yet: its first sale opens one');
      return detailOf(bill, buyer, viewer);
    },

    /** GET /api/bill/{id}: any bill, for the admin or its buyer. */
    async get(viewer: Viewer, id: string): Promise<Bill> {
      const { bill, buyer } = await visibleBill(viewer, id);
      return detailOf(bill, buyer, viewer);
    },

    /** GET /api/bill/date/all: the admin's Bills list. */
    async list(query: BillListQuery): Promise<{ data: BillSummary[]; total: number }> {
      const { rows, total } = await billsRepo.page(db, {
        buyer: query.buyer,
        invoice: query.invoice,
        offset: (query.page - 1) * query.pageSize,
        limit: query.pageSize,
      });
      const data = await Promise.all(rows.map(async ({ bill, buyer }) => summaryOf(bill, buyer, await totalsOf(bill))));
      return { data, total };
    },

    /**
     * PUT /api/bill/{id}: the admin's credits and debits, each list whole. A closed bill's totals are
     * final: it refuses changes.
     */
    async adjust(id: string, body: unknown): Promise<Bill> {
      const parsed = billAdjustmentsSchema.safeParse(body);
      if (!parsed.success) throw AppError.fromIssues(parsed.error.issues);
      const now = clock.now();
      await db.transaction(async (tx) => {
        const bill = await billsRepo.lock(tx, id);
        if (!bill) throw AppError.notFound('Bill');
        if (bill.status === 'closed')
          throw new AppError('conflict', 'This bill is closed: its credits and debits can no longer change');
        const lines = (kind: 'credit' | 'debit', list: BillAdjustment[]) =>
          list.map((a, position) => ({
            id: newId('adj'),
            billId: bill.id,
            kind,
            amountCents: dollarsToCents(a.amount),
            description: a.description,
            position,
            createdAt: now,
          }));
        await billsRepo.replaceAdjustments(tx, bill.id, [
          ...lines('credit', parsed.data.credits),
          ...lines('debit', parsed.data.debits),
        ]);
        // A prepay buyer's credits and debits move what it may still buy (rule 7).
        await buyerSpend.recomputeOf(tx, bill.buyerId);
      });
      const { bill, buyer } = await visibleBill({ role: 'admin' } as Viewer, id);
      return detailOf(bill, buyer, { role: 'admin' });
    },

    /**
     * The billing run (DESIGN.md §7): every buyer with work due, one after another, each in its own
     * transaction; then, with `doPayments`, the payment of every closed bill still unpaid. Answers what it did.
     */
    async run(options: { now?: Date; doPayments?: boolean } = {}): Promise<BillingRunResult> {
      const now = options.now ?? clock.now();
      const result: BillingRunResult = { opened: 0, rolled: 0, closed: 0, invoiced: 0 };
      const buyers = new Set([
        ...(await billsRepo.buyersWithoutBill(db)),
        ...(await billsRepo.due(db, now)).map((b) => b.buyerId),
        ...(await billsRepo.autoPayWithThreshold(db)),
        ...(await billsRepo.limitedBuyers(db)),
      ]);
      for (const buyerId of buyers) await runForBuyer(buyerId, now, result);
      if (options.doPayments && payments) result.invoiced = await payments.invoiceClosedBills();
      return result;
    },
  };
}

export type BillsService = ReturnType<typeof createBillsService>;

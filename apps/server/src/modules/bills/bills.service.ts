import { type BillPeriod, type BillSummary, NEXT_BILL_ID, type PayMethod } from '@leadex/domain';
import type { Db } from '../../db/client';
import { periodStart } from '../../distribution/time';
import { type Clock, toEpochSeconds } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { centsToDollars } from '../../lib/money';
import { buyersRepo } from '../buyers/buyers.repo';
import type { Viewer } from '../buyers/buyers.service';
import { billsRepo } from './bills.repo';

/** Bill periods run in New York time, weeks from Monday (DESIGN.md §7). */
export const BILLING_ZONE = 'America/New_York';
const DAY_MS = 86_400_000;

/** The billing period containing `now`: its first instant and the first instant of the next one. */
export function billingPeriod(period: BillPeriod, now: Date): { start: Date; next: Date } {
  const unit = period === 'weekly' ? 'weekly' : 'monthly';
  const start = periodStart(unit, BILLING_ZONE, now);
  // A day past the longest period lands inside the next one, whatever DST did in between.
  const inNext = new Date(start.getTime() + (period === 'weekly' ? 8 : 32) * DAY_MS);
  return { start, next: periodStart(unit, BILLING_ZONE, inNext) };
}

export interface BillsServiceDeps {
  db: Db;
  clock: Clock;
}

/**
 * A buyer's bills. Until the billing work adds stored bills, a buyer has only its accruing bill
 * ("next"), computed from its sales in the current period (docs/decisions.md).
 */
export function createBillsService({ db, clock }: BillsServiceDeps) {
  /** The accruing bill of a buyer the viewer may see, or 404 (another buyer's bills do not exist for it). */
  async function accruing(viewer: Viewer, buyerId: string): Promise<BillSummary> {
    const visible = viewer.role === 'admin' || (viewer.role === 'buyer' && viewer.roleId === buyerId);
    const buyer = visible ? await buyersRepo.findById(db, buyerId) : null;
    if (!buyer) throw AppError.notFound('Buyer');
    const period = buyer.period as BillPeriod;
    const { start, next } = billingPeriod(period, clock.now());
    const totals = await billsRepo.periodTotals(db, buyer.id, start, next);
    return {
      _id: NEXT_BILL_ID,
      buyer: buyer.id,
      buyer_name: buyer.name,
      buyer_bill: {
        pay: buyer.payMethod as PayMethod,
        prepay: centsToDollars(buyer.prepayCents),
        period,
        grace: buyer.graceDays,
        threshold: centsToDollars(buyer.thresholdCents),
      },
      start: toEpochSeconds(start),
      end: toEpochSeconds(next) - 1,
      grace: toEpochSeconds(next) + buyer.graceDays * 86_400,
      status: { start: true, complete: false, invoiced: false, cancelled: false },
      total: {
        charges: centsToDollars(totals.chargesCents),
        returns: centsToDollars(totals.returnsCents),
        net: centsToDollars(totals.chargesCents - totals.returnsCents),
      },
    };
  }

  return {
    /** GET /api/bill/buyer/{buyerId}: the buyer's bills, the accruing one first. */
    async listForBuyer(viewer: Viewer, buyerId: string): Promise<BillSummary[]> {
      return [await accruing(viewer, buyerId)];
    },

    /** GET /api/bill/buyer/{buyerId}/current: the accruing bill. */
    current: accruing,
  };
}

export type BillsService = ReturnType<typeof createBillsService>;

import type { BillPeriod, PayMethod } from './constants';

/** The id of a buyer's accruing bill (admin §2: /bill/next/buyer/{buyerId}). */
export const NEXT_BILL_ID = 'next';

/** A bill's totals in dollars: net = charges - returns (credits and debits come with billing). */
export interface BillTotal {
  charges: number;
  returns: number;
  net: number;
}

/** The status flags of a bill (admin §3). */
export interface BillStatus {
  start: boolean;
  complete: boolean;
  invoiced: boolean;
  cancelled: boolean;
}

/** A row of GET /api/bill/buyer/{buyerId}: one bill of the buyer, the accruing one first. */
export interface BillSummary {
  _id: string;
  buyer: string;
  buyer_name: string;
  /** The buyer's billing terms the bill runs under. */
  buyer_bill: { pay: PayMethod; prepay: number; period: BillPeriod; grace: number; threshold: number };
  /** Period start and end, epoch seconds (the end is the period's last second). */
  start: number;
  end: number;
  /** When the grace period after the end runs out, epoch seconds. */
  grace: number;
  status: BillStatus;
  total: BillTotal;
}

import { expect } from 'vitest';
import type { TestApp } from './harness';

/** A bill as GET /api/bill/{id} answers it (what the checks read). */
export interface CheckedBill {
  _id: string;
  start: number;
  end: number;
  accruing: boolean;
  status: { complete: boolean; invoiced: boolean };
  buyer_bill: { pay: string };
  stripe?: { invoice?: string };
  payment: { paid: boolean };
  total: { charges: number; returns: number; credits: number; debits: number; net: number };
  credits: Array<{ amount: number }>;
  debits: Array<{ amount: number }>;
  leads: Array<{ price: number; match: Array<{ _id: string; return?: { status: string } }> }>;
}

export const cents = (dollars: number) => Math.round(dollars * 100);

/**
 * The admin sets a buyer's open bill's credits and debits (one line each, cents; 0 for none) through
 * PUT /api/bill/{id}, as the property tests' random adjustments do. False when the buyer has no open bill.
 */
export async function adjustOpenBill(
  t: TestApp,
  adminCookie: string,
  buyerId: string,
  { credit, debit }: { credit: number; debit: number },
): Promise<boolean> {
  const current = await t.request({ method: 'GET', url: `/api/bill/buyer/${buyerId}/current`, as: adminCookie });
  if (current.statusCode !== 200) return false;
  const res = await t.request({
    method: 'PUT',
    url: `/api/bill/${current.json()._id}`,
    as: adminCookie,
    payload: {
      credits: credit > 0 ? [{ amount: credit / 100, description: 'Credit' }] : [],
      debits: debit > 0 ? [{ amount: debit / 100, description: 'Debit' }] : [],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return true;
}

let cases = 0;
/**
 * Starts a property's next case in a year of its own (15:00 UTC on January 1st, after every earlier
 * case's year), so that billing runs never see time move backwards. Answers the case's number, from 0.
 */
export function startCaseInItsOwnYear(t: TestApp): number {
  const n = cases++;
  t.clock.set(new Date(Date.UTC(2031 + n, 0, 1, 15)));
  return n;
}
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/**
 * The invariants of a buyer's bills (DESIGN.md §7), read through the API: every sale in `saleMatchIds`
 * on exactly one bill, periods back to back from the first bill (one period long, opened at the period
 * of the first sale: issue 27 item 26), and each bill's totals equal to its
 * leads, approved returns, credits and debits, net = charges - returns - credits + debits, to the cent.
 * Answers the bills, oldest first.
 */
export async function expectBillsConsistent(
  t: TestApp,
  adminCookie: string,
  buyerId: string,
  saleMatchIds: string[],
): Promise<CheckedBill[]> {
  const get = async (url: string) => (await t.request({ method: 'GET', url, as: adminCookie })).json();
  const list = (await get(`/api/bill/buyer/${buyerId}`)) as CheckedBill[];
  const bills = (await Promise.all(list.map((b) => get(`/api/bill/${b._id}`)))) as CheckedBill[];
  const onBills = bills.flatMap((bill) => bill.leads.map((l) => l.match[0]?._id));
  expect(new Set(onBills).size, 'no sale on two bills').toBe(onBills.length);
  expect([...onBills].sort(), 'every sale on a bill').toEqual([...saleMatchIds].sort());
  const oldestFirst = [...bills].sort((a, b) => a.start - b.start);
  const first = oldestFirst[0];
  if (first) {
    expect(first.start, 'the first bill starts at a period, not at the epoch').toBeGreaterThan(0);
    expect(first.end + 1 - first.start, 'the first bill is one period long').toBeLessThanOrEqual(31 * 86_400 + 3600);
  }
  for (let i = 1; i < oldestFirst.length; i += 1)
    expect(oldestFirst[i]?.start, 'periods back to back').toBe((oldestFirst[i - 1]?.end ?? 0) + 1);
  for (const bill of bills) {
    const charges = sum(bill.leads.map((l) => cents(l.price)));
    const returns = sum(bill.leads.filter((l) => l.match[0]?.return?.status === 'approved').map((l) => cents(l.price)));
    const credits = sum(bill.credits.map((c) => cents(c.amount)));
    const debits = sum(bill.debits.map((d) => cents(d.amount)));
    expect(cents(bill.total.charges)).toBe(charges);
    expect(cents(bill.total.returns)).toBe(returns);
    expect(cents(bill.total.credits)).toBe(credits);
    expect(cents(bill.total.debits)).toBe(debits);
    expect(cents(bill.total.net)).toBe(charges - returns - credits + debits);
  }
  return oldestFirst;
}

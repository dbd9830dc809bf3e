import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../../../test/database';
import { createBuyer, createCampaign, createSourceWithKey, insertSale } from '../../../test/factories';
import { useFixture } from '../../../test/fixtures';
import { useAdminTestApp } from '../../../test/harness';
import { startStripeServer } from '../../../test/stripe-server';
import { bills, buyers, messages } from '../../db/schema';

const WEBHOOK_SECRET = 'whsec_leadex_test';
const stripe = useFixture(startStripeServer, (s) => s.close());
const { t, admin } = useAdminTestApp(() => ({
  STRIPE_SECRET_KEY: 'sk_test_leadex',
  STRIPE_API_BASE: stripe.url,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
}));

const get = (url: string) => t.request({ method: 'GET', url, as: admin.cookie });
const runBilling = (doPayments: boolean) =>
  t.request({ method: 'POST', url: `/api/sim/billing?doPayments=${doPayments}`, as: admin.cookie });

/**
 * A buyer (paying by `pay`, 3 grace days, monthly) whose March bill is closed on April 4 with $100 of
 * leads, a $20 approved return, a $5 credit and a $2.50 debit: net $77.50.
 */
async function closedMarchBill(pay: 'auto' | 'invoice' | 'credit' | 'prepay') {
  t.clock.set('2026-03-20T15:00:00Z');
  const buyer = await createBuyer(t);
  await t.database.db.update(buyers).set({ payMethod: pay, graceDays: 3 }).where(eq(buyers.id, buyer._id));
  const campaignId = await createCampaign(t, buyer._id, { status: 'draft' });
  const { sourceId } = await createSourceWithKey(t);
  await insertSale(t, buyer._id, campaignId, sourceId, '2026-03-10T15:00:00Z', 60);
  await insertSale(t, buyer._id, campaignId, sourceId, '2026-03-11T15:00:00Z', 20, { returnStatus: 'approved' });
  await insertSale(t, buyer._id, campaignId, sourceId, '2026-03-12T15:00:00Z', 20);
  const [bill] = (await get(`/api/bill/buyer/${buyer._id}`)).json();
  await t.request({
    method: 'PUT',
    url: `/api/bill/${bill._id}`,
    as: admin.cookie,
    payload: { credits: [{ amount: 5, description: 'Goodwill' }], debits: [{ amount: 2.5, description: 'Fee' }] },
  });
  t.clock.set('2026-04-04T05:00:00Z');
  await runBilling(false);
  const closed = (await get(`/api/bill/${bill._id}`)).json();
  expect(closed.status.complete).toBe(true);
  expect(closed.total.net).toBe(77.5);
  return { buyerId: buyer._id, billId: bill._id as string };
}

/** The buyer saved a card before its bill closed: a Stripe customer with a default card, recorded on the buyer. */
async function saveCard(buyerId: string, customer: Stripe.CustomerCreateParams) {
  const created = await stripe.client().customers.create(customer);
  stripe.setDefaultPaymentMethod(created.id);
  await t.database.db.update(buyers).set({ stripeCustomerId: created.id }).where(eq(buyers.id, buyerId));
  return created;
}

const row = async (billId: string) => (await t.database.db.select().from(bills).where(eq(bills.id, billId)))[0];
const customerOf = async (buyerId: string) =>
  (await t.database.db.select().from(buyers).where(eq(buyers.id, buyerId)))[0]?.stripeCustomerId as string;
/** Expects the bill invoiced but unpaid for `error`, and one admin message raised about it; answers that message. */
async function expectPaymentFailed(billId: string, error: string) {
  expect((await get(`/api/bill/${billId}`)).json()).toMatchObject({
    status: { invoiced: true },
    payment: { paid: false, error },
  });
  const raised = (await t.database.db.select().from(messages)).filter(
    (m) => (m.data as { bill_id?: string } | null)?.bill_id === billId,
  );
  expect(raised).toHaveLength(1);
  return raised[0];
}
const invoicesOf = (customer: string) => [...stripe.invoices.values()].filter((i) => i.customer === customer);

describe('paying closed bills through Stripe (the official SDK against a local Stripe server)', () => {
  it('invoices an auto-pay buyer with no saved card, records why it is unpaid, and tells an admin', async () => {
    const { buyerId, billId } = await closedMarchBill('auto');
    // A run without doPayments only closes bills.
    expect((await runBilling(false)).json().invoiced).toBe(0);
    expect((await row(billId))?.invoicedAt).toBeNull();

    await runBilling(true);
    const customer = await customerOf(buyerId);
    expect(customer).toMatch(/^cus_/);
    expect(stripe.customers.get(customer)?.metadata).toEqual({ buyer_id: buyerId });
    expect(invoicesOf(customer)[0]).toMatchObject({
      collection_method: 'charge_automatically',
      status: 'open',
      total: 7750,
    });
    await expectPaymentFailed(billId, 'The customer has no default payment method.');
  });

  it('charges at once when the buyer has a card, and a second run changes nothing', async () => {
    const { buyerId, billId } = await closedMarchBill('auto');
    // The buyer saved a card before the bill closed.
    const created = await saveCard(buyerId, { name: 'Card holder', metadata: { buyer_id: buyerId } });

    const res = await runBilling(true);
    expect(res.statusCode).toBe(200);
    expect(res.json().invoiced).toBeGreaterThanOrEqual(1);
    const [invoice] = invoicesOf(created.id);
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 7750, metadata: { bill_id: billId } });
    expect(invoice?.lines.data.map((l) => [l.description, l.amount])).toEqual([
      ['Leads', 10000],
      ['Returned leads', -2000],
      ['Credits', -500],
      ['Debits', 250],
    ]);
    const bill = (await get(`/api/bill/${billId}`)).json();
    expect(bill).toMatchObject({
      status: { complete: true, invoiced: true },
      stripe: { invoice: invoice?.id, invoice_number: invoice?.number, invoice_url: invoice?.hosted_invoice_url },
      payment: { paid: true },
    });

    const writes = stripe.calls.filter((c) => c.method === 'POST').length;
    expect((await runBilling(true)).json().invoiced).toBe(0);
    expect(stripe.calls.filter((c) => c.method === 'POST').length).toBe(writes);
    expect(invoicesOf(created.id)).toHaveLength(1);
  });

  it('sends an invoice due after the grace days to an invoice buyer; the invoice.paid webhook marks it paid', async () => {
    const { buyerId, billId } = await closedMarchBill('invoice');
    await runBilling(true);
    const [invoice] = invoicesOf(await customerOf(buyerId));
    expect(invoice).toMatchObject({ collection_method: 'send_invoice', days_until_due: 3, status: 'open' });
    expect((await get(`/api/bill/${billId}`)).json()).toMatchObject({
      status: { invoiced: true },
      payment: { paid: false },
    });

    const payload = JSON.stringify({
      id: 'evt_test_paid',
      object: 'event',
      type: 'invoice.paid',
      data: { object: { id: invoice?.id, object: 'invoice' } },
    });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const forged = await t.request({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' },
      payload,
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe('The Stripe-Signature header does not match this body');
    expect((await get(`/api/bill/${billId}`)).json().payment.paid).toBe(false);

    const hook = await t.request({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload,
    });
    expect(hook.statusCode).toBe(200);
    expect(hook.json()).toEqual({ received: true, handled: true });
    expect((await get(`/api/bill/${billId}`)).json().payment.paid).toBe(true);
  });

  it('records a declined card on the bill and raises an admin message', async () => {
    const { buyerId, billId } = await closedMarchBill('auto');
    const created = await saveCard(buyerId, { name: 'Declined' });
    stripe.decline(created.id);
    await runBilling(true);
    const raised = await expectPaymentFailed(billId, 'Your card was declined.');
    expect(raised?.data).toMatchObject({ kind: 'payment_failed', buyer_id: buyerId, link: `/bill/${billId}` });
  });

  it('continues after Stripe failed half-way, without a second invoice or line', async () => {
    const { buyerId, billId } = await closedMarchBill('credit');
    stripe.failOnce('POST', /\/finalize$/);
    await runBilling(true);
    const customer = await customerOf(buyerId);
    expect((await row(billId))?.invoicedAt).toBeNull();
    expect((await row(billId))?.stripeInvoiceId).toMatch(/^in_/);

    await runBilling(true);
    const invoices = invoicesOf(customer);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'open', total: 7750, collection_method: 'send_invoice' });
    expect(invoices[0]?.lines.data).toHaveLength(4);
    expect((await row(billId))?.invoicedAt).not.toBeNull();
  });

  it("draws a prepay bill from the buyer's deposits once, and says when the balance falls short", async () => {
    const { buyerId, billId } = await closedMarchBill('prepay');
    const deposit = (id: string, prepay: number) =>
      t.request({
        method: 'PUT',
        url: `/api/buyer/${id}`,
        as: admin.cookie,
        payload: { bill: { pay: 'prepay', prepay, period: 'monthly', grace: 3, threshold: 0 } },
      });
    const balance = async (id: string) =>
      (await get(`/api/buyer/${id}/stripe/paymentMethods`)).json().prepay_balance as number;
    // The form's amount is what was deposited: 100, then 150 records 50 more.
    expect((await deposit(buyerId, 100)).statusCode).toBe(200);
    expect(await balance(buyerId)).toBe(100);
    expect((await deposit(buyerId, 150)).statusCode).toBe(200);
    expect(await balance(buyerId)).toBe(150);

    await Promise.all([runBilling(true), runBilling(true)]);
    await runBilling(true);
    expect(await balance(buyerId)).toBe(72.5);
    expect((await get(`/api/bill/${billId}`)).json()).toMatchObject({
      status: { invoiced: true },
      payment: { paid: true },
    });
    expect((await row(billId))?.stripeInvoiceId).toBeNull();

    // Another buyer with $50 deposited and a $77.50 bill: drawn, the shortfall recorded and announced.
    const short = await closedMarchBill('prepay');
    await deposit(short.buyerId, 50);
    await runBilling(true);
    expect(await balance(short.buyerId)).toBe(-27.5);
    expect((await get(`/api/bill/${short.billId}`)).json().payment).toEqual({
      paid: false,
      error: 'The prepay balance is -27.50 dollars after this bill: a deposit is due',
    });
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('runs at once on PostgreSQL', () => {
  it('three runs paying at once charge the bill once', async () => {
    const { buyerId, billId } = await closedMarchBill('auto');
    const created = await saveCard(buyerId, { name: 'At once' });
    const results = await Promise.all([runBilling(true), runBilling(true), runBilling(true)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const invoices = invoicesOf(created.id);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'paid', amount_paid: 7750 });
    expect(invoices[0]?.lines.data).toHaveLength(4);
    const pays = stripe.calls.filter((c) => c.path === `/v1/invoices/${invoices[0]?.id}/pay` && !c.replayed);
    expect(pays).toHaveLength(1);
    expect((await row(billId))?.paidAt).not.toBeNull();
  });
});

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind, testDatabaseUrl } from '../../../test/database';
import { createBuyer, createCampaign, createSourceWithKey, insertSale } from '../../../test/factories';
import { ADMIN, createTestApp, type TestApp } from '../../../test/harness';
import { type LeadexProcess, startLeadexProcess, stopLeadexProcess, waitHealthy } from '../../../test/processes';
import { eventually } from '../../../test/receivers';
import { type StripeServer, startStripeServer } from '../../../test/stripe-server';
import { bills, buyers } from '../../db/schema';

/**
 * Issue 13: "a run killed at any point and run again charges nobody twice and loses no bill". A
 * server process runs the billing with payments and is killed (SIGKILL) while Stripe has charged a
 * bill but not yet answered; the run after it charges every bill exactly once. A second process on
 * the same database needs PostgreSQL, so on PGlite this is skipped, by name.
 */
const SECRET = 'billing-crash-test-secret-0123456789abcdef';
const CLAIM_MS = 10 * 60_000;

describe.skipIf(testDatabaseKind !== 'postgres')('a billing run killed mid-run (PostgreSQL only)', () => {
  let t: TestApp;
  let stripe: StripeServer;
  let adminCookie: string;
  const processes: LeadexProcess[] = [];

  beforeAll(async () => {
    stripe = await startStripeServer();
    t = await createTestApp({
      LEADEX_SECRET: SECRET,
      STRIPE_SECRET_KEY: 'sk_test_leadex',
      STRIPE_API_BASE: stripe.url,
    });
    adminCookie = await t.signIn(ADMIN.email, ADMIN.password);
  });

  afterAll(async () => {
    for (const p of processes) await stopLeadexProcess(p, 'SIGKILL');
    await t?.close();
    await stripe?.close();
  });

  const runBilling = () => t.request({ method: 'POST', url: '/api/sim/billing?doPayments=true', as: adminCookie });

  it('charges each of three auto-pay bills once: the killed run left one charged but unrecorded', async () => {
    // Three auto-pay buyers with a card, each with a March sale; their monthly bills close on April 1.
    t.clock.set('2026-03-10T15:00:00Z');
    const client = stripe.client();
    const { sourceId } = await createSourceWithKey(t);
    const customers: string[] = [];
    for (const dollars of [40, 55, 70]) {
      const buyer = await createBuyer(t);
      const customer = await client.customers.create({ name: buyer.name });
      stripe.setDefaultPaymentMethod(customer.id);
      await t.database.db
        .update(buyers)
        .set({ payMethod: 'auto', graceDays: 0, stripeCustomerId: customer.id })
        .where(eq(buyers.id, buyer._id));
      const campaignId = await createCampaign(t, buyer._id, { status: 'draft' });
      await insertSale(t, buyer._id, campaignId, sourceId, '2026-03-10T15:00:00Z', dollars);
      customers.push(customer.id);
    }
    expect((await runBilling()).json()).toMatchObject({ invoiced: 0 });

    // April 2 for every process (the mock date is shared through the database), then a server
    // process runs the billing; Stripe charges the first bill and never answers, and the process dies.
    const moved = await t.request({
      method: 'POST',
      url: '/api/sim/mockDate',
      as: adminCookie,
      payload: { date: '2026-04-02T15:00:00Z' },
    });
    expect(moved.statusCode).toBe(200);
    stripe.hangOnce('POST', /^\/v1\/invoices\/[^/]+\/pay$/);
    const server = startLeadexProcess('billing server', testDatabaseUrl(t.database), {
      NODE_ENV: 'development',
      LEADEX_ROLE: 'api',
      LEADEX_SECRET: SECRET,
      STRIPE_SECRET_KEY: 'sk_test_leadex',
      STRIPE_API_BASE: stripe.url,
    });
    processes.push(server);
    await waitHealthy(server);
    const killedRun = fetch(`${server.url}/api/sim/billing?doPayments=true`, {
      method: 'POST',
      headers: { cookie: adminCookie },
    }).catch(() => 'killed');
    await eventually(
      () => stripe.calls.some((c) => /\/pay$/.test(c.path)),
      30_000,
      `the killed run to reach Stripe's pay:\n${server.output.join('')}`,
    );
    await stopLeadexProcess(server, 'SIGKILL');
    expect(await killedRun).toBe('killed');

    const [charged] = [...stripe.invoices.values()].filter((i) => i.status === 'paid');
    expect(charged, 'Stripe charged one bill before the process died').toBeDefined();
    const rows = await t.database.db.select().from(bills);
    const closed = rows.filter((b) => b.status === 'closed');
    expect(closed).toHaveLength(3);
    const dead = closed.find((b) => b.stripeInvoiceId === charged?.id);
    if (!dead?.paymentClaimedAt) throw new Error('the killed run claimed no bill it charged');
    expect(dead.paidAt, 'the killed run never recorded the payment').toBeNull();

    // Within the ten minutes of the dead run's claim its bill waits; the others are charged.
    const claimedAt = dead.paymentClaimedAt.getTime();
    t.clock.set(new Date(claimedAt + CLAIM_MS - 1000));
    await runBilling();
    const waiting = (await t.database.db.select().from(bills).where(eq(bills.id, dead.id)))[0];
    expect(waiting?.paidAt).toBeNull();
    expect(rows.filter((b) => b.id !== dead?.id).every((b) => b.paidAt === null)).toBe(true);
    // Past the claim, the run resumes it from the recorded invoice: paid, and not charged again.
    t.clock.set(new Date(claimedAt + CLAIM_MS + 1000));
    await runBilling();
    await runBilling();

    for (const customer of customers) {
      const invoices = [...stripe.invoices.values()].filter((i) => i.customer === customer);
      expect(invoices, 'one invoice per bill').toHaveLength(1);
      expect(invoices[0]?.status).toBe('paid');
      expect(invoices[0]?.lines.data).toHaveLength(1);
      const pays = stripe.calls.filter((c) => c.path === `/v1/invoices/${invoices[0]?.id}/pay` && !c.replayed);
      expect(pays, 'charged once').toHaveLength(1);
    }
    const after = await t.database.db.select().from(bills).where(eq(bills.status, 'closed'));
    expect(after).toHaveLength(3);
    for (const bill of after) {
      expect(bill.paidAt).not.toBeNull();
      expect(bill.paymentClaimedAt).toBeNull();
    }
  }, 120_000);
});

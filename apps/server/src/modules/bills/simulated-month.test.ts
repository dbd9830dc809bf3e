import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cents, expectBillsConsistent } from '../../../test/bill-checks';
import { testDatabaseKind } from '../../../test/database';
import { createBuyer, createCampaign, createSourceWithKey, saveBillTerms, uniquePhone } from '../../../test/factories';
import { useFixture } from '../../../test/fixtures';
import { useAdminTestApp } from '../../../test/harness';
import { startStripeServer } from '../../../test/stripe-server';
import { buyerSpend, buyers, leadMatches, prepayEntries } from '../../db/schema';

/**
 * Issue 13, "a simulated month": leads through the engine with the clock moving, 20 buyers of every
 * pay method and period, returns, and a billing run (with payments) every evening, run twice. At the
 * end every bill holds its sales and its net to the cent, every closed bill is paid the way its buyer
 * pays (its Stripe invoice in the Stripe test server, or its prepay draw), and no prepay or credit
 * buyer bought beyond its limit.
 */
// Issue 13's 10,000 leads run on PostgreSQL, the production database. PGlite (WebAssembly, one
// statement at a time) runs the same month, buyers and evening runs with a quarter of the leads: the
// full month took it over 200 s of CI (docs/decisions.md).
const LEADS = Number(process.env.SIMULATED_MONTH_LEADS ?? (testDatabaseKind === 'postgres' ? 10_000 : 2_500));
const DAYS = 30;
const stripe = useFixture(startStripeServer, (s) => s.close());
const { t, admin } = useAdminTestApp(() => ({
  STRIPE_SECRET_KEY: 'sk_test_leadex',
  STRIPE_API_BASE: stripe.url,
  PUBLIC_API_RATE_LIMIT: 0,
}));

/** One buyer a state: a ZIP of that state, its pay method and period. */
const MARKETS = [
  ['75201', 'auto'],
  ['89101', 'auto'],
  ['87101', 'auto'],
  ['84101', 'auto'],
  ['83702', 'auto'],
  ['85004', 'invoice'],
  ['80202', 'invoice'],
  ['73102', 'invoice'],
  ['66603', 'invoice'],
  ['68508', 'invoice'],
  ['50309', 'prepay'],
  ['64106', 'prepay'],
  ['72201', 'prepay'],
  ['70112', 'prepay'],
  ['39201', 'prepay'],
  ['35203', 'credit'],
  ['37203', 'credit'],
  ['40202', 'credit'],
  ['43215', 'credit'],
  ['46204', 'credit'],
] as const;

interface Market {
  zip: string;
  pay: (typeof MARKETS)[number][1];
  buyerId: string;
  matchIds: string[];
}
let apiKey = '';
const markets: Market[] = [];

beforeAll(async () => {
  t.clock.set('2026-03-01T05:00:00Z'); // midnight in New York
  ({ apiKey } = await createSourceWithKey(t, { maxCost: 5 }));
  const client = stripe.client();
  for (const [i, [zip, pay]] of MARKETS.entries()) {
    const buyer = await createBuyer(t);
    // Prepay buyers deposit $1,500 to $3,500 and credit buyers get $1,000 to $3,000: some run out in the month.
    await saveBillTerms(t, admin.cookie, buyer._id, {
      pay,
      prepay: pay === 'prepay' ? 1500 + (i % 5) * 500 : 0,
      period: i % 2 === 0 ? 'weekly' : 'monthly',
      grace: [0, 3, 5, 7][i % 4],
      threshold: pay === 'credit' ? 1000 + (i % 5) * 500 : 0,
    });
    if (pay === 'auto') {
      const customer = await client.customers.create({ name: buyer.name });
      stripe.setDefaultPaymentMethod(customer.id);
      await t.database.db.update(buyers).set({ stripeCustomerId: customer.id }).where(eq(buyers.id, buyer._id));
    }
    const state = (await t.deps.engine.stateOf(zip)) as string;
    await createCampaign(t, buyer._id, { price: 20 + (i % 4) * 10, services: ['roofing'], states: [state] });
    markets.push({ zip, pay, buyerId: buyer._id, matchIds: [] });
  }
});

const runBilling = () => t.request({ method: 'POST', url: '/api/sim/billing?doPayments=true', as: admin.cookie });

describe('a simulated month', () => {
  it(`sells ${LEADS} leads over ${DAYS} days with returns and a run every evening, and every bill adds up`, async () => {
    const perDay = Math.ceil(LEADS / DAYS);
    let posted = 0;
    for (let day = 0; day < DAYS; day += 1) {
      // Business hours in New York, 9 a.m. to 9 p.m.: the leads of the day spread over them.
      const opens = Date.parse('2026-03-01T14:00:00Z') + day * 86_400_000;
      for (let i = 0; i < perDay && posted < LEADS; i += 1, posted += 1) {
        t.clock.set(new Date(opens + Math.floor((i * 12 * 3_600_000) / perDay)));
        const market = markets[posted % markets.length] as Market;
        const res = await t.sourceApi('/api/lead', apiKey, {
          service: 'roofing',
          zip: market.zip,
          name: 'Month Sim',
          phone: uniquePhone(),
          tcpa_consent: 'true',
        });
        const body = res.json() as { ok: boolean; status?: string; lead_id: string };
        if (!(body.ok && body.status === 'sold')) continue;
        const [match] = await t.database.db
          .select({ id: leadMatches.id })
          .from(leadMatches)
          .where(eq(leadMatches.leadId, body.lead_id));
        market.matchIds.push(match?.id as string);
        // One sale in 40 comes back, approved by an admin the same day.
        if (posted % 40 === 7) {
          const returned = await t.request({
            method: 'POST',
            url: `/api/lead/${body.lead_id}/match/${match?.id}/return`,
            as: admin.cookie,
            payload: { approve: true },
          });
          expect(returned.statusCode).toBe(200);
        }
      }
      // The evening run, and the same run again: the second one finds nothing to do.
      t.clock.set(new Date(opens + 13 * 3_600_000));
      expect((await runBilling()).statusCode).toBe(200);
      const writes = stripe.calls.filter((c) => c.method === 'POST' && !c.replayed).length;
      expect((await runBilling()).json()).toMatchObject({ opened: 0, rolled: 0, closed: 0, invoiced: 0 });
      expect(stripe.calls.filter((c) => c.method === 'POST' && !c.replayed).length).toBe(writes);
    }
    // Past the last period's end and grace: every bill of the month closes.
    t.clock.set('2026-04-20T15:00:00Z');
    await runBilling();

    for (const market of markets) {
      const bills = await expectBillsConsistent(t, admin.cookie, market.buyerId, market.matchIds);
      expect(market.matchIds.length, `${market.pay} buyer in ${market.zip} bought`).toBeGreaterThan(0);
      for (const bill of bills.filter((b) => b.status.complete && cents(b.total.net) > 0)) {
        // Paid the buyer's way: a Stripe invoice for the net, or a prepay draw.
        expect(bill.status.invoiced).toBe(true);
        if (market.pay === 'prepay') {
          const [draw] = await t.database.db.select().from(prepayEntries).where(eq(prepayEntries.billId, bill._id));
          expect(draw?.amountCents).toBe(-cents(bill.total.net));
        } else {
          const invoice = stripe.invoices.get(bill.stripe?.invoice as string);
          expect(invoice?.total).toBe(cents(bill.total.net));
          expect(invoice?.collection_method).toBe(market.pay === 'auto' ? 'charge_automatically' : 'send_invoice');
          if (market.pay === 'auto') expect(invoice?.status).toBe('paid');
        }
      }
      // Rule 7: no prepay or credit buyer bought beyond its limit.
      const [spend] = await t.database.db.select().from(buyerSpend).where(eq(buyerSpend.buyerId, market.buyerId));
      if (market.pay === 'prepay' || market.pay === 'credit')
        expect(spend?.spentCents ?? 0).toBeLessThanOrEqual(spend?.limitCents ?? 0);
      else expect(spend).toBeUndefined();
    }
    // The limits bit: some prepay or credit buyer was refused leads the others bought.
    const limited = markets.filter((m) => m.pay === 'prepay' || m.pay === 'credit');
    const unlimited = markets.filter((m) => m.pay === 'auto' || m.pay === 'invoice');
    expect(Math.min(...limited.map((m) => m.matchIds.length))).toBeLessThan(
      Math.min(...unlimited.map((m) => m.matchIds.length)),
    );
  }, 600_000);
});

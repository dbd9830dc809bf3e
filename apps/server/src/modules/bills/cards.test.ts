import { describe, expect, it } from 'vitest';
import { createBuyerWithLogin } from '../../../test/factories';
import { useFixture } from '../../../test/fixtures';
import { expectScoped404, useAdminTestApp } from '../../../test/harness';
import { startStripeServer } from '../../../test/stripe-server';

const stripe = useFixture(startStripeServer, (s) => s.close());
const { t, admin } = useAdminTestApp(() => ({
  STRIPE_SECRET_KEY: 'sk_test_leadex',
  STRIPE_API_BASE: stripe.url,
  STRIPE_PUBLISHABLE_KEY: 'pk_test_leadex',
}));

const call = (method: 'GET' | 'PUT', url: string, as: string, payload?: object) =>
  t.request({ method, url, as, payload });
const VISA = { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 };
const AMEX = { brand: 'amex', last4: '0005', exp_month: 3, exp_year: 2031 };

/** The Content-Security-Policy header as directive -> its sources. */
function cspOf(header: unknown): Map<string, string[]> {
  return new Map(
    String(header ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

describe('the Content-Security-Policy of an exchange that takes cards (issue 27)', () => {
  it('lets the pages load Stripe.js, its frames and its API, as Stripe documents for Elements', async () => {
    for (const url of ['/', '/api/health']) {
      const csp = cspOf((await t.request({ method: 'GET', url })).headers['content-security-policy']);
      expect(csp.get('script-src')).toEqual(expect.arrayContaining(["'self'", 'https://js.stripe.com']));
      expect(csp.get('frame-src')).toEqual(
        expect.arrayContaining(['https://js.stripe.com', 'https://hooks.stripe.com']),
      );
      expect(csp.get('connect-src')).toEqual(expect.arrayContaining(["'self'", 'https://api.stripe.com']));
      // Nothing else is opened: still no inline script, no other host.
      expect(csp.get('script-src')?.every((src) => src === "'self'" || src.endsWith('js.stripe.com'))).toBe(true);
      expect(csp.get('default-src')).toEqual(["'self'"]);
    }
  });

  it('creates no Stripe customer or SetupIntent until the card form asks for one', async () => {
    const { buyer, cookie } = await createBuyerWithLogin(t);
    const before = stripe.calls.length;
    expect((await call('GET', `/api/buyer/${buyer._id}/stripe/paymentMethods`, cookie)).statusCode).toBe(200);
    expect((await call('GET', `/api/buyer/${buyer._id}`, cookie)).statusCode).toBe(200);
    expect(stripe.calls.slice(before).filter((c) => c.method === 'POST')).toEqual([]);
  });
});

describe("a buyer's cards (GET/PUT /api/buyer/{id}/stripe/…)", () => {
  it('starts a SetupIntent for the card form, lists the saved cards, sets the default and deletes one', async () => {
    const { buyer, cookie } = await createBuyerWithLogin(t);
    const base = `/api/buyer/${buyer._id}/stripe`;
    const empty = await call('GET', `${base}/paymentMethods`, cookie);
    expect(empty.json()).toEqual({ enabled: true, publishableKey: 'pk_test_leadex', paymentMethods: [] });

    // The card form asks for a SetupIntent: its client secret, on the buyer's (new) Stripe customer.
    const intent = await call('GET', `${base}/setupPaymentIntent`, cookie);
    expect(intent.statusCode).toBe(200);
    expect(intent.json().client_secret).toMatch(/^seti_.+_secret_/);
    const [setup] = [...stripe.setupIntents.values()];
    const customer = setup?.customer as string;
    expect(stripe.customers.get(customer)?.metadata).toEqual({ buyer_id: buyer._id });

    // The browser confirms it with Stripe (the card never reaches the exchange); the list shows the cards.
    const visa = stripe.addCard(customer, VISA);
    const amex = stripe.addCard(customer, AMEX);
    const listed = (await call('GET', `${base}/paymentMethods`, cookie)).json();
    expect(listed).toMatchObject({ customer: { id: customer } });
    expect(listed.paymentMethods).toEqual([
      { id: visa, card: VISA, default: false },
      { id: amex, card: AMEX, default: false },
    ]);

    const made = await call('PUT', `${base}/updateDefaultPaymentMethod`, cookie, { paymentMethodId: amex });
    expect(made.statusCode).toBe(200);
    expect(made.json().paymentMethods.map((c: { default: boolean }) => c.default)).toEqual([false, true]);

    const deleted = await call('PUT', `${base}/deletePaymentMethod`, admin.cookie, { paymentMethodId: amex });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().paymentMethods).toEqual([{ id: visa, card: VISA, default: false }]);
  });

  it("answers 404 for another buyer and for another buyer's card, 400 naming a missing card", async () => {
    const mine = await createBuyerWithLogin(t);
    const other = await createBuyerWithLogin(t);
    await call('GET', `/api/buyer/${other.buyer._id}/stripe/setupPaymentIntent`, other.cookie);
    const otherCustomer = [...stripe.setupIntents.values()].at(-1)?.customer as string;
    const theirs = stripe.addCard(otherCustomer, VISA);

    await expectScoped404(t, mine.cookie, 'Buyer', [
      { method: 'GET', url: `/api/buyer/${other.buyer._id}/stripe/paymentMethods` },
      { method: 'GET', url: `/api/buyer/${other.buyer._id}/stripe/setupPaymentIntent` },
      {
        method: 'PUT',
        url: `/api/buyer/${other.buyer._id}/stripe/updateDefaultPaymentMethod`,
        payload: { paymentMethodId: theirs },
      },
      {
        method: 'PUT',
        url: `/api/buyer/${other.buyer._id}/stripe/deletePaymentMethod`,
        payload: { paymentMethodId: theirs },
      },
    ]);
    // Its own route with someone else's card: that card is not found for it.
    await call('GET', `/api/buyer/${mine.buyer._id}/stripe/setupPaymentIntent`, mine.cookie);
    const stolen = await call('PUT', `/api/buyer/${mine.buyer._id}/stripe/deletePaymentMethod`, mine.cookie, {
      paymentMethodId: theirs,
    });
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json().message).toBe('Payment method not found');

    const missing = await call(
      'PUT',
      `/api/buyer/${mine.buyer._id}/stripe/updateDefaultPaymentMethod`,
      mine.cookie,
      {},
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Payment method is required');
  });
});

import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStripeServer } from '../apps/server/test/stripe-server';
import { useBrowser } from './browser';
import { startOwnExchange } from './global-setup';
import { fullPageScreenshot } from './screenshots';
import { USERS } from './support';

/**
 * The buyer's card form on an exchange that takes cards (issue 27): its own exchange, started with
 * Stripe's keys and the local Stripe-compatible server (the suite's exchanges take no cards).
 */
const e2e = useBrowser();
let stripe: Awaited<ReturnType<typeof startStripeServer>>;
let exchange: Awaited<ReturnType<typeof startOwnExchange>> | undefined;

beforeAll(async () => {
  stripe = await startStripeServer();
  exchange = await startOwnExchange(inject('oauthIssuer'), 'smtp://127.0.0.1:9', {
    STRIPE_SECRET_KEY: 'sk_test_e2e',
    STRIPE_API_BASE: stripe.url,
    STRIPE_PUBLISHABLE_KEY: 'pk_test_e2e',
  });
  e2e.baseURL = exchange.baseURL;
}, 300_000);

afterAll(async () => {
  await exchange?.stop();
  await stripe?.close();
});

const STRIPE_JS = 'https://js.stripe.com/**';

/** The Payment Information card of the buyer's home. */
const paymentCard = (page: Page) =>
  page.locator('.mantine-Card-root').filter({ has: page.getByRole('heading', { name: 'Payment Information' }) });

/** The SetupIntents the exchange asked the Stripe server for, and the card form's requests for one. */
function setupIntentsOf(page: Page) {
  const asked: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/stripe/setupPaymentIntent')) asked.push(r.url());
  });
  return { asked, created: () => stripe.calls.filter((c) => c.method === 'POST' && c.path === '/v1/setup_intents') };
}

/**
 * Enough of Stripe.js for Elements to mount: a card field that says it is a stand-in. Stripe.js itself
 * cannot load here (no internet), and a test must not depend on Stripe's servers anyway.
 */
const FAKE_STRIPE_JS = `
window.Stripe = function () {
  var element = {
    mount: function (node) { node.textContent = 'Card field (test stand-in)'; },
    on: function () { return element; }, off: function () { return element; }, once: function () { return element; },
    update: function () {}, destroy: function () {}, unmount: function () {}, focus: function () {}, blur: function () {}, clear: function () {},
  };
  return {
    elements: function () { return { create: function () { return element; }, getElement: function () { return null; }, update: function () {} }; },
    createToken: function () {}, createPaymentMethod: function () {}, confirmCardPayment: function () {},
    confirmSetup: function () { return Promise.resolve({ error: { message: 'The test stand-in saves no card' } }); },
    _registerWrapper: function () {}, registerAppInfo: function () {},
  };
};`;

describe('the card form on an exchange that takes cards', () => {
  it('is allowed to load Stripe.js; when it cannot, says so in words, offers Cancel, and starts no SetupIntent', async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);
    const intents = setupIntentsOf(page);
    // Stripe.js cannot load here; the request reaching the network at all shows the page's policy let
    // the browser ask for it (a script the policy refuses is never requested).
    const scriptRequests: string[] = [];
    await page.route(STRIPE_JS, (route: Route) => {
      scriptRequests.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });

    const home = await page.goto('/');
    const csp = home?.headers()['content-security-policy'] ?? '';
    expect(csp).toMatch(/script-src [^;]*https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/hooks\.stripe\.com/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/api\.stripe\.com/);

    const card = paymentCard(page);
    await card.getByText('No saved cards').waitFor();
    // Opening the page starts nothing at Stripe.
    expect(intents.asked).toEqual([]);

    await card.getByRole('button', { name: 'Add Card' }).click();
    const alert = card.getByRole('alert').filter({ hasText: 'The card form could not load' });
    await alert.waitFor();
    await alert.getByText('your browser could not reach Stripe (js.stripe.com)', { exact: false }).waitFor();
    expect(scriptRequests.length).toBeGreaterThan(0);
    expect(refused).toEqual([]);
    // The form never showed: no SetupIntent was asked for, and none exists at Stripe.
    expect(intents.asked).toEqual([]);
    expect(intents.created()).toEqual([]);
    await fullPageScreenshot(page, 'card-form-unavailable');

    // Try again asks once more; Cancel brings Add Card back.
    const before = scriptRequests.length;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => scriptRequests.length).toBeGreaterThan(before);
    await card.getByRole('alert').filter({ hasText: 'The card form could not load' }).waitFor();
    await card.getByRole('button', { name: 'Cancel' }).click();
    await card.getByRole('button', { name: 'Add Card' }).waitFor();
    expect(intents.created()).toEqual([]);
    await context.close();
  });

  it('asks for the SetupIntent only once Stripe.js has loaded, just before the form shows', async () => {
    const { context, page } = await e2e.signedIn(USERS.buyer);
    const intents = setupIntentsOf(page);
    let releaseScript: () => void = () => undefined;
    const scriptHeld = new Promise<void>((held) => {
      void page.route(STRIPE_JS, async (route: Route) => {
        held();
        // Held until the test has looked: nothing may be started at Stripe while the script loads.
        await new Promise<void>((release) => {
          releaseScript = release;
        });
        await route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_STRIPE_JS });
      });
    });

    await page.goto('/');
    const card = paymentCard(page);
    await card.getByText('No saved cards').waitFor();
    await card.getByRole('button', { name: 'Add Card' }).click();
    await scriptHeld;
    await card.getByText('Loading the card form…').waitFor();
    expect(intents.asked).toEqual([]);
    expect(intents.created()).toEqual([]);

    releaseScript();
    await card.getByText('Card field (test stand-in)').waitFor();
    expect(intents.asked).toHaveLength(1);
    expect(intents.created()).toHaveLength(1);
    await card.getByRole('button', { name: 'Save Card' }).waitFor();
    await fullPageScreenshot(page, 'card-form-shown');
    await card.getByRole('button', { name: 'Cancel' }).click();
    await card.getByRole('button', { name: 'Add Card' }).waitFor();
    await context.close();
  });
});

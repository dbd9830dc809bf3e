import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import qs from 'qs';
import Stripe from 'stripe';
import { listenLocally } from './receivers';

/** A Stripe error as the API answers it (https://docs.stripe.com/api/errors). */
class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly declineCode?: string,
  ) {
    super(message);
  }
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

type Params = Record<string, unknown>;
type Invoice = Stripe.Invoice & { metadata: Record<string, string> };

/**
 * A local Stripe-compatible server for tests (DESIGN.md §11): the official SDK talks to it over HTTP
 * (STRIPE_API_BASE). It keeps customers, invoice items and invoices with Stripe's ids, shapes and
 * errors (typed by the SDK's own types), replays a request sent again with the same Idempotency-Key
 * as Stripe does, and records every call so a test can count what was charged.
 */
export async function startStripeServer() {
  const customers = new Map<string, Stripe.Customer>();
  const invoices = new Map<string, Invoice>();
  const items = new Map<string, Stripe.InvoiceItem>();
  const paymentMethods = new Map<string, Stripe.PaymentMethod>();
  const setupIntents = new Map<string, Stripe.SetupIntent>();
  const replays = new Map<string, { status: number; body: unknown }>();
  /** Customers whose cards are declined. */
  const declining = new Set<string>();
  /** Every request (method and path), replays included. */
  const calls: Array<{ method: string; path: string; idempotencyKey?: string; replayed: boolean }> = [];
  let invoiceNumber = 0;
  /** Requests to answer once with a 500 before any work (Stripe down at that moment), by "METHOD /path" pattern. */
  const outages: Array<{ method: string; path: RegExp }> = [];
  const hangs: Array<{ method: string; path: RegExp }> = [];

  function customer(customerId: unknown): Stripe.Customer {
    const found = customers.get(String(customerId));
    if (!found)
      throw new StripeApiError(404, 'invalid_request_error', `No such customer: '${customerId}'`, 'resource_missing');
    return found;
  }

  function invoice(invoiceId: string): Invoice {
    const found = invoices.get(invoiceId);
    if (!found)
      throw new StripeApiError(404, 'invalid_request_error', `No such invoice: '${invoiceId}'`, 'resource_missing');
    return found;
  }

  /** The invoice, if it is in the status the call needs; else Stripe's refusal, `refusal`. */
  function invoiceIn(status: Invoice['status'], invoiceId: string, refusal: string): Invoice {
    const found = invoice(invoiceId);
    if (found.status !== status) throw new StripeApiError(400, 'invalid_request_error', refusal);
    return found;
  }

  function paymentMethod(paymentMethodId: unknown): Stripe.PaymentMethod {
    const found = paymentMethods.get(String(paymentMethodId));
    if (!found)
      throw new StripeApiError(
        404,
        'invalid_request_error',
        `No such PaymentMethod: '${paymentMethodId}'`,
        'resource_missing',
      );
    return found;
  }

  const routes: Array<[method: string, path: RegExp, handle: (params: Params, match: RegExpMatchArray) => unknown]> = [
    [
      'POST',
      /^\/v1\/setup_intents$/,
      (p) => {
        customer(p.customer);
        const intentId = id('seti');
        const created = {
          id: intentId,
          object: 'setup_intent',
          customer: p.customer as string,
          client_secret: `${intentId}_secret_${randomBytes(8).toString('hex')}`,
          status: 'requires_payment_method',
          usage: (p.usage as string) ?? 'off_session',
          metadata: (p.metadata as Record<string, string>) ?? {},
          created: now(),
          livemode: false,
        } as unknown as Stripe.SetupIntent;
        setupIntents.set(created.id, created);
        return created;
      },
    ],
    [
      'GET',
      /^\/v1\/payment_methods$/,
      (p) => {
        customer(p.customer);
        const data = [...paymentMethods.values()].filter((m) => m.customer === p.customer);
        return { object: 'list', data, has_more: false, url: '/v1/payment_methods' };
      },
    ],
    ['GET', /^\/v1\/payment_methods\/([^/]+)$/, (_p, m) => paymentMethod(m[1])],
    [
      'POST',
      /^\/v1\/payment_methods\/([^/]+)\/detach$/,
      (_p, m) => {
        const found = paymentMethod(m[1]);
        if (!found.customer)
          throw new StripeApiError(400, 'invalid_request_error', 'The payment method is not attached to a customer.');
        const owner = customers.get(String(found.customer));
        const settings = owner?.invoice_settings as { default_payment_method: string | null } | undefined;
        if (settings?.default_payment_method === found.id) settings.default_payment_method = null;
        found.customer = null;
        return found;
      },
    ],
    [
      'POST',
      /^\/v1\/customers$/,
      (p) => {
        const created = {
          id: id('cus'),
          object: 'customer',
          created: now(),
          name: (p.name as string) ?? null,
          email: (p.email as string) ?? null,
          metadata: (p.metadata as Record<string, string>) ?? {},
          invoice_settings: {
            default_payment_method: null,
            custom_fields: null,
            footer: null,
            rendering_options: null,
          },
          livemode: false,
        } as unknown as Stripe.Customer;
        customers.set(created.id, created);
        return created;
      },
    ],
    ['GET', /^\/v1\/customers\/([^/]+)$/, (_p, m) => customer(m[1])],
    [
      'POST',
      /^\/v1\/customers\/([^/]+)$/,
      (p, m) => {
        const found = customer(m[1]);
        const settings = p.invoice_settings as { default_payment_method?: string } | undefined;
        if (settings?.default_payment_method) {
          const method = paymentMethod(settings.default_payment_method);
          if (method.customer !== found.id)
            throw new StripeApiError(
              400,
              'invalid_request_error',
              'The payment method must be attached to the customer.',
            );
          (found.invoice_settings as { default_payment_method: string | null }).default_payment_method = method.id;
        }
        return found;
      },
    ],
    [
      'POST',
      /^\/v1\/invoices$/,
      (p) => {
        customer(p.customer);
        const method = (p.collection_method as Stripe.Invoice.CollectionMethod) ?? 'charge_automatically';
        if (method === 'send_invoice' && p.days_until_due === undefined)
          throw new StripeApiError(
            400,
            'invalid_request_error',
            'Missing required param: days_until_due.',
            'parameter_missing',
          );
        const created = {
          id: id('in'),
          object: 'invoice',
          customer: p.customer as string,
          collection_method: method,
          days_until_due: p.days_until_due === undefined ? null : Number(p.days_until_due),
          status: 'draft',
          number: null,
          hosted_invoice_url: null,
          currency: 'usd',
          total: 0,
          amount_due: 0,
          amount_paid: 0,
          description: (p.description as string) ?? null,
          metadata: (p.metadata as Record<string, string>) ?? {},
          lines: { object: 'list', data: [], has_more: false, url: '' },
          created: now(),
          livemode: false,
        } as unknown as Invoice;
        invoices.set(created.id, created);
        return created;
      },
    ],
    ['GET', /^\/v1\/invoices\/([^/]+)$/, (_p, m) => invoice(m[1] as string)],
    [
      'POST',
      /^\/v1\/invoiceitems$/,
      (p) => {
        customer(p.customer);
        const amount = Number(p.amount);
        if (!Number.isInteger(amount))
          throw new StripeApiError(
            400,
            'invalid_request_error',
            'Invalid integer: amount',
            'parameter_invalid_integer',
          );
        const target = p.invoice ? invoice(String(p.invoice)) : null;
        if (target && target.status !== 'draft')
          throw new StripeApiError(400, 'invalid_request_error', 'You can only add invoice items to draft invoices.');
        const created = {
          id: id('ii'),
          object: 'invoiceitem',
          customer: p.customer as string,
          amount,
          currency: (p.currency as string) ?? 'usd',
          description: (p.description as string) ?? null,
          invoice: target?.id ?? null,
          metadata: (p.metadata as Record<string, string>) ?? {},
          date: now(),
          livemode: false,
        } as unknown as Stripe.InvoiceItem;
        items.set(created.id, created);
        if (target) {
          (target.lines.data as unknown[]).push({
            id: id('il'),
            object: 'line_item',
            amount,
            description: created.description,
          });
          target.total += amount;
          target.amount_due += amount;
        }
        return created;
      },
    ],
    [
      'POST',
      /^\/v1\/invoices\/([^/]+)\/finalize$/,
      (_p, m) => {
        const found = invoiceIn('draft', m[1] as string, 'This invoice is already finalized.');
        invoiceNumber += 1;
        found.status = 'open';
        found.number = `LDX-${String(invoiceNumber).padStart(4, '0')}`;
        found.hosted_invoice_url = `https://invoice.stripe.test/i/${found.id}`;
        return found;
      },
    ],
    [
      'POST',
      /^\/v1\/invoices\/([^/]+)\/pay$/,
      (_p, m) => {
        if (invoice(m[1] as string).status === 'paid')
          throw new StripeApiError(400, 'invalid_request_error', 'Invoice is already paid', 'invoice_already_paid');
        const found = invoiceIn('open', m[1] as string, 'You can only pay an open invoice.');
        const owner = customer(found.customer);
        const card = (owner.invoice_settings as { default_payment_method: string | null }).default_payment_method;
        if (!card)
          throw new StripeApiError(
            400,
            'invalid_request_error',
            'The customer has no default payment method.',
            'invoice_no_customer_line_items',
          );
        if (declining.has(owner.id))
          throw new StripeApiError(402, 'card_error', 'Your card was declined.', 'card_declined', 'generic_decline');
        found.status = 'paid';
        found.amount_paid = found.amount_due;
        found.amount_due = 0;
        return found;
      },
    ],
    [
      'POST',
      /^\/v1\/invoices\/([^/]+)\/send$/,
      (_p, m) => {
        return invoiceIn('open', m[1] as string, 'You can only send an open invoice.');
      },
    ],
  ];

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  function send(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(body));
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const method = req.method ?? 'GET';
    const key = req.headers['idempotency-key'] as string | undefined;
    const text = await readBody(req);
    if (!String(req.headers.authorization ?? '').startsWith('Bearer sk_test_')) {
      send(res, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
      return;
    }
    const replayKey = key && `${method} ${url.pathname} ${key}`;
    const replay = replayKey ? replays.get(replayKey) : undefined;
    calls.push({ method, path: url.pathname, idempotencyKey: key, replayed: Boolean(replay) });
    if (replay) {
      send(res, replay.status, replay.body);
      return;
    }
    const outage = outages.findIndex((o) => o.method === method && o.path.test(url.pathname));
    if (outage >= 0) {
      outages.splice(outage, 1);
      send(res, 500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
      return;
    }
    const params = { ...qs.parse(url.search.slice(1)), ...qs.parse(text) } as Params;
    let status = 200;
    let body: unknown;
    const route = routes.find(([m, path]) => m === method && path.test(url.pathname));
    try {
      if (!route)
        throw new StripeApiError(
          404,
          'invalid_request_error',
          `Unrecognized request URL (${method}: ${url.pathname}).`,
        );
      body = route[2](params, url.pathname.match(route[1]) as RegExpMatchArray);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      body = {
        error: { type: error.type, message: error.message, code: error.code, decline_code: error.declineCode },
      };
    }
    // Stripe keeps the first answer to a key, errors included, and replays it.
    if (replayKey) replays.set(replayKey, { status, body });
    const hang = hangs.findIndex((h) => h.method === method && h.path.test(url.pathname));
    if (hang >= 0) {
      // Done, but never answered: the caller dies waiting (a process killed mid-request).
      hangs.splice(hang, 1);
      return;
    }
    send(res, status, body);
  });
  const { port, url, close } = await listenLocally(server);

  return {
    url: url(),
    customers,
    invoices,
    items,
    calls,
    /** The official SDK talking to this server, for what a test does in the buyer's place (a customer, a card). */
    client: () => new Stripe('sk_test_leadex', { host: '127.0.0.1', port, protocol: 'http' }),
    /** Gives the customer a default card (what a saved card does). */
    setDefaultPaymentMethod(customerId: string, paymentMethodId = id('pm')) {
      (customer(customerId).invoice_settings as { default_payment_method: string | null }).default_payment_method =
        paymentMethodId;
    },
    /**
     * A card saved through a SetupIntent, as the browser's Stripe Elements would confirm it: the card is
     * attached to the customer. Answers its id.
     */
    addCard(customerId: string, card: { brand: string; last4: string; exp_month: number; exp_year: number }) {
      customer(customerId);
      const created = {
        id: id('pm'),
        object: 'payment_method',
        type: 'card',
        customer: customerId,
        card: { ...card, country: 'US', funding: 'credit' },
        created: now(),
        livemode: false,
      } as unknown as Stripe.PaymentMethod;
      paymentMethods.set(created.id, created);
      return created.id;
    },
    setupIntents,
    /** The customer's card is declined from now on. */
    decline(customerId: string) {
      declining.add(customerId);
    },
    /** The next request matching is answered 500 without doing anything (an outage at that moment). */
    failOnce(method: string, path: RegExp) {
      outages.push({ method, path });
    },
    /** The next request matching is carried out but never answered (the caller is killed meanwhile). */
    hangOnce(method: string, path: RegExp) {
      hangs.push({ method, path });
    },
    close,
  };
}

export type StripeServer = Awaited<ReturnType<typeof startStripeServer>>;

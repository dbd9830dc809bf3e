import type { PaymentCard, PaymentInformation } from '@leadex/domain';
import type Stripe from 'stripe';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import { centsToDollars } from '../../lib/money';
import type { Viewer } from '../../plugins/auth';
import type { BuyerRow, BuyersService } from '../buyers/buyers.service';
import { billsRepo } from './bills.repo';
import { ensureStripeCustomer } from './stripe-customer';

/**
 * A buyer's saved cards (portals spec §2 Payment Information; DESIGN.md §11): the browser saves a card
 * with Stripe Elements through a SetupIntent, so card numbers never reach the exchange; the exchange
 * lists the cards, sets the default the billing run charges, and deletes them.
 */
export function createCardsService({
  db,
  stripe,
  config,
  buyers,
}: {
  db: Db;
  stripe: Stripe | null;
  config: Pick<Config, 'STRIPE_PUBLISHABLE_KEY'>;
  buyers: Pick<BuyersService, 'findRow'>;
}) {
  async function visibleBuyer(viewer: Viewer, buyerId: string): Promise<BuyerRow> {
    const visible = viewer.role === 'admin' || (viewer.role === 'buyer' && viewer.roleId === buyerId);
    const buyer = visible ? await buyers.findRow(buyerId) : null;
    if (!buyer) throw AppError.notFound('Buyer');
    return buyer;
  }

  function client(): Stripe {
    if (!stripe) throw new AppError('conflict', 'Card payments are not set up on this exchange yet');
    return stripe;
  }

  /** The card, if it is this buyer's; else not found (another customer's card is no business of this buyer). */
  async function cardOf(buyer: BuyerRow, paymentMethodId: string): Promise<Stripe.PaymentMethod> {
    const customer = buyer.stripeCustomerId;
    const method = customer
      ? await client()
          .paymentMethods.retrieve(paymentMethodId)
          .catch(() => null)
      : null;
    if (!method || method.customer !== customer) throw AppError.notFound('Payment method');
    return method;
  }

  return {
    async list(viewer: Viewer, buyerId: string): Promise<PaymentInformation> {
      const buyer = await visibleBuyer(viewer, buyerId);
      const publishableKey = config.STRIPE_PUBLISHABLE_KEY;
      const spend = await billsRepo.spendOf(db, buyer.id);
      const base = {
        ...(spend ? { available: centsToDollars(spend.limitCents - spend.spentCents) } : {}),
        enabled: Boolean(stripe),
        ...(publishableKey && stripe ? { publishableKey } : {}),
        ...(buyer.payMethod === 'prepay'
          ? { prepay_balance: centsToDollars(await billsRepo.prepayBalance(db, buyer.id)) }
          : {}),
      };
      if (!stripe || !buyer.stripeCustomerId) return { ...base, paymentMethods: [] };
      const [customer, methods] = await Promise.all([
        stripe.customers.retrieve(buyer.stripeCustomerId),
        stripe.paymentMethods.list({ customer: buyer.stripeCustomerId, type: 'card', limit: 100 }),
      ]);
      const settings = 'invoice_settings' in customer ? customer.invoice_settings : null;
      const defaultId =
        typeof settings?.default_payment_method === 'string'
          ? settings.default_payment_method
          : (settings?.default_payment_method?.id ?? null);
      const paymentMethods: PaymentCard[] = methods.data.map((m) => ({
        id: m.id,
        card: {
          brand: m.card?.brand ?? 'card',
          last4: m.card?.last4 ?? '',
          exp_month: m.card?.exp_month ?? 0,
          exp_year: m.card?.exp_year ?? 0,
        },
        default: m.id === defaultId,
      }));
      return { ...base, customer: { id: buyer.stripeCustomerId }, paymentMethods };
    },

    /** GET …/stripe/setupPaymentIntent: a SetupIntent for the browser's card form; answers its client secret. */
    async setupIntent(viewer: Viewer, buyerId: string): Promise<{ client_secret: string }> {
      const buyer = await visibleBuyer(viewer, buyerId);
      const customer = await ensureStripeCustomer(db, client(), buyer);
      const intent = await client().setupIntents.create({
        customer,
        usage: 'off_session',
        automatic_payment_methods: { enabled: true },
        metadata: { buyer_id: buyer.id },
      });
      if (!intent.client_secret) throw new AppError('conflict', 'Stripe did not start the card form; try again');
      return { client_secret: intent.client_secret };
    },

    async setDefault(viewer: Viewer, buyerId: string, paymentMethodId: string): Promise<PaymentInformation> {
      const buyer = await visibleBuyer(viewer, buyerId);
      const card = await cardOf(buyer, paymentMethodId);
      await client().customers.update(buyer.stripeCustomerId as string, {
        invoice_settings: { default_payment_method: card.id },
      });
      return this.list(viewer, buyerId);
    },

    async remove(viewer: Viewer, buyerId: string, paymentMethodId: string): Promise<PaymentInformation> {
      const buyer = await visibleBuyer(viewer, buyerId);
      const card = await cardOf(buyer, paymentMethodId);
      await client().paymentMethods.detach(card.id);
      return this.list(viewer, buyerId);
    },
  };
}

export type CardsService = ReturnType<typeof createCardsService>;

import type Stripe from 'stripe';
import type { Db } from '../../db/client';
import type { BuyerRow } from '../buyers/buyers.service';
import { billsRepo } from './bills.repo';

/**
 * The buyer's Stripe customer, created the first time it is needed (a card saved, a bill invoiced).
 * The key is the buyer's, so two requests at once, or a retry, find the same customer.
 */
export async function ensureStripeCustomer(db: Db, stripe: Stripe, buyer: BuyerRow): Promise<string> {
  if (buyer.stripeCustomerId) return buyer.stripeCustomerId;
  const customer = await stripe.customers.create(
    { name: buyer.name, email: buyer.email, metadata: { buyer_id: buyer.id } },
    { idempotencyKey: `leadex-buyer-${buyer.id}-customer` },
  );
  await billsRepo.setStripeCustomer(db, buyer.id, customer.id);
  return customer.id;
}

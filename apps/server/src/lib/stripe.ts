import Stripe from 'stripe';
import type { Config } from '../config';

/**
 * The one Stripe client (DESIGN.md §11 Payments), from STRIPE_SECRET_KEY; null without one, so bills
 * accrue and close and payments wait. STRIPE_API_BASE points the official SDK elsewhere (tests run it
 * over HTTP against a local Stripe-compatible server); the SDK's own retries are off, as every write
 * carries an idempotency key of ours and a failed run is run again by the billing job.
 */
export function createStripe(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_API_BASE'>): Stripe | null {
  if (!config.STRIPE_SECRET_KEY) return null;
  const base = config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : null;
  return new Stripe(config.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 0,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

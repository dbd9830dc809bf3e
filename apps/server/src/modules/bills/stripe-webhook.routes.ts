import { apiResponses, stripeWebhookAnswerSchema } from '@leadex/domain';
import type { FastifyPluginAsync } from 'fastify';
import Stripe from 'stripe';
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';
import type { BillPayments } from './bill-payments';

/**
 * POST /api/stripe/webhook (DESIGN.md §11 Payments): Stripe's events, verified with
 * STRIPE_WEBHOOK_SECRET against the body exactly as sent, so this route reads JSON as raw bytes
 * (a parser of its own, in this plugin only).
 */
export const stripeWebhookRoutes: FastifyPluginAsync<{
  payments: Pick<BillPayments, 'onEvent'>;
  config: Pick<Config, 'STRIPE_WEBHOOK_SECRET'>;
}> = async (app, { payments, config }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post(
    '/stripe/webhook',
    { schema: { tags: ['bills'], hide: true, response: apiResponses(stripeWebhookAnswerSchema) } },
    async (request) => {
      const secret = config.STRIPE_WEBHOOK_SECRET;
      if (!secret) throw new AppError('not_found', 'Stripe webhooks are not configured on this exchange');
      const body = request.body;
      if (!Buffer.isBuffer(body)) throw new AppError('bad_request', 'Send the Stripe event as JSON');
      let event: Stripe.Event;
      try {
        event = Stripe.webhooks.constructEvent(body, String(request.headers['stripe-signature'] ?? ''), secret);
      } catch {
        throw new AppError('bad_request', 'The Stripe-Signature header does not match this body');
      }
      const handled = await payments.onEvent(event);
      return { received: true, handled };
    },
  );
};

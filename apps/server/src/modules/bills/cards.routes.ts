import {
  apiResponses,
  paymentInformationSchema,
  paymentMethodBodySchema,
  setupIntentAnswerSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import type { CardsService } from './cards.service';

const params = z.object({ id: z.string() });
const cardsAnswer = apiResponses(paymentInformationSchema);

/** /api/buyer/{id}/stripe/…: a buyer's saved cards, for the admin and for that buyer only (another's: 404). */
export const cardRoutes: FastifyPluginAsyncZod<{ cards: CardsService }> = async (app, { cards }) => {
  const adminOrBuyer = app.requireRole('admin', 'buyer');
  const card = (body: unknown) => {
    const parsed = paymentMethodBodySchema.safeParse(body);
    if (!parsed.success) throw AppError.fromIssues(parsed.error.issues);
    return parsed.data.paymentMethodId;
  };

  app.get(
    '/buyer/:id/stripe/paymentMethods',
    { onRequest: adminOrBuyer, schema: { tags: ['buyers'], params, response: cardsAnswer } },
    (r) => cards.list(r.viewer(), r.params.id),
  );
  app.get(
    '/buyer/:id/stripe/setupPaymentIntent',
    { onRequest: adminOrBuyer, schema: { tags: ['buyers'], params, response: apiResponses(setupIntentAnswerSchema) } },
    (r) => cards.setupIntent(r.viewer(), r.params.id),
  );
  app.put(
    '/buyer/:id/stripe/updateDefaultPaymentMethod',
    { onRequest: adminOrBuyer, schema: { tags: ['buyers'], params, response: cardsAnswer } },
    (r) => cards.setDefault(r.viewer(), r.params.id, card(r.body)),
  );
  app.put(
    '/buyer/:id/stripe/deletePaymentMethod',
    { onRequest: adminOrBuyer, schema: { tags: ['buyers'], params, response: cardsAnswer } },
    (r) => cards.remove(r.viewer(), r.params.id, card(r.body)),
  );
};

import {
  apiResponses,
  webhookCreateSchema,
  webhookDraftSchema,
  webhookListItemSchema,
  webhookListQuery,
  webhookSchema,
  webhookTemplateSchema,
  webhookTestResultSchema,
  webhookTestSchema,
  webhookUpdateSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../../config';
import { idParams, pagedListRoute, scopedRecordRoutes } from '../../../lib/http';
import { perUser, registerPerUserLimits } from '../../../plugins/user-rate-limit';
import type { WebhooksService } from './webhooks.service';

const actionParams = z.object({ id: z.string(), action: z.string() });

/**
 * /api/webhook: custom deliveries (admin §7 Deliveries, portals §7). Admins see and change every
 * buyer's; a buyer only its own, and another buyer's delivery answers 404 on every route.
 */
export const webhookRoutes: FastifyPluginAsyncZod<{
  webhooks: WebhooksService;
  config: Pick<Config, 'DELIVERY_TEST_PER_MINUTE'>;
}> = async (app, { webhooks, config }) => {
  const adminOrBuyer = app.requireRole('admin', 'buyer');
  const tags = ['deliveries'];
  await registerPerUserLimits(app);

  pagedListRoute(
    app,
    '/webhook',
    { onRequest: adminOrBuyer, tags, querystring: webhookListQuery, item: webhookListItemSchema },
    (query, request) => webhooks.list(request.viewer(), query),
  );

  // The template with the mapping field names (registered before /webhook/:id, and wins over it).
  app.get(
    '/webhook/new',
    { onRequest: adminOrBuyer, schema: { tags, response: apiResponses(webhookTemplateSchema) } },
    () => webhooks.template(),
  );

  app.get(
    '/webhook/:id/:action',
    { onRequest: adminOrBuyer, schema: { tags, params: actionParams, response: apiResponses(webhookDraftSchema) } },
    (request) => webhooks.action(request.viewer(), request.params.id, request.params.action),
  );

  scopedRecordRoutes(
    app,
    '/webhook',
    { onRequest: adminOrBuyer, tags, record: webhookSchema, create: webhookCreateSchema, update: webhookUpdateSchema },
    webhooks,
  );

  app.post(
    '/webhook/:id/test',
    {
      onRequest: adminOrBuyer,
      // Each Test is a call to a URL the user chose: a held-down button must not make the exchange a flood.
      ...perUser(config.DELIVERY_TEST_PER_MINUTE, 60_000, 'delivery tests'),
      schema: { tags, params: idParams, body: webhookTestSchema, response: apiResponses(webhookTestResultSchema) },
    },
    (request) => webhooks.test(request.viewer(), request.params.id, request.body),
  );
};

import {
  adminMessageSchema,
  apiResponses,
  buyerMessageSchema,
  messageHideManyAnswerSchema,
  messageHideManySchema,
  messageHideSchema,
  messageListQuery,
  sentBuyerMessageSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { created, idParams, pagedListRoute } from '../../lib/http';
import { perUser, registerPerUserLimits } from '../../plugins/user-rate-limit';
import type { MessagesService } from './messages.service';

/**
 * GET /api/message/admin?days=5 and PUT /api/message/admin/{id} (spec: admin messages); POST
 * /api/buyer/{id}/message, the buyer home's Message Us, which becomes an admin message.
 */
export const messageRoutes: FastifyPluginAsyncZod<{
  messages: MessagesService;
  config: Pick<Config, 'BUYER_MESSAGES_PER_HOUR'>;
}> = async (app, { messages, config }) => {
  await registerPerUserLimits(app);
  pagedListRoute(
    app,
    '/message/admin',
    { onRequest: app.requireRole('admin'), tags: ['admin'], querystring: messageListQuery, item: adminMessageSchema },
    (query) => messages.list(query),
  );

  app.put(
    '/message/admin',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags: ['admin'], body: messageHideManySchema, response: apiResponses(messageHideManyAnswerSchema) },
    },
    (request) => messages.hideMany(request.body.ids, request.body.hide),
  );

  app.put(
    '/message/admin/:id',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['admin'],
        params: z.object({ id: z.string() }),
        body: messageHideSchema,
        response: apiResponses(adminMessageSchema),
      },
    },
    (request) => messages.hide(request.params.id, request.body.hide),
  );

  app.post(
    '/buyer/:id/message',
    {
      onRequest: app.requireRole('buyer'),
      // Every message lands in the admins' Messages: one buyer must not bury the others'.
      ...perUser(config.BUYER_MESSAGES_PER_HOUR, 3_600_000, 'messages'),
      schema: {
        tags: ['buyers'],
        params: idParams,
        body: buyerMessageSchema,
        response: apiResponses(sentBuyerMessageSchema, 201),
      },
    },
    (request, reply) => created(reply, messages.fromBuyer(request.viewer(), request.params.id, request.body.message)),
  );
};

import { messageHideSchema, messageListQuery } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps';

/** GET /api/message/admin?days=5 and PUT /api/message/admin/{id} (spec: admin messages). */
export const messageRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { services }) => {
  app.get(
    '/message/admin',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['admin'],
        querystring: messageListQuery,
      },
    },
    (request) => services.messages.list(request.query),
  );

  app.put(
    '/message/admin/:id',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags: ['admin'], params: z.object({ id: z.string() }), body: messageHideSchema },
    },
    (request) => services.messages.hide(request.params.id, request.body.hide),
  );
};

import { apiResponses, outboxMessageSchema, pageQuery, pageSchema } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../../deps';

/** GET /api/outbox: outgoing mail, for admins (what a missing or failing SMTP server kept back). */
export const outboxRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { services }) => {
  app.get(
    '/outbox',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags: ['admin'], querystring: pageQuery(25), response: apiResponses(pageSchema(outboxMessageSchema)) },
    },
    (request) => services.outbox.list(request.query),
  );
};

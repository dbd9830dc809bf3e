import { apiResponses, outboxMessageSchema, pageQuery, pageSchema } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { OutboxService } from './outbox.service';

/** GET /api/outbox: outgoing mail, for admins (what a missing or failing SMTP server kept back). */
export const outboxRoutes: FastifyPluginAsyncZod<{ outbox: OutboxService }> = async (app, { outbox }) => {
  app.get(
    '/outbox',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags: ['admin'], querystring: pageQuery(25), response: apiResponses(pageSchema(outboxMessageSchema)) },
    },
    (request) => outbox.list(request.query),
  );
};

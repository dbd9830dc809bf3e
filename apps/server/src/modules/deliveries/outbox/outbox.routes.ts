import { outboxMessageSchema, pageQuery } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pagedListRoute } from '../../../lib/http';
import type { OutboxService } from './outbox.service';

/** GET /api/outbox: outgoing mail, for admins (what a missing or failing SMTP server kept back). */
export const outboxRoutes: FastifyPluginAsyncZod<{ outbox: OutboxService }> = async (app, { outbox }) => {
  pagedListRoute(
    app,
    '/outbox',
    { onRequest: app.requireRole('admin'), tags: ['admin'], querystring: pageQuery(25), item: outboxMessageSchema },
    (query) => outbox.list(query),
  );
};

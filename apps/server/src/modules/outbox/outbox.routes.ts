import { pageQuery } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app';
import { toEpochSeconds } from '../../lib/clock';
import { outboxRepo } from './outbox.repo';

/** GET /api/outbox: outgoing mail, for admins (what a missing or failing SMTP server kept back). */
export const outboxRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    '/outbox',
    { onRequest: app.requireRole('admin'), schema: { tags: ['admin'], querystring: pageQuery(25) } },
    async (request) => {
      const { page, pageSize } = request.query;
      const { rows, total } = await outboxRepo.page(deps.db, (page - 1) * pageSize, pageSize);
      return {
        data: rows.map((r) => ({
          _id: r.id,
          channel: r.channel,
          to: r.to,
          subject: r.subject,
          text: r.text,
          status: r.status,
          error: r.error ?? undefined,
          ts: toEpochSeconds(r.createdAt),
        })),
        total,
      };
    },
  );
};

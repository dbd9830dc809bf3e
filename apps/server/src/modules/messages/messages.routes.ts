import { pageQuery } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app';
import { toEpochSeconds } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { type MessageRow, messagesRepo } from './messages.repo';

const DAY_MS = 86_400_000;

const messageOf = (m: MessageRow) => ({
  _id: m.id,
  text: m.text,
  data: m.data ?? undefined,
  hidden: m.hiddenAt !== null,
  ts: toEpochSeconds(m.createdAt),
});

/** GET /api/message/admin?days=5 and PUT /api/message/admin/{id} (spec: admin messages). */
export const messageRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, clock }) => {
  app.get(
    '/message/admin',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['admin'],
        querystring: pageQuery(15).extend({ days: z.coerce.number().int().min(1).max(366).default(5) }),
      },
    },
    async (request) => {
      const { page, pageSize, days } = request.query;
      const since = new Date(clock.now().getTime() - days * DAY_MS);
      const { rows, total } = await messagesRepo.page(db, since, (page - 1) * pageSize, pageSize);
      return { data: rows.map(messageOf), total };
    },
  );

  app.put(
    '/message/admin/:id',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags: ['admin'], params: z.object({ id: z.string() }), body: z.object({ hide: z.boolean() }) },
    },
    async (request) => {
      const row = await messagesRepo.hide(db, request.params.id, request.body.hide ? clock.now() : null);
      if (!row) throw AppError.notFound('Message');
      return messageOf(row);
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../deps';

const flag = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => v === 'true');

/** /api/lead/{id}: one lead, scoped to the caller's role. */
export const leadRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { services }) => {
  const { leads } = services;
  app.get(
    '/lead/:id',
    {
      onRequest: app.requireRole('admin', 'buyer', 'source'),
      schema: {
        tags: ['leads'],
        params: z.object({ id: z.string() }),
        querystring: z.object({ includeMatchLog: flag, includeNotifyLogs: flag }),
      },
    },
    (request) =>
      leads.get(request.viewer(), request.params.id, {
        includeMatchLog: request.query.includeMatchLog,
        includeNotifyLogs: request.query.includeNotifyLogs,
      }),
  );
};

import { apiResponses, returnAnswerSchema, returnListItemSchema, returnListQuery } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pagedListRoute } from '../../lib/http';
import type { ReturnsService } from './returns.service';

const matchParams = z.object({ id: z.string(), matchId: z.string() });

/** Lead returns: a buyer asks, an admin decides (DESIGN.md §7). */
export const returnRoutes: FastifyPluginAsyncZod<{ returns: ReturnsService }> = async (app, { returns }) => {
  pagedListRoute(
    app,
    '/lead/returns',
    {
      onRequest: app.requireRole('admin'),
      tags: ['returns'],
      querystring: returnListQuery,
      item: returnListItemSchema,
    },
    (query) => returns.list(query),
  );

  app.post(
    '/lead/:id/match/:matchId/return',
    {
      onRequest: app.requireRole('admin', 'buyer'),
      schema: {
        tags: ['returns'],
        summary: "A buyer's return request (reason, comment), or an admin's decision (approve: true or deny: true)",
        params: matchParams,
        // Checked by the service: what the body must hold depends on who sends it.
        body: z.record(z.string(), z.unknown()),
        response: apiResponses(returnAnswerSchema),
      },
    },
    (request) => returns.act(request.viewer(), request.params.id, request.params.matchId, request.body),
  );
};

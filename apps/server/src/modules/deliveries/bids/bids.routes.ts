import { apiResponses, pingBidListQuery, pingBidPageSchema } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BidsService } from './bids.service';

/** GET /api/pingbids: Ping/Post buyers' bids and reasons on pings that never became leads (admins). */
export const bidsRoutes: FastifyPluginAsyncZod<{ bids: BidsService }> = async (app, { bids }) => {
  app.get(
    '/pingbids',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags: ['admin'], querystring: pingBidListQuery, response: apiResponses(pingBidPageSchema) },
    },
    (request) => bids.list(request.query),
  );
};

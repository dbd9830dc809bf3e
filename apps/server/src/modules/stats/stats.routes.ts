import {
  apiResponses,
  buyerStatsSchema,
  csvResponse,
  dailyFiguresSchema,
  reportQuery,
  reportRowsSchema,
  statsSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../lib/http';
import type { StatsService } from './stats.service';

/**
 * GET /api/stats/ (the admin dashboard's figures), the month per day, and the reports per source and buyer;
 * GET /api/buyer/{id}/stats, the buyer home's figures (the signed-in buyer's own only).
 */
export const statsRoutes: FastifyPluginAsyncZod<{ stats: StatsService }> = async (app, { stats }) => {
  const admin = app.requireRole('admin');
  const handler = () => stats.get();
  const options = { onRequest: admin, schema: { tags: ['stats'], response: apiResponses(statsSchema) } };
  app.get('/stats', options, handler);
  app.get('/stats/', options, handler);

  app.get(
    '/stats/daily',
    { onRequest: admin, schema: { tags: ['stats'], response: apiResponses(z.array(dailyFiguresSchema)) } },
    () => stats.daily(),
  );

  const report = z.enum(['sources', 'buyers']);
  app.get(
    '/stats/:report',
    {
      onRequest: admin,
      schema: {
        tags: ['stats'],
        params: z.object({ report }),
        querystring: reportQuery,
        response: apiResponses(reportRowsSchema),
      },
    },
    (request) => (request.params.report === 'sources' ? stats.sources(request.query) : stats.buyers(request.query)),
  );

  app.get(
    '/stats/:report/export.csv',
    {
      onRequest: admin,
      schema: { tags: ['stats'], params: z.object({ report }), querystring: reportQuery, response: csvResponse },
    },
    async (request, reply) => {
      const { fileName, body } = await stats.csv(request.params.report, request.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );

  app.get(
    '/buyer/:id/stats',
    {
      onRequest: app.requireRole('buyer'),
      schema: { tags: ['buyers'], params: idParams, response: apiResponses(buyerStatsSchema) },
    },
    (request) => stats.buyer(request.viewer(), request.params.id),
  );
};

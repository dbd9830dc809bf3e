import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app';
import { createStatsService } from './stats.service';

/** GET /api/stats/: the admin dashboard's figures. */
export const statsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { db, clock }) => {
  const stats = createStatsService(db, clock);
  const handler = () => stats.get();
  const options = { onRequest: app.requireRole('admin'), schema: { tags: ['stats'] } };
  app.get('/stats', options, handler);
  app.get('/stats/', options, handler);
};

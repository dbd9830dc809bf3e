import { statsSchema } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps';

/** GET /api/stats/: the admin dashboard's figures. */
export const statsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { services }) => {
  const handler = () => services.stats.get();
  const options = { onRequest: app.requireRole('admin'), schema: { tags: ['stats'], response: { 200: statsSchema } } };
  app.get('/stats', options, handler);
  app.get('/stats/', options, handler);
};

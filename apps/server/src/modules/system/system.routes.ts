import { apiResponses, healthSchema } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SystemService } from './system.service';

/** GET /api/health (readiness, asks the database) and GET /api/live (liveness, does not). */
export const systemRoutes: FastifyPluginAsyncZod<{ system: SystemService }> = async (app, { system }) => {
  app.get('/health', { schema: { tags: ['system'], response: apiResponses(healthSchema) } }, () => system.ready());
  app.get('/live', { schema: { tags: ['system'], response: apiResponses(healthSchema) } }, () => system.live());
};

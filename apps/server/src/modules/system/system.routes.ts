import { apiResponses, healthSchema } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps';

/** GET /api/health (readiness, asks the database) and GET /api/live (liveness, does not). */
export const systemRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { services }) => {
  app.get('/health', { schema: { tags: ['system'], response: apiResponses(healthSchema) } }, () =>
    services.system.ready(),
  );
  app.get('/live', { schema: { tags: ['system'], response: apiResponses(healthSchema) } }, () =>
    services.system.live(),
  );
};

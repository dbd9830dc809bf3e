import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Opens per-user limits in a route module (the registration is encapsulated there, as signup's and the
 * source API's are): its routes opt in with `perUser`. Each process counts in its own memory.
 */
export async function registerPerUserLimits(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, { global: false });
}

/**
 * Route options limiting each signed-in user to `max` calls in `windowMs` (no limit for 0). The count
 * runs after the route's role guard (rate-limit's hook is added after it), so it is keyed by the user, and
 * a refused call answers 429 in the one error shape with when to try again.
 */
export function perUser(max: number, windowMs: number, what: string) {
  if (max <= 0) return {};
  return {
    config: {
      rateLimit: {
        max,
        timeWindow: windowMs,
        keyGenerator: (request: FastifyRequest) => `user:${request.viewer().userId}`,
        errorResponseBuilder: (_request: FastifyRequest, context: { after: string }) => ({
          statusCode: 429,
          ok: false,
          message: `Too many ${what}: try again in ${context.after}`,
        }),
      },
    },
  };
}

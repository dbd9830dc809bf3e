import rateLimit from '@fastify/rate-limit';
import { availabilityParams, signupSchema } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps';
import { created } from '../../lib/http';

/** How many availability checks a client may make for each sign-up it may send (they run as it types). */
const CHECKS_PER_SIGN_UP = 6;

/**
 * The public sign-up (portals spec §7): POST /api/signup and the availability checks, limited per
 * client address by AUTH_SIGN_UP_PER_MINUTE (0 turns the limit off, as tests do).
 */
export const signupRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { config, services }) => {
  const signup = services.signup;
  const tags = ['signup'];
  const perMinute = config.AUTH_SIGN_UP_PER_MINUTE;
  if (perMinute > 0) {
    await app.register(rateLimit, {
      global: false,
      // In memory, per client address: at most this many addresses (an LRU), each count for its window.
      cache: 10_000,
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        ok: false,
        message: `Too many requests: try again in ${context.after}`,
      }),
    });
  }
  const limit = (max: number) => (perMinute > 0 ? { config: { rateLimit: { max, timeWindow: 60_000 } } } : {});

  app.post('/signup', { ...limit(perMinute), schema: { tags, body: signupSchema } }, (request, reply) =>
    created(reply, signup.signUp(request.body)),
  );

  app.get(
    '/signup/isuseravail/name/:name',
    { ...limit(perMinute * CHECKS_PER_SIGN_UP), schema: { tags, params: availabilityParams.name } },
    async (request) => ({ ok: await signup.usernameAvailable(request.params.name) }),
  );

  app.get(
    '/signup/isuseravail/email/:email',
    { ...limit(perMinute * CHECKS_PER_SIGN_UP), schema: { tags, params: availabilityParams.email } },
    async (request) => ({ ok: await signup.emailAvailable(request.params.email) }),
  );
};

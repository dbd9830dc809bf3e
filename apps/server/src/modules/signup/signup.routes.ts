import rateLimit from '@fastify/rate-limit';
import {
  apiResponses,
  availabilityAnswerSchema,
  availabilityParams,
  signupAnswerSchema,
  signupSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { created } from '../../lib/http';
import type { SignupService } from './signup.service';

/**
 * The public sign-up (portals spec §7): POST /api/signup, limited per client address by
 * AUTH_SIGN_UP_PER_MINUTE, and the availability checks, which tell whether a username or an email
 * has an account: one bucket per client address for both, as many a minute as sign-ins
 * (AUTH_SIGN_IN_PER_MINUTE), so they guess accounts no faster than sign-in does (issue 29 item 12).
 * 0 turns a limit off, as tests do.
 */
export const signupRoutes: FastifyPluginAsyncZod<{
  signup: SignupService;
  config: Pick<Config, 'AUTH_SIGN_IN_PER_MINUTE' | 'AUTH_SIGN_UP_PER_MINUTE'>;
}> = async (app, { signup, config }) => {
  const tags = ['signup'];
  const availability = apiResponses(availabilityAnswerSchema);
  const signUpsPerMinute = config.AUTH_SIGN_UP_PER_MINUTE;
  const checksPerMinute = config.AUTH_SIGN_IN_PER_MINUTE;
  if (signUpsPerMinute > 0 || checksPerMinute > 0) {
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
  const signUpLimit =
    signUpsPerMinute > 0 ? { config: { rateLimit: { max: signUpsPerMinute, timeWindow: 60_000 } } } : {};
  // One limiter (one store) shared by both checks: a name check and an email check draw on the same allowance.
  const checkLimit =
    checksPerMinute > 0 ? { onRequest: app.rateLimit({ max: checksPerMinute, timeWindow: 60_000 }) } : {};

  app.post(
    '/signup',
    { ...signUpLimit, schema: { tags, body: signupSchema, response: apiResponses(signupAnswerSchema, 201) } },
    (request, reply) => created(reply, signup.signUp(request.body)),
  );

  app.get(
    '/signup/isuseravail/name/:name',
    { ...checkLimit, schema: { tags, params: availabilityParams.name, response: availability } },
    async (request) => ({ ok: await signup.usernameAvailable(request.params.name) }),
  );

  app.get(
    '/signup/isuseravail/email/:email',
    { ...checkLimit, schema: { tags, params: availabilityParams.email, response: availability } },
    async (request) => ({ ok: await signup.emailAvailable(request.params.email) }),
  );
};

import { apiResponses, claimsUpdateSchema, sessionClaimsSchema } from '@leadex/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';
import { LOCAL_PORT_HEADER, SIGN_OUT_PATH } from '../../plugins/origins';
import { type Auth, CLIENT_IP_HEADER } from './auth';
import { registerAuthAnswerRules } from './auth-answers';
import type { SessionService } from './session.service';
import type { AuthContext } from './session-reader';
import type { SignInLimit } from './sign-in-limit';

const SIGN_IN_PATHS = new Set(['/api/auth/sign-in/email', '/api/auth/sign-in/username']);

/** "12 seconds" or "4 minutes": how long a throttled sign-in waits, in words. */
const waitFor = (seconds: number) =>
  seconds < 120 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`;

/** better-auth's routes under /api/auth/*, the sign-in throttle per (account, address), and the session claims. */
export const authRoutes: FastifyPluginAsyncZod<{
  auth: Pick<Auth, 'handler'>;
  signInLimit: SignInLimit;
  sessions: SessionService;
  config: Pick<Config, 'PUBLIC_URL'>;
}> = async (app, { auth, signInLimit, sessions, config }) => {
  registerAuthAnswerRules(app);

  app.route({
    method: ['GET', 'POST'],
    url: '/auth/*',
    schema: { hide: true },
    async handler(request, reply) {
      const path = request.url.split('?')[0] ?? '';
      const body = request.body as Record<string, unknown> | undefined;
      const identifier = SIGN_IN_PATHS.has(path) ? String(body?.email ?? body?.username ?? '') : '';
      // Checked before the password, so a throttled pair learns nothing, right password or not.
      const waitMs = identifier ? await signInLimit.waitMs(identifier, request.ip) : 0;
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000);
        reply.header('retry-after', String(seconds));
        throw new AppError(
          'too_many_requests',
          `Too many failed sign-in attempts from here. Try again in ${waitFor(seconds)} or reset your password.`,
        );
      }

      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
      }
      // The address Fastify resolved (honouring TRUST_PROXY), for better-auth's per-address limits.
      headers.set(CLIENT_IP_HEADER, request.ip);
      // The port the request arrived at, for the loopback origins better-auth trusts (plugins/origins.ts).
      headers.delete(LOCAL_PORT_HEADER);
      if (request.socket?.localPort) headers.set(LOCAL_PORT_HEADER, String(request.socket.localPort));
      // Sign-out always ends the session, from whatever page (see plugins/origins.ts).
      if (path === SIGN_OUT_PATH) headers.set('origin', new URL(config.PUBLIC_URL).origin);
      const response = await auth.handler(
        new Request(new URL(request.url, config.PUBLIC_URL), {
          method: request.method,
          headers,
          body: request.method === 'GET' || body === undefined ? undefined : JSON.stringify(body),
        }),
      );
      if (identifier && response.status === 401) await signInLimit.recordFailure(identifier, request.ip);
      if (identifier && response.ok) await signInLimit.recordSuccess(identifier, request.ip);

      reply.status(response.status);
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length) reply.header('set-cookie', cookies);
      const text = await response.text();
      if (response.status >= 400 && response.headers.get('content-type')?.includes('json')) {
        // The one error shape (ok, message) around better-auth's own code.
        const parsed = JSON.parse(text || '{}') as Record<string, unknown>;
        return reply.send({ ok: false, message: parsed.message ?? 'Sign-in failed', code: parsed.code });
      }
      return reply.send(text);
    },
  });

  // Any signed-in user with a role; the guard runs before the body is read.
  const signedIn = { onRequest: app.requireRole('admin', 'buyer', 'source') };
  const context = (request: FastifyRequest) => request.authContext as AuthContext;
  const claimsAnswer = apiResponses(sessionClaimsSchema);

  app.get('/session', { ...signedIn, schema: { tags: ['session'], response: claimsAnswer } }, async (request) =>
    sessions.claims(context(request)),
  );

  app.post('/session/claims', { ...signedIn, schema: { tags: ['session'], response: claimsAnswer } }, async (request) =>
    sessions.claims(context(request)),
  );

  app.put(
    '/session/claims',
    { ...signedIn, schema: { tags: ['session'], body: claimsUpdateSchema, response: claimsAnswer } },
    async (request) => sessions.closeWelcome(context(request)),
  );
};

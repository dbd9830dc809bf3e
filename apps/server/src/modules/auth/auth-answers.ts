import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';

/** better-auth's "Forgot password" request. */
export const RESET_REQUEST_PATH = '/api/auth/request-password-reset';

/**
 * The least time a password-reset request takes to answer, known address or not (issue 29 item 11,
 * ASVS 2.5.x / 3.x enumeration by timing): for a known address better-auth stores a token and the mail
 * is handed on (not awaited, auth.ts), for an unknown one it only looks. Well above that work's few
 * milliseconds, so both answer at this floor.
 */
export const RESET_REQUEST_MIN_MS = 250;

/** better-auth answers that carry the session token of each session: JavaScript has no use for it. */
const TOKENLESS_PATHS = new Set(['/api/auth/get-session', '/api/auth/list-sessions']);

/** A JSON answer without any `token` field, however deep (a session's, a list's every session's). */
function withoutTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTokens);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'token')
      .map(([key, inner]) => [key, withoutTokens(inner)]),
  );
}

/**
 * Rules for what better-auth's answers give away (issue 29 item 11): `get-session` and `list-sessions`
 * answer no session token to JavaScript (the HttpOnly cookie is the browser's only copy; a script that
 * reads a page's answers cannot lift a session), and "Forgot password" answers in the same time for
 * every address. Registered in the module of the /api/auth/* bridge (auth.routes.ts).
 */
export function registerAuthAnswerRules(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const path = request.url.split('?')[0] ?? '';
    if (TOKENLESS_PATHS.has(path)) {
      // The bearer plugin copies a refreshed session's token into this header for scripts: not here.
      reply.removeHeader('set-auth-token');
      if (typeof payload !== 'string' || payload === '') return payload;
      try {
        return JSON.stringify(withoutTokens(JSON.parse(payload)));
      } catch {
        return payload;
      }
    }
    if (path === RESET_REQUEST_PATH) {
      const wait = RESET_REQUEST_MIN_MS - reply.elapsedTime;
      if (wait > 0) await delay(wait);
    }
    return payload;
  });
}

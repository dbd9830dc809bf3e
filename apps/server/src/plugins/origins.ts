import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../lib/errors';

/** Set by our better-auth bridge from the socket; any value a client sends is replaced. */
export const LOCAL_PORT_HEADER = 'x-leadex-local-port';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];
/** The public source API authenticates by API key, never by cookie: a stray cookie there is no session. */
const API_KEY_PATHS = new Set(['/api/ping', '/api/post', '/api/lead']);
/** Ending one's own session is always allowed: a forged sign-out can do no more than sign the user out. */
export const SIGN_OUT_PATH = '/api/auth/sign-out';

/**
 * The origins the exchange is reachable at (DESIGN.md §11 "Origins"): PUBLIC_URL, TRUSTED_ORIGINS and,
 * outside production, every loopback name on the port the request arrived at (`npm start` prints
 * 127.0.0.1 while PUBLIC_URL says localhost).
 */
export function createOriginPolicy(config: Pick<Config, 'PUBLIC_URL' | 'TRUSTED_ORIGINS' | 'NODE_ENV'>) {
  const fixed = [new URL(config.PUBLIC_URL).origin, ...config.TRUSTED_ORIGINS];
  const loopback = config.NODE_ENV !== 'production';

  function trusted(localPort?: number): string[] {
    if (!loopback || !localPort) return fixed;
    return [...fixed, ...LOOPBACK_HOSTS.map((host) => `http://${host}:${localPort}`)];
  }

  return {
    trusted,
    isTrusted: (origin: string, localPort?: number) => trusted(localPort).includes(origin),
    /** What a person is told when the page they use was opened at an address the exchange refuses. */
    refusal: (origin: string | undefined) =>
      origin && origin !== 'null'
        ? `This page was opened at ${origin}, which the exchange does not accept. Open it at ${config.PUBLIC_URL} instead.`
        : `This request came from a page whose address the browser does not name, which the exchange does not accept. Open the exchange at ${config.PUBLIC_URL} instead.`,
  };
}

export type OriginPolicy = ReturnType<typeof createOriginPolicy>;

/** The browser's session cookie (better-auth's name, with its __Secure- prefix on HTTPS). */
function hasSessionCookie(request: FastifyRequest): boolean {
  return /(^|;\s*)(__Secure-)?better-auth\.session_token=/.test(request.headers.cookie ?? '');
}

/**
 * Where a browser says the request comes from: Origin, else the Referer's origin. `Origin: null` is
 * returned as it is: a browser sends it from a sandboxed frame, a `data:` page or a page that sends no
 * referrer, and none of those is an exchange page (issue 29 item 8).
 */
function originOf(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  if (origin) return origin;
  const referer = request.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/**
 * Every cookie-authenticated write (sign-in included) that names its page (Origin, else Referer) must
 * name a trusted one, and `Origin: null` is none: a page on another site, or on another origin of this
 * site (which SameSite cookies let through), cannot act with the user's session. Bearer clients and
 * scripts that send neither Origin nor Sec-Fetch-Site are not checked.
 * Runs first, before authentication and validation.
 */
export function registerOriginCheck(app: FastifyInstance, policy: OriginPolicy): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const path = request.url.split('?')[0] ?? '';
    if (API_KEY_PATHS.has(path) || path === SIGN_OUT_PATH) return;
    // Sign-in sends no session yet; better-auth checks its origin too, with the same list (auth.ts).
    if (!hasSessionCookie(request) && !path.startsWith('/api/auth/')) return;
    const origin = originOf(request);
    if (origin) {
      if (!policy.isTrusted(origin, request.socket?.localPort)) throw new AppError('forbidden', policy.refusal(origin));
      return;
    }
    // Browsers name the page on every write (CSRF comes from browsers); a script with a cookie may not.
    // A browser that names none still says whether the page was this site's (Fetch Metadata): only a
    // page of this very origin, or the user typing the address, may then write.
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      throw new AppError('forbidden', policy.refusal(undefined));
  });
}

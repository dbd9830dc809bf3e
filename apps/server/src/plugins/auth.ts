import type { Role } from '@leadex/domain';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../lib/errors';
import type { Viewer } from '../lib/scope';
import type { AuthContext, SessionReader } from '../modules/auth/session-reader';

/** Whose data a request may see (defined with the scope rules in lib/, which sits below the plugins). */
export type { Viewer } from '../lib/scope';
export type { AuthContext } from '../modules/auth/session-reader';

/** An onRequest hook admitting only signed-in users of some roles; it carries them for the route table. */
export type RoleGuard = onRequestAsyncHookHandler & { roles: readonly Role[] };

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * An onRequest hook admitting only signed-in users of these roles: 401 for a guest, 403 for another
     * role. As onRequest it runs before the body is parsed or validated: who you are comes before what
     * you sent.
     */
    requireRole(...roles: Role[]): RoleGuard;
    /** The roles each guarded route admits, keyed `METHOD /url` (routes without a guard are absent). */
    routeRoles: Map<string, readonly Role[]>;
  }
  interface FastifyRequest {
    /** The session's user, looked up once per request (undefined until asked, null for a guest). */
    authContext: AuthContext | null | undefined;
    /** The caller, for scoping queries; only after a requireRole guard. */
    viewer(): Viewer;
  }
}

/** Who sent the request (modules/auth/session-reader.ts), looked up once and kept on the request. */
export async function authenticate(sessions: SessionReader, request: FastifyRequest): Promise<AuthContext | null> {
  if (request.authContext === undefined) request.authContext = await sessions.read(request.headers);
  return request.authContext;
}

/** Adds `requireRole` and `request.viewer()` to the app (not encapsulated: every route module uses them). */
export function registerAuthGuards(app: FastifyInstance, sessions: SessionReader): void {
  app.decorateRequest('authContext', undefined);
  app.decorateRequest('viewer', function viewer(this: FastifyRequest): Viewer {
    const ctx = this.authContext;
    if (!ctx) throw new AppError('unauthenticated', 'Sign in to continue');
    return { userId: ctx.userId, role: ctx.role, roleId: ctx.roleId, address: this.ip };
  });
  app.decorate('requireRole', (...roles: Role[]): RoleGuard => {
    const guard: onRequestAsyncHookHandler = async (request) => {
      const ctx = await authenticate(sessions, request);
      if (!ctx) throw new AppError('unauthenticated', 'Sign in to continue');
      if (!ctx.role || !roles.includes(ctx.role)) throw new AppError('forbidden', 'You do not have access to this');
    };
    return Object.assign(guard, { roles });
  });
  const routeRoles = new Map<string, readonly Role[]>();
  app.decorate('routeRoles', routeRoles);
  app.addHook('onRoute', (route) => {
    const hooks = [route.onRequest ?? []].flat() as Partial<RoleGuard>[];
    const guard = hooks.find((hook) => hook.roles);
    if (!guard?.roles) return;
    for (const method of [route.method].flat()) routeRoles.set(`${method} ${route.url}`, guard.roles);
  });
}

import type { Role } from '@leadex/domain';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { AppError } from '../lib/errors';
import type { Auth } from '../modules/auth/auth';

/** The signed-in user behind a request. */
export interface AuthContext {
  userId: string;
  sessionId: string;
  role: Role | null;
  roleId: string | null;
  welcome: boolean;
  emailVerified: boolean;
}

/** Whose data a request may see: the role and the buyer or source it belongs to. */
export interface Viewer {
  userId: string;
  role: Role | null;
  roleId: string | null;
}

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

/** Resolves the session from the cookie or `Authorization: Bearer` and caches it on the request. */
export async function authenticate(auth: Auth, request: FastifyRequest): Promise<AuthContext | null> {
  if (request.authContext !== undefined) return request.authContext;
  const found = await auth.api.getSession({ headers: fromNodeHeaders(request.headers) });
  const user = found?.user as
    | (typeof found extends null ? never : NonNullable<typeof found>['user'] & Record<string, unknown>)
    | undefined;
  // A locked user's sessions are deleted at once; the check here covers a lock racing a sign-in.
  request.authContext =
    found && user && !user.holdAt
      ? {
          userId: user.id,
          sessionId: found.session.id,
          role: (user.role as Role | null) ?? null,
          roleId: (user.roleId as string | null) ?? null,
          welcome: Boolean(user.welcome),
          emailVerified: user.emailVerified,
        }
      : null;
  return request.authContext;
}

/** Adds `requireRole` and `request.viewer()` to the app (not encapsulated: every route module uses them). */
export function registerAuthGuards(app: FastifyInstance, auth: Auth): void {
  app.decorateRequest('authContext', undefined);
  app.decorateRequest('viewer', function viewer(this: FastifyRequest): Viewer {
    const ctx = this.authContext;
    if (!ctx) throw new AppError('unauthenticated', 'Sign in to continue');
    return { userId: ctx.userId, role: ctx.role, roleId: ctx.roleId };
  });
  app.decorate('requireRole', (...roles: Role[]): RoleGuard => {
    const guard: onRequestAsyncHookHandler = async (request) => {
      const ctx = await authenticate(auth, request);
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

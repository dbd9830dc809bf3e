import type { SessionClaims } from '@leadex/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sources } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { exchangeZone } from '../../lib/exchange-zone';
import type { UsersService } from '../users/users.service';
import type { AuthContext } from './session-reader';

/** The session claims of DESIGN.md §4, read fresh so a change (approval, lock) shows at once. */
export function createSessionService(db: Db, users: Pick<UsersService, 'findById' | 'closeWelcome'>) {
  async function claims(ctx: AuthContext): Promise<SessionClaims> {
    let canPostLead = false;
    if (ctx.role === 'source' && ctx.roleId) {
      const [source] = await db
        .select({ canPostLead: sources.canPostLead })
        .from(sources)
        .where(eq(sources.id, ctx.roleId));
      canPostLead = source?.canPostLead ?? false;
    }
    const user = await users.findById(ctx.userId);
    return {
      user_id: ctx.userId,
      role: ctx.role,
      role_id: ctx.roleId,
      canPostLead,
      welcome: ctx.welcome,
      emailVerified: ctx.emailVerified,
      zone: exchangeZone(),
      name: user?.name ?? '',
      email: user?.email ?? '',
    };
  }

  return {
    claims,
    /** PUT /api/session/claims: closing the onboarding page sets welcome to false. */
    async closeWelcome(ctx: AuthContext): Promise<SessionClaims> {
      const updated = await users.closeWelcome(ctx.userId);
      if (!updated) throw new AppError('unauthenticated', 'Sign in to continue');
      return claims({ ...ctx, welcome: false });
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

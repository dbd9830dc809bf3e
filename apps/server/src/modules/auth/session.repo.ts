import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { session, user } from '../../db/schema';

/** A session with the fields of its user that a request's AuthContext needs. */
export interface SessionWithUser {
  sessionId: string;
  expiresAt: Date;
  userId: string;
  role: string | null;
  roleId: string | null;
  welcome: boolean;
  emailVerified: boolean;
  holdAt: Date | null;
}

export const sessionRepo = {
  /** The session of a token and its user, in one statement (better-auth reads the two one after the other). */
  async findByToken(db: Db, token: string): Promise<SessionWithUser | null> {
    const [row] = await db
      .select({
        sessionId: session.id,
        expiresAt: session.expiresAt,
        userId: user.id,
        role: user.role,
        roleId: user.roleId,
        welcome: user.welcome,
        emailVerified: user.emailVerified,
        holdAt: user.holdAt,
      })
      .from(session)
      .innerJoin(user, eq(user.id, session.userId))
      .where(eq(session.token, token));
    return row ?? null;
  },
};

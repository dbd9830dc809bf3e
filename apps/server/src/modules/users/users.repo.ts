import { and, asc, eq, like, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { recordsById } from '../../db/records';
import { account, session, user, verification } from '../../db/schema';

export type UserRow = typeof user.$inferSelect;
export type UserInsert = typeof user.$inferInsert;

export const usersRepo = {
  ...recordsById(user),

  async findByEmail(db: Db | Tx, email: string): Promise<UserRow | null> {
    const [row] = await db.select().from(user).where(sql`lower(${user.email}) = ${email.toLowerCase()}`);
    return row ?? null;
  },

  async findByUsername(db: Db | Tx, username: string): Promise<UserRow | null> {
    const [row] = await db.select().from(user).where(eq(user.username, username.toLowerCase()));
    return row ?? null;
  },

  /** The users of one buyer or source, oldest (the primary user) first. */
  async listForRole(db: Db | Tx, role: string, roleId: string): Promise<UserRow[]> {
    return db
      .select()
      .from(user)
      .where(and(eq(user.role, role), eq(user.roleId, roleId)))
      .orderBy(asc(user.createdAt), asc(user.id));
  },

  async insertPassword(db: Db | Tx, userId: string, passwordHash: string, at: Date): Promise<void> {
    await db.insert(account).values({
      id: `${userId}_credential`,
      accountId: userId,
      providerId: 'credential',
      userId,
      password: passwordHash,
      createdAt: at,
      updatedAt: at,
    });
  },

  async deleteSessions(db: Db | Tx, userId: string): Promise<void> {
    await db.delete(session).where(eq(session.userId, userId));
  },

  /**
   * Deletes the user's reset and welcome links (better-auth's `reset-password:<token>` rows, whose
   * value is the user id), all or all but `keep`'s token.
   */
  async deleteResetTokens(db: Db | Tx, userId: string, keep?: string): Promise<void> {
    await db
      .delete(verification)
      .where(
        and(
          like(verification.identifier, 'reset-password:%'),
          eq(verification.value, userId),
          keep ? ne(verification.identifier, `reset-password:${keep}`) : undefined,
        ),
      );
  },

  async insertVerification(db: Db | Tx, row: typeof verification.$inferInsert): Promise<void> {
    await db.insert(verification).values(row);
  },
};

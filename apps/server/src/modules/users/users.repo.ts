import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { account, session, user, verification } from '../../db/schema';

export type UserRow = typeof user.$inferSelect;

export const usersRepo = {
  async findById(db: Db | Tx, id: string): Promise<UserRow | null> {
    const [row] = await db.select().from(user).where(eq(user.id, id));
    return row ?? null;
  },

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

  async insert(db: Db | Tx, row: typeof user.$inferInsert): Promise<UserRow> {
    const [inserted] = await db.insert(user).values(row).returning();
    return inserted as UserRow;
  },

  async update(db: Db | Tx, id: string, changes: Partial<typeof user.$inferInsert>): Promise<UserRow | null> {
    const [row] = await db.update(user).set(changes).where(eq(user.id, id)).returning();
    return row ?? null;
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

  async insertVerification(db: Db | Tx, row: typeof verification.$inferInsert): Promise<void> {
    await db.insert(verification).values(row);
  },
};

import { and, count, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { signInFailures } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/ids';
import { usersRepo } from '../users/users.repo';

const HOUR_MS = 3_600_000;

/**
 * Counts failed sign-ins per account, so guessing one account's password is slowed down whichever
 * way it is named (email or username). An unknown login is counted under the text typed.
 */
export function createSignInLimit(db: Db, clock: Clock, maxFailuresPerHour: number) {
  async function accountKey(login: string): Promise<string> {
    const text = login.trim().toLowerCase();
    const found = text.includes('@') ? await usersRepo.findByEmail(db, text) : await usersRepo.findByUsername(db, text);
    return found ? `user:${found.id}` : `login:${text}`;
  }

  return {
    async isBlocked(login: string): Promise<boolean> {
      const since = new Date(clock.now().getTime() - HOUR_MS);
      const [row] = await db
        .select({ n: count() })
        .from(signInFailures)
        .where(and(eq(signInFailures.identifier, await accountKey(login)), gt(signInFailures.at, since)));
      return (row?.n ?? 0) >= maxFailuresPerHour;
    },
    async recordFailure(login: string): Promise<void> {
      await db
        .insert(signInFailures)
        .values({ id: newId('sif'), identifier: await accountKey(login), at: clock.now() });
    },
  };
}

export type SignInLimit = ReturnType<typeof createSignInLimit>;

import { and, count, eq, gt, max } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { signInFailures } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/ids';
import type { UsersService } from '../users/users.service';

/** Failures older than this no longer count: a pair's delay has worn off a day after its last try. */
const WINDOW_MS = 24 * 3_600_000;
/** The first delay, doubled by each further failure of the pair ... */
const FIRST_DELAY_MS = 1_000;
/** ... up to an hour between two attempts. */
const LONGEST_DELAY_MS = 3_600_000;

/**
 * Throttles password guessing per (account, client address) with growing delays, in place of an
 * account lockout (ASVS 2.2.1): `freeFailures` failures of a pair go at full speed, then each further
 * attempt of that pair waits 1 s, 2 s, 4 s … up to an hour after the pair's last failure. The owner
 * signing in from another address is never slowed by an attacker's failures. The per-address limit
 * on all sign-ins (auth.ts rateLimit) still bounds how many accounts one address tries.
 * An account is named by email or username alike; an unknown login is counted under the text typed.
 */
export function createSignInLimit(
  db: Db,
  clock: Clock,
  freeFailures: number,
  users: Pick<UsersService, 'findByEmail' | 'findByUsername'>,
) {
  async function accountKey(login: string): Promise<string> {
    const text = login.trim().toLowerCase();
    const found = text.includes('@') ? await users.findByEmail(text) : await users.findByUsername(text);
    return found ? `user:${found.id}` : `login:${text}`;
  }

  const pair = (identifier: string, address: string) =>
    and(eq(signInFailures.identifier, identifier), eq(signInFailures.address, address));

  return {
    /** How many milliseconds this (login, address) must still wait before its next attempt; 0: it may try now. */
    async waitMs(login: string, address: string): Promise<number> {
      const now = clock.now().getTime();
      const [row] = await db
        .select({ n: count(), last: max(signInFailures.at) })
        .from(signInFailures)
        .where(and(pair(await accountKey(login), address), gt(signInFailures.at, new Date(now - WINDOW_MS))));
      const failures = row?.n ?? 0;
      if (failures < freeFailures || !row?.last) return 0;
      const delay = Math.min(FIRST_DELAY_MS * 2 ** (failures - freeFailures), LONGEST_DELAY_MS);
      return Math.max(0, new Date(row.last).getTime() + delay - now);
    },

    async recordFailure(login: string, address: string): Promise<void> {
      await db
        .insert(signInFailures)
        .values({ id: newId('sif'), identifier: await accountKey(login), address, at: clock.now() });
    },

    /** A successful sign-in clears its own pair's count (another address's stays). */
    async recordSuccess(login: string, address: string): Promise<void> {
      await db.delete(signInFailures).where(pair(await accountKey(login), address));
    },
  };
}

/** A completed password reset clears the account's count from every address: the guesses were at an old password. */
export async function forgetSignInFailures(db: Db, userId: string): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.identifier, `user:${userId}`));
}

export type SignInLimit = ReturnType<typeof createSignInLimit>;

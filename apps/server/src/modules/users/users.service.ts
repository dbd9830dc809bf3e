import { randomBytes } from 'node:crypto';
import type { Role } from '@leadex/domain';
import { hashPassword } from 'better-auth/crypto';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { passwordProblem } from '../auth/password-policy';
import { welcomeEmail } from '../deliveries/outbox/emails';
import type { Mailer } from '../deliveries/outbox/mailer';
import { type UserInsert, type UserRow, usersRepo } from './users.repo';

export type { UserRow };

/** How long a welcome email's set-password link works. */
export const WELCOME_LINK_DAYS = 7;

export interface NewUser {
  name: string;
  email: string;
  username?: string;
  role: Role;
  roleId: string | null;
}

export interface UsersServiceDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  config: Config;
}

/** Users of the exchange: creation for buyers and sources, welcome emails, lock and unlock. */
export function createUsersService({ db, clock, mailer, config }: UsersServiceDeps) {
  const service = {
    findById: (id: string): Promise<UserRow | null> => usersRepo.findById(db, id),

    /** The user with this email (any case), or null; in the caller's transaction when given one. */
    findByEmail: (email: string, tx: Db | Tx = db): Promise<UserRow | null> => usersRepo.findByEmail(tx, email),

    findByUsername: (username: string, tx: Db | Tx = db): Promise<UserRow | null> =>
      usersRepo.findByUsername(tx, username),

    /** The users of one buyer or source, oldest (the primary user) first. */
    listOf: (role: 'buyer' | 'source', roleId: string): Promise<UserRow[]> => usersRepo.listForRole(db, role, roleId),

    /** Ends the user's reset and welcome links, all or all but `keep`'s token. */
    deleteResetTokens: (userId: string, keep?: string): Promise<void> => usersRepo.deleteResetTokens(db, userId, keep),

    /** Adds a user with its password inside the caller's transaction (the source sign-up's user). */
    async insertWithPassword(tx: Tx, row: UserInsert, passwordHash: string, at: Date): Promise<void> {
      await usersRepo.insert(tx, row);
      await usersRepo.insertPassword(tx, row.id, passwordHash, at);
    },

    /** The user sees the welcome (onboarding) page at its next sign-in: a source's new user. */
    showWelcome: async (tx: Tx, userId: string): Promise<UserRow | null> =>
      usersRepo.update(tx, userId, { welcome: true }),

    /** PUT /api/session/claims: the user closed its welcome page (null: no such user). */
    closeWelcome: (userId: string): Promise<UserRow | null> =>
      usersRepo.update(db, userId, { welcome: false, updatedAt: clock.now() }),

    /**
     * A buyer's email is its primary user's (found by the buyer's username) sign-in: a new one replaces it,
     * unverified; an email another user has is refused.
     */
    async changePrimaryEmail(tx: Tx, username: string, email: string | undefined): Promise<void> {
      const primary = await usersRepo.findByUsername(tx, username);
      if (email && primary && email.toLowerCase() !== primary.email) {
        const holder = await usersRepo.findByEmail(tx, email);
        if (holder && holder.id !== primary.id) throw AppError.field('email', 'This email already exists.');
        await usersRepo.update(tx, primary.id, {
          email: email.toLowerCase(),
          emailVerified: false,
          updatedAt: clock.now(),
        });
      }
    },

    /**
     * Adds a user inside the caller's transaction, so a buyer and its user are written together.
     * The user has no password until they follow a welcome email's link.
     */
    async create(tx: Tx, input: NewUser): Promise<UserRow> {
      if (await usersRepo.findByEmail(tx, input.email)) throw AppError.field('email', 'This email already exists.');
      if (input.username && (await usersRepo.findByUsername(tx, input.username))) {
        throw AppError.field('username', 'Username is already taken.');
      }
      const now = clock.now();
      return usersRepo.insert(tx, {
        id: newId('usr'),
        name: input.name,
        email: input.email.toLowerCase(),
        username: input.username?.toLowerCase() ?? null,
        displayUsername: input.username ?? null,
        role: input.role,
        roleId: input.roleId,
        createdAt: now,
        updatedAt: now,
      });
    },

    /**
     * Gives a user a password and takes its email as verified, with no link followed: the demo's sign-ins.
     * `welcome` says whether the user sees the welcome page at its next sign-in.
     */
    async givePassword(userId: string, passwordHash: string, welcome?: boolean): Promise<void> {
      await db.transaction(async (tx) => {
        await usersRepo.insertPassword(tx, userId, passwordHash, clock.now());
        await usersRepo.update(tx, userId, { emailVerified: true, ...(welcome === undefined ? {} : { welcome }) });
      });
    },

    /** Emails the user a link to set a password (the same page as a password reset). */
    async sendWelcome(userId: string): Promise<UserRow> {
      const found = await usersRepo.findById(db, userId);
      if (!found) throw AppError.notFound('User');
      const token = randomBytes(24).toString('base64url');
      const now = clock.now();
      // A new link replaces every earlier welcome or reset link (issue 29 item 5).
      await usersRepo.deleteResetTokens(db, found.id);
      // better-auth's reset-password token record, with a longer life than a reset link's hour.
      await usersRepo.insertVerification(db, {
        id: newId('usr'),
        identifier: `reset-password:${token}`,
        value: found.id,
        expiresAt: new Date(now.getTime() + WELCOME_LINK_DAYS * 86_400_000),
        createdAt: now,
        updatedAt: now,
      });
      const link = `${config.PUBLIC_URL}/reset-password?token=${encodeURIComponent(token)}&welcome=1`;
      const sent = await mailer.send(welcomeEmail(found.email, found.name, link, WELCOME_LINK_DAYS));
      if (sent.status === 'failed') {
        throw new AppError('unavailable', `The welcome email to ${found.email} could not be sent: ${sent.error}`);
      }
      return found;
    },

    /** Puts the user on hold and ends every session it has, at once. */
    async lock(userId: string): Promise<UserRow> {
      return db.transaction(async (tx) => {
        const locked = await usersRepo.update(tx, userId, { holdAt: clock.now(), updatedAt: clock.now() });
        if (!locked) throw AppError.notFound('User');
        await usersRepo.deleteSessions(tx, userId);
        return locked;
      });
    },

    async unlock(userId: string): Promise<UserRow> {
      const unlocked = await usersRepo.update(db, userId, { holdAt: null, updatedAt: clock.now() });
      if (!unlocked) throw AppError.notFound('User');
      return unlocked;
    },

    /**
     * Creates the admin of ADMIN_EMAIL / ADMIN_PASSWORD if no user has that email. Without
     * ADMIN_PASSWORD (production: config.ts has no default there) an admin must already exist, so a
     * production start never makes an admin with a password anyone could read in the README.
     */
    async ensureAdmin(): Promise<UserRow> {
      const existing = await usersRepo.findByEmail(db, config.ADMIN_EMAIL);
      if (existing) return existing;
      if (!config.ADMIN_PASSWORD) {
        throw new Error(
          `Invalid configuration:\n  ADMIN_PASSWORD: is required in production to create the admin ${config.ADMIN_EMAIL} (no user has that email yet)`,
        );
      }
      const weak = passwordProblem(config.ADMIN_PASSWORD);
      if (weak) throw new Error(`Invalid configuration:\n  ADMIN_PASSWORD: ${weak}`);
      const passwordHash = await hashPassword(config.ADMIN_PASSWORD);
      return db.transaction(async (tx) => {
        const taken = await usersRepo.findByUsername(tx, 'admin');
        const admin = await service.create(tx, {
          name: 'Administrator',
          email: config.ADMIN_EMAIL,
          username: taken ? undefined : 'admin',
          role: 'admin',
          roleId: null,
        });
        await usersRepo.update(tx, admin.id, { emailVerified: true });
        await usersRepo.insertPassword(tx, admin.id, passwordHash, clock.now());
        return admin;
      });
    },

    /**
     * What a buyer's or a source's screen does to its users (edit, welcome, lock, unlock), each on a
     * user of that record only: another record's user is not found. `present` shapes the answers.
     */
    actionsOnUsersOf<T>(role: 'buyer' | 'source', present: (user: UserRow) => T) {
      /** A user of this buyer or source, or 404 (a user of another one is not found here). */
      async function userOf(roleId: string, userId: string) {
        const found = await usersRepo.findById(db, userId);
        if (found?.role !== role || found.roleId !== roleId) throw AppError.notFound('User');
        return found;
      }
      return {
        /** A new name and email (its sign-in); a new email is unverified, one another user has is refused. */
        async updateUser(roleId: string, userId: string, input: { name: string; email: string }): Promise<T> {
          const current = await userOf(roleId, userId);
          const holder = await usersRepo.findByEmail(db, input.email);
          if (holder && holder.id !== current.id) throw AppError.field('email', 'This email already exists.');
          const emailChanged = input.email.toLowerCase() !== current.email;
          const updated = await db.transaction(async (tx) => {
            // Links mailed to the old address must not set a password for the new one's account.
            if (emailChanged) await usersRepo.deleteResetTokens(tx, userId);
            return usersRepo.update(tx, userId, {
              name: input.name,
              email: input.email.toLowerCase(),
              ...(emailChanged ? { emailVerified: false } : {}),
              updatedAt: clock.now(),
            });
          });
          return present(updated ?? current);
        },
        async sendWelcome(roleId: string, userId: string): Promise<T> {
          await userOf(roleId, userId);
          return present(await service.sendWelcome(userId));
        },
        /** Locks the user: on hold, and every session it has ends at once (DESIGN.md §8). */
        async lockUser(roleId: string, userId: string): Promise<T> {
          await userOf(roleId, userId);
          return present(await service.lock(userId));
        },
        async unlockUser(roleId: string, userId: string): Promise<T> {
          await userOf(roleId, userId);
          return present(await service.unlock(userId));
        },
      };
    },
  };
  return service;
}

export type UsersService = ReturnType<typeof createUsersService>;

import { SIGNUP_HONEYPOT, SIGNUP_MESSAGES, type SignupAnswer, type SignupInput } from '@leadex/domain';
import { hashPassword } from 'better-auth/crypto';
import type { Db } from '../../db/client';
import type { Engine } from '../../distribution/engine';
import { createApiKeyVault } from '../../lib/api-keys';
import type { Clock } from '../../lib/clock';
import { AppError, isUniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { passwordProblem } from '../auth/password-policy';
import { messagesRepo } from '../messages/messages.repo';
import { sourcesRepo } from '../sources/sources.repo';
import { usersRepo } from '../users/users.repo';

export interface SignupServiceDeps {
  db: Db;
  clock: Clock;
  engine: Engine;
  /** LEADEX_SECRET: the source's first API key is stored encrypted with it. */
  secret: string;
  /** Emails the address its verification link (better-auth's, through the app's mailer). */
  sendVerification: (email: string) => Promise<void>;
}

/**
 * Self sign-up of a source (portals spec §2, §5; DESIGN.md §8): the source, its first API key and its
 * user in one transaction; an admin message asks for approval once the email is verified. The user stays without a role,
 * hence without a session, until it follows the emailed link (auth.ts afterEmailVerification); the
 * source may send test leads at once and sells real ones once an admin approves it.
 */
export function createSignupService({ db, clock, engine, secret, sendVerification }: SignupServiceDeps) {
  const vault = createApiKeyVault(secret);

  async function refuseTaken(input: Pick<SignupInput, 'username' | 'email'>) {
    if (await usersRepo.findByUsername(db, input.username))
      throw AppError.field('username', SIGNUP_MESSAGES.usernameTaken);
    if (await usersRepo.findByEmail(db, input.email))
      throw new AppError('bad_request', SIGNUP_MESSAGES.emailTakenSignIn, {
        errors: { email: SIGNUP_MESSAGES.emailTaken },
      });
  }

  return {
    /** Whether nobody has this username (GET /api/signup/isuseravail/name/{name}). */
    async usernameAvailable(name: string): Promise<boolean> {
      return !(await usersRepo.findByUsername(db, name.trim()));
    },

    /** Whether no user has this email (GET /api/signup/isuseravail/email/{email}). */
    async emailAvailable(email: string): Promise<boolean> {
      return !(await usersRepo.findByEmail(db, email.trim()));
    },

    async signUp(input: SignupInput): Promise<SignupAnswer> {
      const email = input.email.toLowerCase();
      // A bot filled the hidden field: nothing is created, and it is answered as a person would be.
      if (input[SIGNUP_HONEYPOT]) return { ok: true, email };
      await refuseTaken(input);
      const weak = passwordProblem(input.password);
      if (weak) throw AppError.field('password', weak);
      const passwordHash = await hashPassword(input.password);
      const now = clock.now();
      const sourceId = newId('src');
      try {
        await engine.change('sources', async (tx) => {
          await sourcesRepo.insert(tx, {
            id: sourceId,
            name: input.company,
            contactName: input.name,
            email,
            phone: input.phone,
            address: input.address,
            city: input.city,
            state: input.state,
            zip: input.zip,
            website: input.website ?? null,
            notes: input.promo ? `Promo code: ${input.promo}` : null,
            // Not approved: test leads only until an admin approves it.
            approvedAt: null,
            selfSignedUp: true,
            createdAt: now,
            updatedAt: now,
          });
          const issued = vault.issue();
          await sourcesRepo.insertApiKey(tx, {
            id: newId('key'),
            sourceId,
            name: 'API Key 1',
            prefix: issued.prefix,
            keyHash: issued.keyHash,
            keyEncrypted: issued.keyEncrypted,
            canPostLead: false,
            expiresAt: null,
            createdAt: now,
          });
          const userId = newId('usr');
          await usersRepo.insert(tx, {
            id: userId,
            name: input.name,
            email,
            username: input.username.toLowerCase(),
            displayUsername: input.username,
            // No role until the email is verified: no session before that (auth.ts).
            role: null,
            roleId: sourceId,
            welcome: true,
            emailVerified: false,
            createdAt: now,
            updatedAt: now,
          });
          await usersRepo.insertPassword(tx, userId, passwordHash, now);
        });
      } catch (error) {
        // Another sign-up took the username or the email between the check and the insert.
        if (isUniqueViolation(error)) await refuseTaken(input);
        throw error;
      }
      await sendVerification(email);
      return { ok: true, email };
    },

    /**
     * The sign-up's admin message, posted when its user verifies its email (auth.ts), not at sign-up:
     * unverified sign-ups never fill Messages. A source an admin approved meanwhile needs no message.
     */
    async announceVerified(email: string): Promise<void> {
      const person = await usersRepo.findByEmail(db, email);
      const source = person?.roleId ? await sourcesRepo.findById(db, person.roleId) : null;
      if (!person || !source || source.approvedAt) return;
      const promo = /^Promo code: (.+)$/m.exec(source.notes ?? '')?.[1];
      await messagesRepo.insert(db, {
        id: newId('msg'),
        text: `${source.name} signed up as a source (${person.name}, ${person.email}${promo ? `, promo code ${promo}` : ''}). Approve it to let it sell real leads.`,
        data: { kind: 'source_signup', source_id: source.id, link: `/source/${source.id}` },
        createdAt: clock.now(),
      });
    },
  };
}

export type SignupService = ReturnType<typeof createSignupService>;

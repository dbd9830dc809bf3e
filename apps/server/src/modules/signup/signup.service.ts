import { SIGNUP_HONEYPOT, SIGNUP_MESSAGES, type SignupAnswer, type SignupInput } from '@leadex/domain';
import { hashPassword } from 'better-auth/crypto';
import type { Engine } from '../../distribution/engine';
import type { Clock } from '../../lib/clock';
import { AppError, isUniqueViolation } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { passwordProblem } from '../auth/password-policy';
import type { MessagesService } from '../messages/messages.service';
import type { SourcesService } from '../sources/sources.service';
import type { UsersService } from '../users/users.service';

export interface SignupServiceDeps {
  clock: Clock;
  engine: Engine;
  users: Pick<UsersService, 'findByEmail' | 'findByUsername' | 'insertWithPassword'>;
  /** Writes the source and its first API key; reads it back when its user verifies its email. */
  sources: Pick<SourcesService, 'insertSelfSignedUp' | 'findRow'>;
  /** Where a verified sign-up asks the admins for approval. */
  messages: Pick<MessagesService, 'raise'>;
  /** Emails the address its verification link (better-auth's, through the app's mailer). */
  sendVerification: (email: string) => Promise<void>;
}

/**
 * Self sign-up of a source (portals spec §2, §5; DESIGN.md §8): the source, its first API key and its
 * user in one transaction; an admin message asks for approval once the email is verified. The user stays without a role,
 * hence without a session, until it follows the emailed link (auth.ts afterEmailVerification); the
 * source may send test leads at once and sells real ones once an admin approves it.
 */
export function createSignupService({ clock, engine, users, sources, messages, sendVerification }: SignupServiceDeps) {
  async function refuseTaken(input: Pick<SignupInput, 'username' | 'email'>) {
    if (await users.findByUsername(input.username)) throw AppError.field('username', SIGNUP_MESSAGES.usernameTaken);
    if (await users.findByEmail(input.email))
      throw new AppError('bad_request', SIGNUP_MESSAGES.emailTakenSignIn, {
        errors: { email: SIGNUP_MESSAGES.emailTaken },
      });
  }

  return {
    /** Whether nobody has this username (GET /api/signup/isuseravail/name/{name}). */
    async usernameAvailable(name: string): Promise<boolean> {
      return !(await users.findByUsername(name.trim()));
    },

    /** Whether no user has this email (GET /api/signup/isuseravail/email/{email}). */
    async emailAvailable(email: string): Promise<boolean> {
      return !(await users.findByEmail(email.trim()));
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
          await sources.insertSelfSignedUp(
            tx,
            {
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
            },
            now,
          );
          const userId = newId('usr');
          await users.insertWithPassword(
            tx,
            {
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
            },
            passwordHash,
            now,
          );
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
      const person = await users.findByEmail(email);
      const source = person?.roleId ? await sources.findRow(person.roleId) : null;
      if (!person || !source || source.approvedAt) return;
      const promo = /^Promo code: (.+)$/m.exec(source.notes ?? '')?.[1];
      await messages.raise({
        id: newId('msg'),
        text: `${source.name} signed up as a source (${person.name}, ${person.email}${promo ? `, promo code ${promo}` : ''}). Approve it to let it sell real leads.`,
        data: { kind: 'source_signup', source_id: source.id, link: `/source/${source.id}` },
        createdAt: clock.now(),
      });
    },
  };
}

export type SignupService = ReturnType<typeof createSignupService>;

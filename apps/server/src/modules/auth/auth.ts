import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { bearer, username } from 'better-auth/plugins';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { account, session, user, verification } from '../../db/schema';
import { newId } from '../../lib/ids';
import type { Logger } from '../../lib/logger';
import { createOriginPolicy, LOCAL_PORT_HEADER } from '../../plugins/origins';
import { passwordResetEmail, verificationEmail } from '../deliveries/outbox/emails';
import type { Mailer } from '../deliveries/outbox/mailer';
import type { UsersService } from '../users/users.service';
import { passwordProblem } from './password-policy';
import { forgetSignInFailures } from './sign-in-limit';

export const USERNAME_PATTERN = /^[a-z0-9_-]+$/;
/** Message better-auth answers when a locked user tries to sign in. */
export const ON_HOLD_MESSAGE = 'Your account is on hold. Contact the exchange to have it unlocked.';

/** How long a sign-up's verification link works. */
export const VERIFICATION_LINK_HOURS = 24;

/** The SPA's screen a verification link opens (portals spec §2: the email verification screens). */
export const VERIFY_EMAIL_PATH = '/auth/verify-email';

export const USERNAME_FIXED_MESSAGE = 'Username cannot be changed';

/** better-auth's routes that set a password from `newPassword` (reset and welcome links, change). */
const NEW_PASSWORD_PATHS = new Set(['/reset-password', '/change-password', '/set-password']);

export const UNVERIFIED_MESSAGE = 'Verify your email address first: follow the link in the email we sent you.';

/** Set by our bridge from Fastify's request.ip; any value a client sends is replaced. */
export const CLIENT_IP_HEADER = 'x-leadex-client-ip';

/** A better-auth rule: at most `max` requests a minute, or none (`false`) for 0. */
const perMinute = (max: number) => (max > 0 ? { window: 60, max } : false);

export interface AuthOptions {
  config: Config;
  db: Db;
  mailer: Mailer;
  users: Pick<UsersService, 'deleteResetTokens'>;
  /**
   * Called once when a self-signed-up user verifies its email and becomes its source's user: the
   * sign-up's admin message is posted then, so unverified sign-ups never fill Messages.
   */
  onSignupVerified?: (email: string) => Promise<void>;
  /** Where a mail sent after the answer reports a failure (nobody waits for it). */
  logger?: Logger;
}

/** A session lasts a week, and is extended (by better-auth) once a day while it is used. */
export const SESSION_EXPIRES_IN_SECONDS = 60 * 60 * 24 * 7;
export const SESSION_UPDATE_AGE_SECONDS = 60 * 60 * 24;

/** better-auth: email+password, username sign-in, Bearer tokens, password reset through our mailer. */
export function createAuth({ config, db, mailer, users, onSignupVerified, logger }: AuthOptions) {
  const origins = createOriginPolicy(config);
  return betterAuth({
    appName: 'Leadex',
    logger: { disabled: config.LOG_LEVEL === 'silent' },
    baseURL: config.PUBLIC_URL,
    basePath: '/api/auth',
    secret: config.LEADEX_SECRET,
    // The same list as every other cookie-authenticated write (plugins/origins.ts); the port is the
    // one the request arrived at, which our bridge passes along.
    trustedOrigins: (request) => origins.trusted(Number(request?.headers.get(LOCAL_PORT_HEADER)) || undefined),
    database: drizzleAdapter(db, { provider: 'pg', schema: { user, session, account, verification } }),
    emailAndPassword: {
      enabled: true,
      // Users are created by admins, and by the source sign-up (POST /api/signup), which creates the
      // source with its user and requires a verified email; better-auth's open sign-up would not.
      disableSignUp: true,
      minPasswordLength: 8,
      maxPasswordLength: 99,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user: u, url, token }) {
        // The newest link is the only one that works (issue 29 item 5).
        await users.deleteResetTokens(u.id, token);
        // Not awaited: a mail server's delay would tell a known address from an unknown one by the time
        // the request takes (issue 29 item 11); the answer has its floor (auth-answers.ts).
        void mailer
          .send(passwordResetEmail(u.email, u.name, url))
          .catch((error: unknown) => logger?.error({ err: error }, 'auth: a password-reset mail could not be kept'));
      },
      async onPasswordReset({ user: u }) {
        await users.deleteResetTokens(u.id);
        await forgetSignInFailures(db, u.id);
        // Following a link sent to the address proves it is the user's: for a user an admin made (a
        // welcome link). A self-signed-up user (no role yet) becomes its source's user only through
        // its verification link (afterEmailVerification), which must still work after a reset.
        await db
          .update(user)
          .set({ emailVerified: true })
          .where(and(eq(user.id, u.id), isNotNull(user.role)));
      },
    },
    emailVerification: {
      // Required (portals spec §4): a self-signed-up user has no role, hence no session, until this.
      expiresIn: VERIFICATION_LINK_HOURS * 3600,
      autoSignInAfterVerification: false,
      async sendVerificationEmail({ user: u, token }) {
        // The link opens the SPA's verification screens, which verify through /api/auth/verify-email.
        const link = `${config.PUBLIC_URL}${VERIFY_EMAIL_PATH}?token=${encodeURIComponent(token)}`;
        await mailer.send(verificationEmail(u.email, u.name, link, VERIFICATION_LINK_HOURS));
      },
      async afterEmailVerification(u) {
        // A sign-up's user waits role-less for this (modules/signup): now it is its source's user.
        const promoted = await db
          .update(user)
          .set({ role: 'source' })
          .where(and(eq(user.id, u.id), isNull(user.role), isNotNull(user.roleId)))
          .returning({ id: user.id });
        if (promoted.length > 0) await onSignupVerified?.(u.email);
      },
    },
    user: {
      additionalFields: {
        role: { type: 'string', required: false, input: false },
        roleId: { type: 'string', required: false, input: false },
        welcome: { type: 'boolean', required: false, input: false, defaultValue: false },
        holdAt: { type: 'date', required: false, input: false },
      },
    },
    session: { expiresIn: SESSION_EXPIRES_IN_SECONDS, updateAge: SESSION_UPDATE_AGE_SECONDS },
    hooks: {
      before: createAuthMiddleware(async (ctx) => {
        const body = (ctx.body ?? {}) as Record<string, unknown>;
        // The username plugin lets /update-user change it; a username is fixed once given (users sign in with it).
        if (ctx.path === '/update-user' && (body.username !== undefined || body.displayUsername !== undefined)) {
          throw new APIError('BAD_REQUEST', { message: USERNAME_FIXED_MESSAGE, code: 'USERNAME_IS_FIXED' });
        }
        // The sign-up's rule and the breached-password list on every other way of setting a password.
        if (NEW_PASSWORD_PATHS.has(ctx.path) && typeof body.newPassword === 'string') {
          const problem = passwordProblem(body.newPassword);
          if (problem) throw new APIError('BAD_REQUEST', { message: problem, code: 'PASSWORD_NOT_ALLOWED' });
        }
      }),
    },
    databaseHooks: {
      session: {
        create: {
          async before(s) {
            const [owner] = await db
              .select({ holdAt: user.holdAt, role: user.role, emailVerified: user.emailVerified })
              .from(user)
              .where(eq(user.id, s.userId));
            if (owner?.holdAt)
              throw new APIError('FORBIDDEN', { message: ON_HOLD_MESSAGE, code: 'SIGN_IN_NOT_ALLOWED' });
            // A user no admin created (no role) gets a session only once its email is verified,
            // whichever route asks for one.
            if (owner && !owner.role && !owner.emailVerified)
              throw new APIError('FORBIDDEN', { message: UNVERIFIED_MESSAGE, code: 'EMAIL_NOT_VERIFIED' });
          },
        },
      },
    },
    rateLimit: {
      // Per client address, in this process; the per-account limit on failed sign-ins is ours
      // (auth.routes.ts) and lives in the database. A limit of 0 is off. better-auth's memory store
      // drops each entry when its window ends and holds at most 100,000 (issue 28: bounded).
      enabled: true,
      window: 60,
      max: 300,
      customRules: {
        '/sign-in/*': perMinute(config.AUTH_SIGN_IN_PER_MINUTE),
        '/sign-up/*': perMinute(config.AUTH_SIGN_UP_PER_MINUTE),
        '/request-password-reset': perMinute(config.AUTH_PASSWORD_RESET_PER_MINUTE),
        '/reset-password': perMinute(config.AUTH_PASSWORD_RESET_PER_MINUTE),
        '/send-verification-email': perMinute(config.AUTH_SIGN_UP_PER_MINUTE),
        '/verify-email': perMinute(config.AUTH_SIGN_UP_PER_MINUTE),
      },
    },
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      database: { generateId: () => newId('usr') },
      useSecureCookies: config.PUBLIC_URL.startsWith('https://'),
    },
    plugins: [
      username({
        minUsernameLength: 4,
        maxUsernameLength: 64,
        usernameValidator: (name) => USERNAME_PATTERN.test(name),
      }),
      bearer(),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

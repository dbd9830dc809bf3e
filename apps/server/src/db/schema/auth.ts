// better-auth's four tables (user, session, account, verification), written by hand from its docs
// so that migrations stay ours. `role`, `roleId`, `welcome` and `holdAt` are Leadex's additions.
import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { authTimestamps, parentId, primaryId, timestamptz } from './columns';

export const user = pgTable(
  'user',
  {
    id: primaryId(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    username: text('username').unique(),
    displayUsername: text('display_username'),
    /** admin, buyer or source; null for a user with no role yet. */
    role: text('role'),
    /** The buyer or source this user belongs to. */
    roleId: text('role_id'),
    /** Shows the source onboarding page until the user closes it. */
    welcome: boolean('welcome').notNull().default(false),
    /** Set while the user is locked (on hold): no sign-in, no session. */
    holdAt: timestamptz('hold_at'),
    ...authTimestamps(),
  },
  (t) => [index('user_role_id_idx').on(t.roleId)],
);

export const session = pgTable(
  'session',
  {
    id: primaryId(),
    expiresAt: timestamptz('expires_at').notNull(),
    token: text('token').notNull().unique(),
    ...authTimestamps(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: parentId('user_id', () => user.id),
  },
  (t) => [index('session_user_id_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: primaryId(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: parentId('user_id', () => user.id),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamptz('access_token_expires_at'),
    refreshTokenExpiresAt: timestamptz('refresh_token_expires_at'),
    scope: text('scope'),
    password: text('password'),
    ...authTimestamps(),
  },
  (t) => [index('account_user_id_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: primaryId(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    ...authTimestamps(),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

import { z } from 'zod';
import { ROLES } from './constants';

/** GET /api/session: the claims of DESIGN.md §4. */
export const sessionClaimsSchema = z.object({
  user_id: z.string(),
  role: z.enum(ROLES).nullable(),
  role_id: z.string().nullable(),
  canPostLead: z.boolean(),
  welcome: z.boolean(),
  emailVerified: z.boolean(),
  /** The exchange's time zone: every screen shows its times in it (docs/decisions.md "One clock"). */
  zone: z.string(),
  /** Who is signed in, as the header shows it (issue 27 item 24): the user's name and email. */
  name: z.string(),
  email: z.string(),
});
export type SessionClaims = z.infer<typeof sessionClaimsSchema>;

/** PUT /api/session/claims: the onboarding flag is the only claim a user may change. */
export const claimsUpdateSchema = z.object({
  welcome: z.literal(false, { error: 'Welcome can only be set to false' }),
});

/**
 * better-auth's answer to following a verification link and to sending one again
 * (GET /api/auth/verify-email, POST /api/auth/send-verification-email).
 */
export const authStatusAnswerSchema = z.object({ status: z.boolean() });
export type AuthStatusAnswer = z.infer<typeof authStatusAnswerSchema>;

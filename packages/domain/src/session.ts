import { z } from 'zod';
import type { Role } from './constants';

/** GET /api/session: the claims of DESIGN.md §4. */
export interface SessionClaims {
  user_id: string;
  role: Role | null;
  role_id: string | null;
  canPostLead: boolean;
  welcome: boolean;
  emailVerified: boolean;
  /** The exchange's time zone: every screen shows its times in it (docs/decisions.md "One clock"). */
  zone: string;
  /** Who is signed in, as the header shows it (issue 27 item 24): the user's name and email. */
  name: string;
  email: string;
}

/** PUT /api/session/claims: the onboarding flag is the only claim a user may change. */
export const claimsUpdateSchema = z.object({
  welcome: z.literal(false, { error: 'Welcome can only be set to false' }),
});

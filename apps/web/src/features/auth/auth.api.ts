import {
  type AuthStatusAnswer,
  type AvailabilityAnswer,
  EMAIL_VERIFICATION_REFETCH_MS,
  type SessionClaims,
  type SignupAnswer,
  type SignupInput,
} from '@leadex/domain';
import { useQuery } from '@tanstack/react-query';
import { ApiRequestError, api, NETWORK_ERROR } from '../../lib/api';

/** Portals spec §8: the authentication texts the forms show. */
export const AUTH_TEXTS = {
  wrongCredentials: 'Incorrect email and password combination',
  invalidResetToken: 'Invalid password reset token',
  somethingWentWrong: 'Something went wrong',
  emailExists: 'This email already exists. Please sign in instead',
  verificationExpired: 'The email verification link has expired',
} as const;

/** POST /api/signup: the source and its user; the verification link is mailed. */
export function signUp(values: Omit<Record<keyof SignupInput, string>, 'confirmPassword'>) {
  return api.post<SignupAnswer>('/api/signup', values, { toast: false });
}

/** GET /api/signup/isuseravail/{name|email}/{value}: whether nobody has it yet. */
export async function isAvailable(kind: 'name' | 'email', value: string, signal?: AbortSignal): Promise<boolean> {
  const answer = await api.get<AvailabilityAnswer>(`/api/signup/isuseravail/${kind}/${encodeURIComponent(value)}`, {
    toast: false,
    signal,
  });
  return answer.ok;
}

/** better-auth's verification of the emailed token (no session comes of it: the user signs in after). */
export function verifyEmail(token: string) {
  return api.get<AuthStatusAnswer>('/api/auth/verify-email', { query: { token }, toast: false });
}

/** Mails a new verification link to an unverified account (the same answer whether or not there is one). */
export function resendVerification(email: string) {
  return api.post<AuthStatusAnswer>('/api/auth/send-verification-email', { email }, { toast: false });
}

/** POST /api/session/claims: sets the claims of a new session (portals spec §2) and answers them. */
export function setClaims() {
  return api.post<SessionClaims>('/api/session/claims', undefined, { toast: false });
}

/**
 * better-auth's sign-in: by email when the identifier has an '@', else by username. The forms show
 * the failure themselves (mapped to the spec's texts), so these calls raise no toast.
 */
export function signIn(identifier: string, password: string) {
  return identifier.includes('@')
    ? api.post('/api/auth/sign-in/email', { email: identifier, password }, { toast: false })
    : api.post('/api/auth/sign-in/username', { username: identifier, password }, { toast: false });
}

export function signOut() {
  return api.post('/api/auth/sign-out', {});
}

/** Emails a reset link; better-auth sends the user on to /reset-password?token=… from it. */
export function requestPasswordReset(email: string) {
  return api.post('/api/auth/request-password-reset', { email, redirectTo: '/reset-password' }, { toast: false });
}

export function resetPassword(token: string, newPassword: string) {
  return api.post('/api/auth/reset-password', { newPassword, token }, { toast: false });
}

/** A sign-in failure as the form says it: wrong credentials in the spec's words, else the server's reason. */
export function signInErrorText(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return AUTH_TEXTS.somethingWentWrong;
  if (error.status === 0) return NETWORK_ERROR;
  // better-auth answers 401 for an unknown account and for a wrong password alike (so does username
  // sign-in); a locked account is a 403 whose message says why.
  if (error.status === 401) return AUTH_TEXTS.wrongCredentials;
  return error.message;
}

export function resetErrorText(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return AUTH_TEXTS.somethingWentWrong;
  if (error.status === 0) return NETWORK_ERROR;
  if (error.code === 'INVALID_TOKEN' || /token/i.test(error.message)) return AUTH_TEXTS.invalidResetToken;
  return error.message;
}

/** The email verification of a link's token, once the person asked for it (`started`). */
export function useEmailVerification(token: string | null, started: boolean) {
  return useQuery({
    queryKey: ['email-verification', token],
    queryFn: () => verifyEmail(token ?? ''),
    enabled: started && Boolean(token),
    // Portals spec §2: the verification status is fetched again after 10 seconds at the earliest.
    staleTime: EMAIL_VERIFICATION_REFETCH_MS,
    retry: false,
  });
}

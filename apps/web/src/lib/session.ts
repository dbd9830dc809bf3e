import type { SessionClaims } from '@leadex/domain';
import { useQuery } from '@tanstack/react-query';
import { ApiRequestError, api } from './api';
import { setExchangeZone } from './format';
import { showError } from './notify';
import { queryKeys } from './queryKeys';

/** GET /api/session: the claims of the signed-in user, or null for a guest (the API answers 401). */
export async function fetchSession(): Promise<SessionClaims | null> {
  try {
    const claims = await api.get<SessionClaims>('/api/session', { toast: false });
    // Before any screen renders: every time is shown in the exchange's zone (docs/decisions.md "One clock").
    setExchangeZone(claims.zone);
    return claims;
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    // Being a guest is not a failure; anything else (the server unreachable) is, and says so.
    if (error instanceof Error) showError(error.message);
    throw error;
  }
}

/** The session claims; every screen below the router can rely on them being loaded. */
export function useSession() {
  return useQuery({ queryKey: queryKeys.session, queryFn: fetchSession, staleTime: 5 * 60_000 });
}

/** The claims of a signed-in user with a role, for screens that only exist inside a role's area. */
export function useClaims(): SessionClaims {
  const { data } = useSession();
  if (!data) throw new Error('useClaims is used outside a signed-in area');
  return data;
}

import type { Buyer, LeadDetail, LeadUpdate, NameList, ResendAnswer } from '@leadex/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import type { LeadRange } from './leadRange';

const path = (id: string, rest = '') => `/api/lead/${encodeURIComponent(id)}${rest}`;

/**
 * GET /api/lead/{id}?includeMatchLog=true&includeNotifyLogs=true: the lead as the viewer may see it
 * (admins: everything, with the matches' delivery logs and the engine's explanation).
 */
export function useLead(id: string) {
  return useQuery({
    queryKey: queryKeys.leads.detail(id),
    queryFn: ({ signal }) =>
      api.get<LeadDetail>(path(id), { query: { includeMatchLog: true, includeNotifyLogs: true }, signal }),
    // A 404 stays a 404: asking again only repeats the toast.
    retry: false,
  });
}

/** PUT /api/lead/{id} (admin): only the changed fields; answers the updated lead. */
export function useUpdateLead(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: LeadUpdate) => api.put<LeadDetail>(path(id), changes),
    onSuccess: (lead) => {
      // The answer is the lead without its logs: read the detail again rather than show less.
      queryClient.setQueryData<LeadDetail>(queryKeys.leads.detail(id), (before) => ({ ...before, ...lead }));
      return queryClient.invalidateQueries({ queryKey: queryKeys.leads.all });
    },
  });
}

/** POST /api/lead/{id}/match/{matchId}/resend (admin): sends a failed delivery again. */
export function useResendDelivery(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (matchId: string) => api.post<ResendAnswer>(path(id, `/match/${encodeURIComponent(matchId)}/resend`)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.leads.detail(id) }),
  });
}

/** GET /api/lead/values/{service|zip}: the values present in the range, for the select filters. */
export function useLeadValues(field: 'service' | 'zip', range: LeadRange) {
  return useQuery({
    queryKey: queryKeys.leads.values(field, range),
    queryFn: ({ signal }) =>
      api.get<NameList>(`/api/lead/values/${field}`, {
        query: { dateq: range.dateq, begin: range.begin, end: range.end },
        signal,
      }),
    staleTime: 60_000,
  });
}

/** GET /api/buyer/{id}: the buyer a shared link filters by, read when the search did not list it (its name shows). */
export function useFilteredBuyer(id: string | null, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.buyers.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<Buyer>(`/api/buyer/${encodeURIComponent(id ?? '')}`, { signal }),
    enabled: Boolean(id) && enabled,
    staleTime: 60_000,
  });
}

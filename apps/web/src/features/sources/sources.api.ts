import type { Source, SourceApiKey, SourceUser, SourceUserInput } from '@leadex/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PortalUserAction, PortalUserActions } from '../../components/UsersSection';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import type { SourceFormValues } from './sourceForm';

const path = (id: string, rest = '') => `/api/source/${encodeURIComponent(id)}${rest}`;

/** GET /api/source/{id}?include=users&include=leads: the source with its keys, users and latest leads. */
export function useSource(id: string | null | undefined) {
  return useQuery({
    queryKey: queryKeys.sources.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<Source>(`${path(id ?? '')}?include=users&include=leads`, { signal }),
    enabled: Boolean(id),
  });
}

/** After any change to a source: its detail and the lists are read again. */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.sources.all });
}

/** POST /api/source: the whole form; answers the source with its `_id`. */
export function useCreateSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: SourceFormValues) => api.post<Source>('/api/source', values),
    onSuccess: (source) => {
      queryClient.setQueryData(queryKeys.sources.detail(source._id), { ...source, leads: [] });
      return queryClient.invalidateQueries({ queryKey: queryKeys.sources.all });
    },
  });
}

/** PUT /api/source/{id}: only the changed fields; channels are sent whole. */
export function useUpdateSource(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (changes: Partial<SourceFormValues>) => api.put<Source>(path(id), changes),
    onSuccess: refresh,
  });
}

/** PUT /api/source/{id}/hold (reason) and /unhold. */
export function useSourceHold(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ hold, reason }: { hold: boolean; reason?: string }) =>
      hold ? api.put<Source>(path(id, '/hold'), { reason }) : api.put<Source>(path(id, '/unhold')),
    onSuccess: refresh,
  });
}

/** PUT /api/source/{id}/approve: a self-signed-up source may sell real leads from now on. */
export function useApproveSource(id: string) {
  const refresh = useRefresh();
  return useMutation({
    // The payout may be set with the approval (issue 27); the server refuses one without any.
    mutationFn: (body: { max_cost?: number } = {}) => api.put<Source>(path(id, '/approve'), body, { toast: false }),
    onSuccess: refresh,
  });
}

export interface NewApiKey {
  name?: string;
  canPostLead?: boolean;
  /** Epoch seconds. */
  expiration?: number;
}

/** PUT /api/source/{id}/apikey/new: answers the new key. */
export function useCreateApiKey(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: NewApiKey) => api.put<SourceApiKey>(path(id, '/apikey/new'), input),
    onSuccess: refresh,
  });
}

/** PUT /api/source/{id}/apikey/hold (name). */
export function useHoldApiKey(id: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (name: string) => api.put<SourceApiKey>(path(id, '/apikey/hold'), { name }),
    onSuccess: refresh,
  });
}

/** The Users section's calls: POST …/user adds, PUT …/user/{userId} edits, PUT …/{action}/{userId}. */
export function useSourceUserActions(id: string): Omit<PortalUserActions<SourceUser>, 'afterWelcome'> {
  const refresh = useRefresh();
  const save = useMutation({
    mutationFn: ({ userId, ...input }: SourceUserInput & { userId?: string }) =>
      userId
        ? api.put<SourceUser>(path(id, `/user/${encodeURIComponent(userId)}`), input)
        : api.post<SourceUser>(path(id, '/user'), input),
    onSuccess: refresh,
  });
  const act = useMutation({
    mutationFn: ({ action, userId }: { action: PortalUserAction; userId: string }) =>
      api.put<SourceUser>(path(id, `/${action}/${encodeURIComponent(userId)}`)),
    onSuccess: refresh,
  });
  return {
    save: (input, userId) => save.mutateAsync({ ...input, userId }),
    act: (action, userId) => act.mutateAsync({ action, userId }),
  };
}

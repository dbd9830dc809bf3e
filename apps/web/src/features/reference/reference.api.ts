import type { NameList, ServiceFieldsAnswer, ServiceLabel, TagKind } from '@leadex/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

/**
 * GET /api/tag/{kind}: the tags in use (a buyer's: its own records'), as a bare array; tag fields
 * suggest them and lists filter by them. `enabled: false` when nothing shows them (a read-only field).
 */
export function useTags(kind: TagKind, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.tags(kind),
    queryFn: ({ signal }) => api.get<NameList>(`/api/tag/${kind}`, { signal }),
    enabled,
    staleTime: 60_000,
  });
}

/** GET /api/services/labels: each service's key and label. Read once and kept: services rarely change. */
export function useServiceLabels() {
  return useQuery({
    queryKey: queryKeys.serviceLabels,
    queryFn: ({ signal }) => api.get<ServiceLabel[]>('/api/services/labels', { signal, toast: false }),
    staleTime: 30 * 60_000,
  });
}

/**
 * GET /api/services/fields: every service's own fields in their order (issue 33), removed ones included
 * (flagged) so old leads still show them. Kept a while: the admin's save refreshes it.
 */
export function useServiceFields() {
  return useQuery({
    queryKey: queryKeys.serviceFields,
    queryFn: ({ signal }) => api.get<ServiceFieldsAnswer[]>('/api/services/fields', { signal, toast: false }),
    staleTime: 5 * 60_000,
  });
}

import type { ZipSearchResult, ZipSuggestion, Zipset, ZipsetCreate } from '@leadex/domain';
import { ZIP_SUGGESTIONS } from '@leadex/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import type { RegionSearch } from './region';

/** ZIPs and counties never change while the app runs. */
const REFERENCE_STALE_MS = 60 * 60_000;

/** GET /api/zip/suggestions?q=: ZIPs by prefix and counties by name; nothing is asked below 2 characters. */
export function useZipSuggestions(q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: queryKeys.zips.suggestions(text),
    queryFn: ({ signal }) => api.get<ZipSuggestion[]>('/api/zip/suggestions', { query: { q: text }, signal }),
    enabled: text.length >= ZIP_SUGGESTIONS.minChars,
    staleTime: REFERENCE_STALE_MS,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/zip/search: the ZIPs around a ZIP (nearest first) or of a county; idle while `search` is null. */
export function useZipSearch(search: RegionSearch | null) {
  const params: Record<string, string | number> = search ? { ...search } : {};
  return useQuery({
    queryKey: queryKeys.zips.search(params),
    queryFn: ({ signal }) => api.get<ZipSearchResult[]>('/api/zip/search', { query: params, signal }),
    enabled: search !== null,
    staleTime: REFERENCE_STALE_MS,
  });
}

/** GET /api/zipset: the regions the viewer may use; an admin may narrow to one buyer's choice. */
export function useZipsets(buyer?: string) {
  return useQuery({
    queryKey: queryKeys.zipsets.list(buyer),
    queryFn: ({ signal }) => api.get<Zipset[]>('/api/zipset', { query: { buyer }, signal }),
    staleTime: 60_000,
  });
}

/** POST /api/zipset: answers the region with its `_id`; every region list is refreshed. */
export function useCreateZipset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ZipsetCreate) => api.post<Zipset>('/api/zipset', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.zipsets.all }),
  });
}

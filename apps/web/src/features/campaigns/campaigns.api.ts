import type { Campaign, CampaignPayload, FilterField, NameList, Page, SourceListItem } from '@leadex/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { useRecord, useSaveRecord } from '../../lib/records';

const path = (id: string) => `/api/match/${encodeURIComponent(id)}`;

/** GET /api/match/{id}: one campaign (a buyer may read only its own; others answer 404). */
export function useCampaign(id: string | null) {
  return useRecord<Campaign>(queryKeys.campaigns, id, path);
}

/** POST /api/match: the payload of admin §7; answers the campaign with its `_id`. */
export function useCreateCampaign() {
  return useSaveRecord(queryKeys.campaigns, (payload: Partial<CampaignPayload>) =>
    api.post<Campaign>('/api/match', payload),
  );
}

/** PUT /api/match/{id}: only the changed fields. */
export function useUpdateCampaign(id: string) {
  return useSaveRecord(queryKeys.campaigns, (changes: object) => api.put<Campaign>(path(id), changes));
}

/** GET /api/services: every service a campaign may buy. */
export function useServices() {
  return useQuery({
    queryKey: queryKeys.services,
    queryFn: ({ signal }) => api.get<NameList>('/api/services', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** GET /api/match/services: the services the viewer's campaigns buy (the list's "values present"). */
export function useCampaignServices() {
  return useQuery({
    queryKey: queryKeys.campaigns.services,
    queryFn: ({ signal }) => api.get<NameList>('/api/match/services', { signal }),
  });
}

/** A source as Source Restrictions offers it: its name and channels. */
export type SourceOption = Pick<SourceListItem, '_id' | 'name' | 'channels'>;

/** GET /api/source?pageSize=200: sources and their channels, for Source Restrictions (admin only). */
export function useSourceOptions(enabled: boolean) {
  return useQuery({
    queryKey: [...queryKeys.sources.all, 'options'],
    queryFn: ({ signal }) =>
      api.get<Page<SourceOption>>('/api/source', { query: { pageSize: 200, sort: 'name' }, signal }),
    enabled,
    staleTime: 60_000,
  });
}

/** A field the Field Filters offer: its definition and the campaign's services that have it. */
export type FilterFieldOption = FilterField;

/** GET /api/match/fields: the fields of these services a campaign may filter on (admin and buyer). */
export function useFilterFields(services: readonly string[]) {
  const list = [...services].sort().join(',');
  return useQuery({
    queryKey: [...queryKeys.campaigns.all, 'fields', list],
    queryFn: ({ signal }) => api.get<FilterField[]>('/api/match/fields', { query: { services: list }, signal }),
    enabled: list.length > 0,
    staleTime: 60_000,
  });
}

import type {
  AdSpendEntry,
  AdSpendList,
  AdSpendRow,
  AdSpendSources,
  AdSpendUploadResult,
  ExchangeZone,
  IntegrationName,
  IntegrationSetting,
} from '@leadex/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { setExchangeZone } from '../../lib/format';
import { queryKeys } from '../../lib/queryKeys';

/** How many days of ad spend the Settings screen lists. */
export const AD_SPEND_DAYS = 31;

const integrationPath = (name: IntegrationName) => `/api/setting/integration/${encodeURIComponent(name)}`;

/** GET /api/setting/allForCat/integration: the three integrations and their status. */
export function useIntegrations() {
  return useQuery({
    queryKey: queryKeys.integrations,
    queryFn: ({ signal }) => api.get<IntegrationSetting[]>('/api/setting/allForCat/integration', { signal }),
  });
}

/** Puts one integration's new state (the server's answer) in the cached list. */
function useStoreIntegration() {
  const queryClient = useQueryClient();
  return (saved: IntegrationSetting) =>
    queryClient.setQueryData<IntegrationSetting[]>(queryKeys.integrations, (list) =>
      list?.map((integration) => (integration.name === saved.name ? saved : integration)),
    );
}

/** DELETE /api/setting/integration/{name}: forgets its tokens; it reads Disconnected. */
export function useDisconnectIntegration() {
  const store = useStoreIntegration();
  return useMutation({
    mutationFn: (name: IntegrationName) => api.delete<IntegrationSetting>(integrationPath(name)),
    onSuccess: store,
  });
}

/** PUT /api/setting/integration/{name}: the internal source an ad integration's spend is the cost of. */
export function useIntegrationSource() {
  const store = useStoreIntegration();
  return useMutation({
    mutationFn: ({ name, sourceId }: { name: IntegrationName; sourceId: string | null }) =>
      api.put<IntegrationSetting>(integrationPath(name), { sourceId }),
    onSuccess: store,
  });
}

/** GET /api/ad-spend/sources: the internal sources (paid nothing; their cost is ad spend). */
export function useInternalSources() {
  return useQuery({
    queryKey: queryKeys.adSpend.sources,
    queryFn: ({ signal }) => api.get<AdSpendSources>('/api/ad-spend/sources', { signal }),
    select: (answer) => answer.data.map((source) => ({ value: source._id, label: source.name })),
  });
}

/** GET /api/ad-spend?days=31: the last days' spend, manual and imported. */
export function useAdSpend() {
  return useQuery({
    queryKey: queryKeys.adSpend.list(AD_SPEND_DAYS),
    queryFn: ({ signal }) => api.get<AdSpendList>('/api/ad-spend', { signal, query: { days: AD_SPEND_DAYS } }),
    select: (answer) => answer.data,
  });
}

/** Ad spend is part of the dashboard's cost: a change reads both again. */
function useRefreshSpend() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.adSpend.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.stats }),
    ]);
}

/** PUT /api/ad-spend: a day's spend of an internal source, by hand (replaces that day's manual entry). */
export function useSaveAdSpend() {
  const refresh = useRefreshSpend();
  return useMutation({
    mutationFn: (entry: AdSpendEntry) => api.put<AdSpendRow>('/api/ad-spend', entry),
    onSuccess: refresh,
  });
}

/** POST /api/ad-spend/csv: a CSV file's text (date,source,amount), one day a line. */
export function useUploadAdSpend() {
  const refresh = useRefreshSpend();
  return useMutation({
    mutationFn: (csv: string) => api.post<AdSpendUploadResult>('/api/ad-spend/csv', csv, { contentType: 'text/csv' }),
    onSuccess: refresh,
  });
}

/** GET /api/setting/zone: the exchange's time zone (docs/decisions.md "One clock"). */
export function useExchangeZone() {
  return useQuery({
    queryKey: queryKeys.exchangeZone,
    queryFn: ({ signal }) => api.get<ExchangeZone>('/api/setting/zone', { signal }),
  });
}

/**
 * PUT /api/setting/zone. Every time on every screen, "Today" and the date ranges follow the zone, so
 * a change refetches everything (the session first: it carries the zone the screens format with).
 */
export function useSaveExchangeZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (zone: string) => api.put<ExchangeZone>('/api/setting/zone', { zone }, { toast: false }),
    onSuccess: async (saved) => {
      setExchangeZone(saved.zone);
      queryClient.setQueryData(queryKeys.exchangeZone, saved);
      await queryClient.invalidateQueries();
    },
  });
}

import type {
  BillingRunResult,
  OkAnswer,
  SimLeadResult,
  SimLeads,
  SimMockDateAnswer,
  SimTestAnswer,
  SimWhitelist,
  SystemInfo,
} from '@leadex/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, postForLines } from '../../lib/api';

export const simKeys = { env: ['sim', 'env'] as const, whitelist: ['sim', 'whitelist'] as const };

/** In production the route does not exist: the 404 is the answer (no error toast, no retries). */
export function useSystemInfo() {
  return useQuery({
    queryKey: simKeys.env,
    queryFn: ({ signal }) => api.get<SystemInfo>('/api/env', { signal, toast: false }),
    retry: false,
  });
}

/**
 * Every screen reads the exchange's clock: after the mock date moves, a reset or a run, everything
 * cached is read again.
 */
function useRefreshEverything() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

/** POST /api/sim/mockDate: a date (epoch seconds) or reset. */
export function useMockDate() {
  const refresh = useRefreshEverything();
  return useMutation({
    mutationFn: (body: { date: number } | { reset: true }) => api.post<SimMockDateAnswer>('/api/sim/mockDate', body),
    onSuccess: refresh,
  });
}

/** POST /api/sim/billing, with doPayments=true to pay the closed bills. */
export function useBillingRun() {
  const refresh = useRefreshEverything();
  return useMutation({
    mutationFn: (doPayments: boolean) =>
      api.post<BillingRunResult>('/api/sim/billing', {}, { query: doPayments ? { doPayments: 'true' } : undefined }),
    onSuccess: refresh,
  });
}

export function useSimTest(kind: 'pingpost' | 'lead') {
  const refresh = useRefreshEverything();
  return useMutation({
    mutationFn: (body: object) => api.post<SimTestAnswer>(`/api/sim/${kind}`, body, { toast: false }),
    onSuccess: refresh,
  });
}

/** POST /api/sim/leads, each lead's outcome passed to `onLead` as it arrives. */
export function useSimLeads(onLead: (outcome: SimLeadResult) => void) {
  const refresh = useRefreshEverything();
  return useMutation({
    mutationFn: (body: SimLeads) => postForLines<SimLeadResult>('/api/sim/leads', body, onLead),
    onSettled: refresh,
  });
}

export function useWhitelist() {
  return useQuery({
    queryKey: simKeys.whitelist,
    queryFn: ({ signal }) => api.get<SimWhitelist>('/api/sim/whitelist', { signal }),
  });
}

export function useSaveWhitelist() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SimWhitelist) => api.post<SimWhitelist>('/api/sim/whitelist', body, { toast: false }),
    onSuccess: (saved) => queryClient.setQueryData(simKeys.whitelist, saved),
  });
}

/** POST /api/sim/reset-db. */
export function useResetDatabase() {
  const refresh = useRefreshEverything();
  return useMutation({ mutationFn: () => api.post<OkAnswer>('/api/sim/reset-db'), onSuccess: refresh });
}

import type { BuyerMessage, BuyerStats, SentBuyerMessage } from '@leadex/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

const buyerPath = (id: string) => `/api/buyer/${encodeURIComponent(id)}`;

/** The buyer home's Stats key: under the buyer's own, so anything that reloads the buyer reloads them. */
const statsKey = (id: string) => [...queryKeys.buyers.detail(id), 'stats'] as const;

/** GET /api/buyer/{id}/stats: the signed-in buyer's month and last 30 days. */
export function useBuyerStats(id: string | null | undefined) {
  return useQuery({
    queryKey: statsKey(id ?? ''),
    queryFn: ({ signal }) => api.get<BuyerStats>(`${buyerPath(id ?? '')}/stats`, { signal }),
    enabled: Boolean(id),
  });
}

/** POST /api/buyer/{id}/message (portals spec §7): Message Us, read by the exchange's admins. */
export function useSendBuyerMessage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BuyerMessage) => api.post<SentBuyerMessage>(`${buyerPath(id)}/message`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.messages.all }),
  });
}

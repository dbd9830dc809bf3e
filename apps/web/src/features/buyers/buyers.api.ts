import {
  type BillSummary,
  type Buyer,
  type BuyerListItem,
  type BuyerPauseResult,
  type BuyerUser,
  PAUSE_ALL_REASON,
  type Page,
} from '@leadex/domain';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PortalUserAction, PortalUserActions, PortalUserInput } from '../../components/UsersSection';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import type { BuyerFormValues } from './buyerForm';

/** What the buyer screen loads with the record: the admin gets campaigns and leads too. */
export type BuyerInclude = 'users' | 'matches' | 'leads';

const buyerPath = (id: string) => `/api/buyer/${encodeURIComponent(id)}`;

/**
 * GET /api/buyer/{id}?include=…: one buyer (a buyer user may read only its own). The admin's screen
 * asks for `matches,leads,users` (admin §7); the buyer's own profile for its users.
 */
export function useBuyer(id: string | null | undefined, include: readonly BuyerInclude[] = ['users']) {
  return useQuery({
    queryKey: queryKeys.buyers.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<Buyer>(buyerPath(id ?? ''), { query: { include: include.join(',') }, signal }),
    enabled: Boolean(id),
  });
}

/** POST /api/buyer: the whole form; answers the buyer with its `_id`. */
export function useCreateBuyer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: BuyerFormValues) => api.post<Buyer>('/api/buyer', values),
    onSuccess: (buyer) => {
      queryClient.setQueryData(queryKeys.buyers.detail(buyer._id), { matches: [], leads: [], ...buyer });
      return queryClient.invalidateQueries({ queryKey: queryKeys.buyers.all });
    },
  });
}

/** PUT /api/buyer/{id}: only the changed fields (the username never, the API refuses it). */
export function useUpdateBuyer(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: Partial<BuyerFormValues>) => api.put<Buyer>(buyerPath(id), changes),
    onSuccess: async (buyer) => {
      // The PUT answers the buyer alone; keep the users, campaigns and leads already shown.
      queryClient.setQueryData<Buyer>(queryKeys.buyers.detail(id), (old) => ({
        ...buyer,
        users: buyer.users ?? old?.users,
        matches: buyer.matches ?? old?.matches,
        leads: buyer.leads ?? old?.leads,
      }));
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.buyers.all }),
        // The billing period may have changed, and with it the accruing bill.
        queryClient.invalidateQueries({ queryKey: queryKeys.bills.ofBuyer(id) }),
      ]);
    },
  });
}

/** Reloads the buyer (and its campaigns everywhere) after an action changed it. */
function refreshBuyer(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.buyers.all }),
    queryClient.invalidateQueries({ queryKey: queryKeys.campaigns.all }),
  ]).then(() => undefined);
}

/** PUT /api/buyer/{id}/pause with the spec's reason: pauses every live campaign of the buyer. */
export function usePauseCampaigns(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.put<BuyerPauseResult>(`${buyerPath(id)}/pause`, { reason: PAUSE_ALL_REASON }),
    onSuccess: () => refreshBuyer(queryClient),
  });
}

/** The Users section's calls (admin §7): add or edit, and welcome email, lock (hold) and unlock. */
export function useBuyerUserActions(id: string): PortalUserActions<BuyerUser> {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: ({ userId, ...user }: PortalUserInput & { userId?: string }) =>
      userId
        ? api.put<BuyerUser>(`${buyerPath(id)}/user/${encodeURIComponent(userId)}`, user)
        : api.post<BuyerUser>(`${buyerPath(id)}/user`, user),
    onSuccess: () => refreshBuyer(queryClient),
  });
  const act = useMutation({
    mutationFn: ({ action, userId }: { action: PortalUserAction; userId: string }) =>
      api.put<BuyerUser>(`${buyerPath(id)}/${action}/${encodeURIComponent(userId)}`),
    // A welcome email changes nothing the screen shows.
    onSuccess: (_user, { action }) => (action === 'welcome' ? undefined : refreshBuyer(queryClient)),
  });
  return {
    save: (input, userId) => save.mutateAsync({ ...input, userId }),
    act: (action, userId) => act.mutateAsync({ action, userId }),
  };
}

/** GET /api/bill/buyer/{buyerId}: the buyer's bills, the accruing one first. */
export function useBuyerBills(buyerId: string | null) {
  return useQuery({
    queryKey: queryKeys.bills.ofBuyer(buyerId ?? ''),
    queryFn: ({ signal }) => api.get<BillSummary[]>(`/api/bill/buyer/${encodeURIComponent(buyerId ?? '')}`, { signal }),
    enabled: Boolean(buyerId),
  });
}

/** GET /api/buyer?name=: the first 50 buyers whose name holds the text typed (admin only). */
export function useBuyerOptions(search: string) {
  return useQuery({
    queryKey: [...queryKeys.buyers.all, 'options', search],
    queryFn: ({ signal }) =>
      api.get<Page<BuyerListItem>>('/api/buyer', { query: { name: search, pageSize: 50, sort: 'name' }, signal }),
    staleTime: 30_000,
  });
}

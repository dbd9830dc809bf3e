import { type Bill, type BillAdjustmentsInput, NEXT_BILL_ID } from '@leadex/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

/**
 * One bill: GET /api/bill/{id}, or, for the web's alias `next` with a buyer, that buyer's accruing bill
 * (GET /api/bill/buyer/{buyerId}/current).
 */
export function useBill(id: string, buyerId: string | undefined) {
  const path =
    id === NEXT_BILL_ID && buyerId
      ? `/api/bill/buyer/${encodeURIComponent(buyerId)}/current`
      : `/api/bill/${encodeURIComponent(id)}`;
  return useQuery({
    queryKey: queryKeys.bills.detail(id === NEXT_BILL_ID ? `next:${buyerId ?? ''}` : id),
    queryFn: ({ signal }) => api.get<Bill>(path, { signal }),
    retry: false,
  });
}

/** PUT /api/bill/{id}: the admin's credits and debits, both lists whole; every bill view is read again. */
export function useAdjustBill(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BillAdjustmentsInput) => api.put<Bill>(`/api/bill/${encodeURIComponent(id)}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.bills.all }),
  });
}

import type { ReturnAnswer, ReturnDecision, ReturnRequest } from '@leadex/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

/**
 * POST /api/lead/{id}/match/{matchId}/return: a buyer's request (reason, comment) or an admin's
 * decision (approve or deny). The lead, its lists and the Returns screen are read again after it.
 */
export function useReturnAction(leadId: string, matchId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReturnRequest | ReturnDecision) =>
      api.post<ReturnAnswer>(
        `/api/lead/${encodeURIComponent(leadId)}/match/${encodeURIComponent(matchId)}/return`,
        body,
      ),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.leads.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.returns.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.bills.all }),
      ]),
  });
}

import type { AdminMessage, MessageHideManyAnswer } from '@leadex/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

/** PUT /api/message/admin/{id} with hide true: the message leaves the list. */
export function useHideMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.put<AdminMessage>(`/api/message/admin/${encodeURIComponent(id)}`, { hide: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.messages.all }),
  });
}

/** PUT /api/message/admin with ids and hide true: several messages leave the list at once. */
export function useHideMessages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => api.put<MessageHideManyAnswer>('/api/message/admin', { ids, hide: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.messages.all }),
  });
}

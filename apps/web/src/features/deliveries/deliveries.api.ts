import type { Webhook, WebhookDraft, WebhookPayload, WebhookTemplate, WebhookTestResult } from '@leadex/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { useRecord, useSaveRecord } from '../../lib/records';
import { useTags } from '../reference/reference.api';

const path = (id: string) => `/api/webhook/${encodeURIComponent(id)}`;

/** GET /api/webhook/{id}: one delivery (a buyer may read only its own; others answer 404). */
export function useWebhook(id: string | null) {
  return useRecord<Webhook>(queryKeys.webhooks, id, path);
}

/** GET /api/webhook/{id}/copy: the delivery as an unsaved draft named '… (copy)'. */
export function useWebhookCopy(id: string | null) {
  return useQuery({
    queryKey: queryKeys.webhooks.copy(id ?? ''),
    queryFn: ({ signal }) => api.get<WebhookDraft>(`${path(id ?? '')}/copy`, { signal }),
    enabled: Boolean(id),
    retry: false,
    // A copy is taken once, when the page opens.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

/** GET /api/webhook/new: the blank delivery and the template field list (mapping choices). */
export function useWebhookTemplate() {
  return useQuery({
    queryKey: queryKeys.webhooks.template,
    queryFn: ({ signal }) => api.get<WebhookTemplate>('/api/webhook/new', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** POST /api/webhook: answers the delivery with its `_id`. */
export function useCreateWebhook() {
  return useSaveRecord(queryKeys.webhooks, (payload: WebhookPayload) => api.post<Webhook>('/api/webhook', payload));
}

/** PUT /api/webhook/{id}: only the changed fields, lists whole. */
export function useUpdateWebhook(id: string) {
  return useSaveRecord(queryKeys.webhooks, (changes: Partial<WebhookPayload>) => api.put<Webhook>(path(id), changes));
}

/** POST /api/webhook/{id}/test: `test_<field>` values; answers what was sent and what came back. */
export function useTestWebhook(id: string) {
  return useMutation({
    mutationFn: (values: Record<string, string>) => api.post<WebhookTestResult>(`${path(id)}/test`, values),
  });
}

/** GET /api/tag/webhook: the tags in use (the viewer's own deliveries' for a buyer), for the list's tag filter. */
export const useDeliveryTags = () => useTags('webhook');

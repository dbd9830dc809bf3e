import type { NameList, SessionClaims, Source } from '@leadex/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, NETWORK_ERROR, postJson } from '../../lib/api';
import { showError } from '../../lib/notify';
import { queryKeys } from '../../lib/queryKeys';
import { TEST_PING_ZIP, testPostContact } from './endpoints';

/**
 * GET /api/source/{role_id}?include=users: the signed-in source's own record, with its API keys in
 * clear (to show and copy) and its users. The server answers 404 for any other source's id.
 */
export function useOwnSource(roleId: string | null | undefined) {
  return useQuery({
    queryKey: [...queryKeys.sources.detail(roleId ?? ''), 'portal'],
    queryFn: ({ signal }) =>
      api.get<Source>(`/api/source/${encodeURIComponent(roleId ?? '')}?include=users`, { signal }),
    enabled: Boolean(roleId),
  });
}

/** GET /api/services: the services the exchange buys, the `service` values a ping takes. */
export function useServices() {
  return useQuery({
    queryKey: ['services'],
    queryFn: ({ signal }) => api.get<NameList>('/api/services', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** An HTTP answer as it came: its status and its body, pretty-printed when it is JSON. */
export interface RawResponse {
  status: number;
  body: string;
}

/** What the welcome page's test ping sends besides the key. */
export interface TestPing {
  service: string;
  zip?: string;
  test?: boolean;
}

/**
 * POST /api/ping with the key in the `apikey` body field, as a source's server would send it. The answer
 * is shown raw whatever it says, so a refusal is not thrown; a failure is also raised as a toast.
 */
export function sendTestPing(apiKey: string, { service, zip = TEST_PING_ZIP, test = true }: TestPing) {
  return sendRaw('/api/ping', 'test ping', { apikey: apiKey, service, zip, test });
}

/**
 * POST /api/post for the test ping's `ping_id`, with a made-up consumer (TEST_POST_CONTACT, an address
 * of its own each time, so a second try is not refused as a re-post), shown raw as the ping is.
 */
export function sendTestPost(apiKey: string, pingId: string) {
  return sendRaw('/api/post', 'test post', { apikey: apiKey, ping_id: pingId, ...testPostContact() });
}

async function sendRaw(path: string, what: string, payload: object): Promise<RawResponse> {
  let response: Response;
  try {
    response = await postJson(path, payload, 'application/json');
  } catch (cause) {
    console.error(`${what} failed`, cause);
    showError(NETWORK_ERROR);
    throw cause;
  }
  const text = await response.text();
  let body = text;
  let message: string | undefined;
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    body = JSON.stringify(parsed, null, 2);
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    // Not JSON: shown as it came.
  }
  if (!response.ok) {
    console.error(`${what} answered`, response.status, text);
    showError(message ?? `The ${what} answered ${response.status}`);
  }
  return { status: response.status, body } satisfies RawResponse;
}

/** PUT /api/session/claims { welcome: false }: closes the welcome page for good; the session takes the answer. */
export function useCloseWelcome() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.put<SessionClaims>('/api/session/claims', { welcome: false }),
    onSuccess: (claims) => queryClient.setQueryData(queryKeys.session, claims),
    onError: (error) => console.error('closing the welcome page failed', error),
  });
}

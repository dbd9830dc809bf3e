import type {
  OptOut,
  OptOutCreate,
  SuppressionImportResult,
  SuppressionList,
  SuppressionListCreate,
} from '@leadex/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, api, GENERIC_ERROR } from '../../lib/api';
import { showError } from '../../lib/notify';

export const suppressionKeys = {
  lists: ['suppression', 'lists'] as const,
  optOuts: ['suppression', 'opt-outs'] as const,
};

export const useSuppressionLists = () =>
  useQuery({ queryKey: suppressionKeys.lists, queryFn: () => api.get<SuppressionList[]>('/api/suppression/list') });

export const useOptOuts = () =>
  useQuery({ queryKey: suppressionKeys.optOuts, queryFn: () => api.get<OptOut[]>('/api/opt-out') });

export function useCreateList() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SuppressionListCreate) => api.post<SuppressionList>('/api/suppression/list', body),
    onSuccess: () => client.invalidateQueries({ queryKey: suppressionKeys.lists }),
  });
}

export function useAddEntries(listId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: string[]) =>
      api.post<SuppressionImportResult>(`/api/suppression/list/${encodeURIComponent(listId)}/entries`, { values }),
    onSuccess: () => client.invalidateQueries({ queryKey: suppressionKeys.lists }),
  });
}

export function useRecordOptOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: OptOutCreate) => api.post<OptOut[]>('/api/opt-out', body),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: suppressionKeys.optOuts }),
        client.invalidateQueries({ queryKey: suppressionKeys.lists }),
      ]),
  });
}

/**
 * Uploads a CSV file as the request body (text/csv), the server reading it as it arrives; `onProgress`
 * gets the share sent (0 to 1). XMLHttpRequest, as fetch reports no upload progress.
 */
export function uploadCsv(
  listId: string,
  file: Blob,
  onProgress: (sent: number) => void,
): Promise<SuppressionImportResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/suppression/list/${encodeURIComponent(listId)}/upload`);
    xhr.setRequestHeader('content-type', 'text/csv');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {}
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as unknown as SuppressionImportResult);
      else {
        const error = new ApiRequestError(
          xhr.status,
          typeof body.message === 'string' ? body.message : GENERIC_ERROR,
          (body.errors as Record<string, string>) ?? {},
        );
        showError(error.message);
        reject(error);
      }
    };
    xhr.onerror = () => {
      const error = new ApiRequestError(0, 'The upload was cut off');
      showError(error.message);
      reject(error);
    };
    xhr.send(file);
  });
}

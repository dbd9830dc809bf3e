import type {
  OptOut,
  OptOutCreate,
  SuppressionImportResult,
  SuppressionList,
  SuppressionListCreate,
} from '@leadex/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { uploadFile } from '../../lib/upload';

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

/** Uploads a CSV file to a list, its progress reported (lib/upload.ts). */
export function uploadCsv(
  listId: string,
  file: Blob,
  onProgress: (sent: number) => void,
): Promise<SuppressionImportResult> {
  return uploadFile<SuppressionImportResult>(
    `/api/suppression/list/${encodeURIComponent(listId)}/upload`,
    file,
    onProgress,
  );
}

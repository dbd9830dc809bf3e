import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api';

/** An entity's query keys (queryKeys.ts): its lists share `all`, each record has its `detail`. */
export interface RecordKeys {
  all: readonly unknown[];
  detail: (id: string) => readonly unknown[];
}

/** GET one record by id (null: nothing to load yet, as for a new record). */
export function useRecord<T>(keys: RecordKeys, id: string | null, path: (id: string) => string) {
  return useQuery({
    queryKey: keys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<T>(path(id ?? ''), { signal }),
    enabled: Boolean(id),
    // A 404 stays a 404: asking again only repeats the toast.
    retry: false,
  });
}

/** A save (create or update) that answers the record: cached as its detail, and the entity's lists refresh. */
export function useSaveRecord<TInput, T extends { _id: string }>(
  keys: RecordKeys,
  save: (input: TInput) => Promise<T>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: (record) => {
      queryClient.setQueryData(keys.detail(record._id), record);
      return queryClient.invalidateQueries({ queryKey: keys.all });
    },
  });
}

import { useCallback } from 'react';
import { type NavigateOptions, useNavigate } from 'react-router';

/** Query changes: a value sets its parameter, a list repeats it; empty, null or undefined removes it. */
export type SearchParamChanges = Record<string, string | readonly string[] | null | undefined>;

/** The query `search` with `changes` applied. */
export function withChanges(search: string, changes: SearchParamChanges): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const [key, value] of Object.entries(changes)) {
    if (typeof value === 'string' && value) next.set(key, value);
    else {
      next.delete(key);
      if (Array.isArray(value)) for (const item of value as readonly string[]) if (item) next.append(key, item);
    }
  }
  return next;
}

/**
 * Writes changes into the URL's query, starting from the address bar's query of this moment.
 * react-router's `setSearchParams(current => …)` starts from the query of the last render instead: two
 * writes before the next render (a debounced name search landing just after a service was chosen)
 * each started from the same old query, and the second undid the first. The router's history updates
 * the address bar at once, so each write here sees the one before.
 */
export function useWriteSearchParams(): (changes: SearchParamChanges, options?: NavigateOptions) => void {
  const navigate = useNavigate();
  return useCallback(
    (changes, options) => navigate(`?${withChanges(window.location.search, changes)}`, options),
    [navigate],
  );
}

import { fallbackServiceLabel } from '@leadex/domain';
import { useCallback, useMemo } from 'react';
import { useServiceLabels } from '../features/reference/reference.api';

/**
 * One name per service (issue 27 item 12): every screen shows a service's label ("Bath Remodel"),
 * from the exchange's list (GET /api/services/labels), never its key (`bath_remodel`), which stays
 * what the API, the filters' URLs and the CSV carry. Read once and kept: services rarely change.
 */
export function useServiceLabel(): (name: string) => string {
  const labels = useServiceLabels();
  const byName = useMemo(() => new Map((labels.data ?? []).map((s) => [s.name, s.label])), [labels.data]);
  return useCallback((name: string) => byName.get(name) ?? fallbackServiceLabel(name), [byName]);
}

/** Select options of services: each key as its value, shown by its label. */
export function useServiceOptions(names: readonly string[]): { value: string; label: string }[] {
  const label = useServiceLabel();
  return useMemo(() => names.map((value) => ({ value, label: label(value) })), [names, label]);
}

/** A service as the screens name it. */
export function ServiceName({ name }: { name: string }) {
  return <>{useServiceLabel()(name)}</>;
}

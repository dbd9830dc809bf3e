import type { DailyFigures, Stats } from '@leadex/domain';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

/** GET /api/stats/: this month's figures (they follow the exchange's clock, mock date included). */
export function useStats() {
  return useQuery({
    queryKey: queryKeys.stats,
    queryFn: ({ signal }) => api.get<Stats>('/api/stats/', { signal }),
  });
}

/** GET /api/stats/daily: this month's revenue, cost and profit per day. */
export function useDailyFigures() {
  return useQuery({
    queryKey: [...queryKeys.stats, 'daily'],
    queryFn: ({ signal }) => api.get<DailyFigures[]>('/api/stats/daily', { signal }),
  });
}

/** GET /api/stats/{sources|buyers}: one report's rows over a date range. */
export function useReportRows<T>(report: 'sources' | 'buyers', query: { dateq: string; begin?: string; end?: string }) {
  return useQuery({
    queryKey: [...queryKeys.stats, report, query],
    queryFn: ({ signal }) => api.get<T[]>(`/api/stats/${report}`, { query, signal }),
  });
}

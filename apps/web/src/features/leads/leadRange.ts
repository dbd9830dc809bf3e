import { LEAD_DATE_RANGES, type LeadDateRange } from '@leadex/domain';
import type { ListRequest } from '../../components/DataTable';
import { type QueryValue, searchOf } from '../../lib/api';
import { todayInExchangeZone } from '../../lib/format';

/**
 * The leads lists keep their view in the URL (admin §2, portals §2): `dateq` (today when absent),
 * `dateRangeStart` and `dateRangeEnd` (ISO dates, for Custom), and the filters `name`, `buyer`,
 * `service`, `zip`. The API takes the range in its path and the dates as `begin` and `end`
 * (DESIGN.md §11); these turn one into the other.
 */

/** The URL parameters of a leads list that are filters (the page and the sort aside). */
export const LEAD_URL_FILTERS = [
  'name',
  'buyer',
  'dateq',
  'dateRangeStart',
  'dateRangeEnd',
  'service',
  'zip',
  // Filters on the services' own fields, `key:value`, the parameter repeated for several (issue 33).
  'field',
] as const;

export const DEFAULT_DATE_RANGE: LeadDateRange = 'today';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `dateq` as the list reads it: one of the ranges, today when absent or unknown. */
export function dateRangeOf(value: string | null | undefined): LeadDateRange {
  return (LEAD_DATE_RANGES as readonly string[]).includes(value ?? '') ? (value as LeadDateRange) : DEFAULT_DATE_RANGE;
}

/** An ISO date (YYYY-MM-DD) or undefined. */
export function isoDateOf(value: string | null | undefined): string | undefined {
  return value && ISO_DATE.test(value) ? value : undefined;
}

/** The range part of a leads call: the path's `dateq`, and `begin` and `end` for Custom. */
export interface LeadRange {
  dateq: LeadDateRange;
  begin?: string;
  end?: string;
}

/**
 * The range the URL asks for. Custom with one date reads as that one day; Custom with none (a link
 * edited by hand) as today, so the list never asks the API for a range it must refuse.
 */
export function leadRangeOf(values: {
  dateq?: QueryValue;
  dateRangeStart?: QueryValue;
  dateRangeEnd?: QueryValue;
}): LeadRange {
  const dateq = dateRangeOf(values.dateq == null ? undefined : String(values.dateq));
  if (dateq !== 'range') return { dateq };
  const start = isoDateOf(values.dateRangeStart == null ? undefined : String(values.dateRangeStart));
  const end = isoDateOf(values.dateRangeEnd == null ? undefined : String(values.dateRangeEnd));
  if (!start && !end) return { dateq: DEFAULT_DATE_RANGE };
  const [begin, last] = [start ?? end, end ?? start] as [string, string];
  // A link with the dates the wrong way round still shows the days between them.
  return begin <= last ? { dateq, begin, end: last } : { dateq, begin: last, end: begin };
}

/** GET /api/lead/date/{dateq}: the list call of the URL's filters, page and sort. */
export function leadListRequest({ query }: ListRequest): ListRequest {
  const { dateq, dateRangeStart, dateRangeEnd, ...rest } = query;
  const range = leadRangeOf({ dateq, dateRangeStart, dateRangeEnd });
  return {
    path: `/api/lead/date/${range.dateq}`,
    query: { ...rest, begin: range.begin, end: range.end },
  };
}

/** The query string of `values`, empty ones left out. */
export function queryString(values: Record<string, QueryValue>): string {
  const text = searchOf(values);
  return text ? `?${text}` : '';
}

/**
 * GET /api/lead/date/{dateq}/export.csv with the list's filters and sort: the browser downloads it
 * with the session cookie, streamed by the server (leads_{YYYY-MM-DD}.csv).
 */
export function leadExportUrl(params: URLSearchParams, defaultSort: { column: string; order: string }): string {
  const range = leadRangeOf({
    dateq: params.get('dateq'),
    dateRangeStart: params.get('dateRangeStart'),
    dateRangeEnd: params.get('dateRangeEnd'),
  });
  return `/api/lead/date/${range.dateq}/export.csv${queryString({
    begin: range.begin,
    end: range.end,
    name: params.get('name'),
    buyer: params.get('buyer'),
    service: params.get('service'),
    zip: params.get('zip'),
    field: params.getAll('field'),
    sort: params.get('sort') ?? defaultSort.column,
    order: params.get('order') ?? defaultSort.order,
  })}`;
}

/** Today in the zone the ranges are counted in (the exchange's, DESIGN.md §11), as an ISO date. */
export function todayInLeadsZone(now: Date): string {
  return todayInExchangeZone(now);
}

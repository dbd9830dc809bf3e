import type { Page } from '@leadex/domain';
import { VisuallyHidden } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type DataTableColumn, type DataTableSortStatus, DataTable as MantineDataTable } from 'mantine-datatable';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { api, type QueryValue } from '../lib/api';
import { useWriteSearchParams } from '../lib/searchParams';
import { ServiceName } from './ServiceName';

export type { DataTableColumn };

export type SortOrder = 'asc' | 'desc';

export interface DataTableProps<T> {
  /** The list route; it answers `{ data, total }` and takes page, pageSize, sort and order. */
  path: string;
  /** The entity's query key (`queryKeys.buyers.all`), so its mutations refresh the table. */
  queryKey: readonly unknown[];
  columns: DataTableColumn<T>[];
  /** Rows per page, fixed by the spec per list (PAGE_SIZE). */
  pageSize: number;
  /** URL search params passed on to the API as filters; the page edits them (see useUrlFilter). */
  filterParams?: readonly string[];
  /** The sort before the user picks one; the column must be `sortable` and known to the API. */
  defaultSort?: { column: string; order: SortOrder };
  /** What an empty list says ('No results', 'No bills found'). */
  noRecordsText?: string;
  onRowClick?: (record: T) => void;
  /** The record's key; `_id` by default, as every API record has one. */
  idAccessor?: string;
  /** Keeps the last column (a status) in view while a narrow screen scrolls the table sideways. */
  pinLastColumn?: boolean;
  /** Tighter cell padding, for a table with many columns that must fit a laptop (the leads list). */
  compact?: boolean;
  /**
   * Turns the URL's filters, page and sort into the call, for a list whose filters are not all query
   * parameters of `path` (the leads lists put their date range in the path).
   */
  request?: (call: ListRequest) => ListRequest;
  /** Told each page the API answers (undefined while the first loads): a screen's buttons may need it. */
  onPage?: (page: Page<T> | undefined) => void;
  /** Rows chosen with a checkbox each (the page's own; a screen acts on several at once). */
  selection?: {
    selected: T[];
    onChange: (records: T[]) => void;
    /** The checkbox's name for a row, read by screen readers ("Select the message of 11/27 3:31 AM"). */
    label: (record: T) => string;
  };
}

/** A list call: its path and its query parameters. */
export interface ListRequest {
  path: string;
  query: Record<string, QueryValue>;
}

/** A page whose `total` was counted up to a limit: `more` says there are more rows than that. */
type CountedPage<T> = Page<T> & { more?: boolean };

/** An accessor as words: `actions` reads "Actions", `copyLink` "Copy link". */
const humanize = (accessor: string) => {
  const words = accessor
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_.]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * The columns as the tables show them (every list and record table goes through here):
 * - a column of buttons drawn without a title (a row's actions) keeps a name for screen readers
 *   (axe-core's empty-table-header), hidden from sight (issue 27 item 24);
 * - a `service` column drawn as it comes shows the service's label, not its key (issue 27 item 12).
 */
export function namedColumns<T>(columns: DataTableColumn<T>[]): DataTableColumn<T>[] {
  return columns.map((column) => {
    let named = column;
    if (column.title === '')
      named = { ...named, title: <VisuallyHidden>{humanize(String(column.accessor))}</VisuallyHidden> };
    if (column.accessor === 'service' && !column.render)
      named = {
        ...named,
        render: (record) => <ServiceName name={String((record as { service?: unknown }).service ?? '')} />,
      };
    return named;
  });
}

/** Phones: narrower than Mantine's xs breakpoint (36em). */
export const NARROW = '(max-width: 36em)';
/** A column shown only wider than a phone (`visibleMediaQuery`). */
export const NOT_ON_PHONES = '(min-width: 36em)';

/**
 * A server-side paged list (DESIGN.md §4: lists never load whole). Page, sort and the filters live in
 * the URL, so a reload, the back button or a shared link shows the same rows.
 */
export function DataTable<T>({
  path,
  queryKey,
  columns,
  pageSize,
  filterParams = [],
  defaultSort,
  noRecordsText = 'No results',
  onRowClick,
  idAccessor = '_id',
  pinLastColumn = false,
  compact = false,
  request,
  onPage,
  selection,
}: DataTableProps<T>) {
  const [params] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const sort = params.get('sort') ?? defaultSort?.column;
  const order = (params.get('order') as SortOrder | null) ?? defaultSort?.order;
  // A parameter the URL repeats (the leads list's `field`) goes to the API repeated.
  const filters = Object.fromEntries(
    filterParams.map((name) => {
      const values = params.getAll(name);
      return [name, values.length > 1 ? values : values[0]];
    }),
  );
  const call = (request ?? ((same: ListRequest) => same))({
    path,
    query: { ...filters, page, pageSize, sort, order },
  });

  const result = useQuery({
    queryKey: [...queryKey, 'list', call.path, call.query],
    queryFn: ({ signal }) => api.get<CountedPage<T>>(call.path, { query: call.query, signal }),
    // Keep the current rows on screen while the next page or filter loads.
    placeholderData: keepPreviousData,
  });
  const records = result.data?.data ?? [];
  const more = result.data?.more === true;
  useEffect(() => {
    onPage?.(result.data);
  }, [onPage, result.data]);
  // A phone gives the columns the room the cell padding would take.
  const narrow = useMediaQuery(NARROW) ?? false;

  const update = useWriteSearchParams();

  // With no sort yet, no column is marked; the API's own order applies.
  const sortStatus: DataTableSortStatus<T> = {
    columnAccessor: sort ?? '',
    direction: order === 'desc' ? 'desc' : 'asc',
  };

  return (
    <MantineDataTable<T>
      records={records}
      columns={namedColumns(columns)}
      idAccessor={idAccessor as keyof T}
      totalRecords={result.data?.total ?? 0}
      recordsPerPage={pageSize}
      page={page}
      onPageChange={(next) => update({ page: next === 1 ? undefined : String(next) })}
      sortStatus={sortStatus}
      onSortStatusChange={(status) =>
        update({ sort: String(status.columnAccessor), order: status.direction, page: undefined })
      }
      fetching={result.isFetching}
      noRecordsText={result.isPending ? 'Loading...' : noRecordsText}
      loadingText="Loading..."
      minHeight={records.length ? undefined : 200}
      onRowClick={onRowClick ? ({ record }) => onRowClick(record) : undefined}
      pinLastColumn={pinLastColumn}
      {...(selection
        ? {
            selectedRecords: selection.selected,
            onSelectedRecordsChange: selection.onChange,
            allRecordsSelectionCheckboxProps: { 'aria-label': 'Select every row of the page' },
            selectionCheckboxProps: {},
            getRecordSelectionCheckboxProps: (record: T) => ({ 'aria-label': selection.label(record) }),
          }
        : {})}
      highlightOnHover
      verticalSpacing="sm"
      horizontalSpacing={narrow || compact ? 'xs' : 'md'}
      fz="sm"
      borderRadius="md"
      withTableBorder
      paginationText={({ from, to, totalRecords }) =>
        // DESIGN.md §11: a count that stopped at its limit reads "10,000+".
        `${from}–${to} of ${more ? `${totalRecords.toLocaleString('en-US')}+` : totalRecords}`
      }
    />
  );
}

/**
 * A list filter kept in the URL search param `name`. The input updates at once; the URL (and so the
 * query) follows after `debounceMs`, and going back to page 1, since the old page may no longer exist.
 */
export function useUrlFilter(name: string, debounceMs = 0): [string, (value: string) => void] {
  const [params] = useSearchParams();
  const write = useWriteSearchParams();
  const { pathname } = useLocation();
  const fromUrl = params.get(name) ?? '';
  const [value, setValue] = useState(fromUrl);
  const [debounced] = useDebouncedValue(value, debounceMs);
  // What this hook last wrote, to tell our own URL updates from back/forward navigation.
  const written = useRef(fromUrl);

  useEffect(() => {
    if (debounced === written.current) return;
    // A row clicked before the debounce ends opens a screen whose code loads on demand, and this page
    // stays on screen meanwhile: a write now would take the user back to the list. Drop it.
    if (window.location.pathname !== pathname) return;
    written.current = debounced;
    write({ [name]: debounced, page: null }, { replace: true });
  }, [debounced, name, write, pathname]);

  useEffect(() => {
    if (fromUrl === written.current) return;
    written.current = fromUrl;
    setValue(fromUrl);
  }, [fromUrl]);

  return [value, setValue];
}

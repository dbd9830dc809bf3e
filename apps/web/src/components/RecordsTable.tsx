import { type DataTableColumn, DataTable as MantineDataTable } from 'mantine-datatable';
import { namedColumns } from './DataTable';

export interface RecordsTableProps<T> {
  /** The rows, already loaded with their record; undefined while they load. */
  records: readonly T[] | undefined;
  columns: DataTableColumn<T>[];
  /** What an empty list says ('No results', 'No bills found'). */
  noRecordsText?: string;
  /** Opens a row's record; rows light up under the pointer only when they open something. */
  onRowClick?: (record: T) => void;
  /** A fixed height that scrolls (a long list inside a record's screen). */
  height?: number;
}

/**
 * A short list inside a record's screen (a buyer's campaigns, bills and users; a source's keys and
 * leads): the rows come with the record, so unlike DataTable there is no paging or sorting.
 */
export function RecordsTable<T>({
  records,
  columns,
  noRecordsText = 'No results',
  onRowClick,
  height,
}: RecordsTableProps<T>) {
  return (
    <MantineDataTable<T>
      records={records ? [...records] : []}
      idAccessor={'_id' as keyof T}
      columns={namedColumns(columns)}
      withTableBorder
      borderRadius="md"
      verticalSpacing="sm"
      fz="sm"
      highlightOnHover={Boolean(onRowClick)}
      height={height}
      minHeight={records?.length ? undefined : 150}
      noRecordsText={records ? noRecordsText : 'Loading...'}
      onRowClick={onRowClick ? ({ record }) => onRowClick(record) : undefined}
    />
  );
}

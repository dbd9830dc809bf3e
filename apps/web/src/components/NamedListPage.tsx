import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { formatPhone } from '../lib/format';
import { DataTable, type DataTableColumn } from './DataTable';
import { ListPage, UrlSearchInput } from './ListPage';

/** The name column of a list of companies (buyers, sources): bold, sortable, never wrapped. */
export function nameColumn<T extends { name: string }>(title: string): DataTableColumn<T> {
  return {
    accessor: 'name',
    title,
    sortable: true,
    noWrap: true,
    render: (record) => (
      <Text fz="sm" fw={600}>
        {record.name}
      </Text>
    ),
  };
}

/** A phone column, formatted as people read a US number. */
export function phoneColumn<T extends { phone: string }>(): DataTableColumn<T> {
  return { accessor: 'phone', title: 'Phone', noWrap: true, render: (record) => formatPhone(record.phone) };
}

export interface NamedListPageProps<T> {
  title: string;
  description: ReactNode;
  create: { label: string; to: string };
  /** The list route, e.g. `/api/buyer`; a row opens `${detailPath}/{id}`. */
  path: string;
  detailPath: string;
  queryKey: readonly unknown[];
  columns: DataTableColumn<T>[];
  pageSize: number;
}

/** A list searched by name (URL param `name`), sorted by name, a row opening its record: buyers, sources. */
export function NamedListPage<T extends { _id: string }>({
  title,
  description,
  create,
  path,
  detailPath,
  queryKey,
  columns,
  pageSize,
}: NamedListPageProps<T>) {
  const navigate = useNavigate();
  return (
    <ListPage
      title={title}
      description={description}
      create={create}
      filters={<UrlSearchInput param="name" label="Search by name" maw={360} />}
    >
      <DataTable<T>
        path={path}
        queryKey={queryKey}
        columns={columns}
        pageSize={pageSize}
        filterParams={['name']}
        defaultSort={{ column: 'name', order: 'asc' }}
        onRowClick={(record) => navigate(`${detailPath}/${record._id}`)}
      />
    </ListPage>
  );
}

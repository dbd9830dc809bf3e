import { PAGE_SIZE, type SourceListItem } from '@leadex/domain';
import { Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { ListPage, UrlSearchInput } from '../../components/ListPage';
import { formatPhone } from '../../lib/format';
import { queryKeys } from '../../lib/queryKeys';
import { SourceStatusBadge } from './SourceBadges';

/** Admin spec §2, Sources list: name, email, phone, status; search by name, 25 a page. */
const columns: DataTableColumn<SourceListItem>[] = [
  {
    accessor: 'name',
    title: 'Name',
    sortable: true,
    noWrap: true,
    render: (source) => (
      <Text fz="sm" fw={600}>
        {source.name}
      </Text>
    ),
  },
  { accessor: 'email', title: 'Email' },
  { accessor: 'phone', title: 'Phone', noWrap: true, render: (source) => formatPhone(source.phone) },
  {
    accessor: 'status',
    title: 'Status',
    render: (source) => <SourceStatusBadge status={source.status} />,
  },
];

export function SourcesListPage() {
  const navigate = useNavigate();
  return (
    <ListPage
      title="Sources"
      description="Lead suppliers that ping and post leads to the exchange."
      create={{ label: 'Create New Source', to: '/source/new' }}
      filters={<UrlSearchInput param="name" label="Search by name" maw={360} />}
    >
      <DataTable<SourceListItem>
        path="/api/source"
        queryKey={queryKeys.sources.all}
        columns={columns}
        pageSize={PAGE_SIZE.sources}
        filterParams={['name']}
        defaultSort={{ column: 'name', order: 'asc' }}
        onRowClick={(source) => navigate(`/source/${source._id}`)}
      />
    </ListPage>
  );
}

import { PAGE_SIZE, type SourceListItem } from '@leadex/domain';
import { Group } from '@mantine/core';
import type { DataTableColumn } from '../../components/DataTable';
import { NamedListPage, nameColumn, phoneColumn } from '../../components/NamedListPage';
import { queryKeys } from '../../lib/queryKeys';
import { AwaitingApprovalBadge, NoPayoutBadge, SourceStatusBadge } from './SourceBadges';

/** Admin spec §2, Sources list: name, email, phone, status; search by name, 25 a page. */
const columns: DataTableColumn<SourceListItem>[] = [
  nameColumn('Name'),
  { accessor: 'email', title: 'Email' },
  phoneColumn(),
  {
    accessor: 'status',
    title: 'Status',
    render: (source) => (
      <Group gap={6} wrap="nowrap">
        <SourceStatusBadge status={source.status} />
        {!source.approved && <AwaitingApprovalBadge />}
        {source.approved && source.needs_payout && <NoPayoutBadge />}
      </Group>
    ),
  },
];

export function SourcesListPage() {
  return (
    <NamedListPage<SourceListItem>
      title="Sources"
      description="Lead suppliers that ping and post leads to the exchange."
      create={{ label: 'Create New Source', to: '/source/new' }}
      path="/api/source"
      detailPath="/source"
      queryKey={queryKeys.sources.all}
      columns={columns}
      pageSize={PAGE_SIZE.sources}
    />
  );
}

import { PAGE_SIZE, type SourceListItem } from '@leadex/domain';
import { Button, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { DataTable, type DataTableColumn, useUrlFilter } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
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
  const [name, setName] = useUrlFilter('name', 200);

  return (
    <>
      <PageHeader
        title="Sources"
        description="Lead suppliers that ping and post leads to the exchange."
        actions={
          <Button component={Link} to="/source/new" leftSection={<IconPlus size={18} />}>
            Create New Source
          </Button>
        }
      />
      <Paper withBorder p="md" shadow="xs">
        <Stack gap="md">
          <TextInput
            placeholder="Search by name"
            aria-label="Search by name"
            leftSection={<IconSearch size={16} />}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            maw={360}
          />
          <DataTable<SourceListItem>
            path="/api/source"
            queryKey={queryKeys.sources.all}
            columns={columns}
            pageSize={PAGE_SIZE.sources}
            filterParams={['name']}
            defaultSort={{ column: 'name', order: 'asc' }}
            noRecordsText="No results"
            onRowClick={(source) => navigate(`/source/${source._id}`)}
          />
        </Stack>
      </Paper>
    </>
  );
}

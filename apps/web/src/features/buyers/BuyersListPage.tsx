import { type BuyerListItem, PAGE_SIZE } from '@leadex/domain';
import { Button, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { DataTable, type DataTableColumn, useUrlFilter } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { formatPhone } from '../../lib/format';
import { queryKeys } from '../../lib/queryKeys';

/** Admin spec §2, Buyers list: search by name, page size 15, Buyer, User, email, phone, state, zip. */
const columns: DataTableColumn<BuyerListItem>[] = [
  {
    accessor: 'name',
    title: 'Buyer',
    sortable: true,
    noWrap: true,
    render: (buyer) => (
      <Text fz="sm" fw={600}>
        {buyer.name}
      </Text>
    ),
  },
  { accessor: 'username', title: 'User' },
  { accessor: 'email', title: 'Email' },
  { accessor: 'phone', title: 'Phone', noWrap: true, render: (buyer) => formatPhone(buyer.phone) },
  { accessor: 'state', title: 'State' },
  { accessor: 'zip', title: 'Zip' },
];

export function BuyersListPage() {
  const navigate = useNavigate();
  const [name, setName] = useUrlFilter('name', 200);

  return (
    <>
      <PageHeader
        title="Buyers"
        description="Companies that buy leads through their campaigns."
        actions={
          <Button component={Link} to="/buyer/new" leftSection={<IconPlus size={18} />}>
            Create New Buyer
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
          <DataTable<BuyerListItem>
            path="/api/buyer"
            queryKey={queryKeys.buyers.all}
            columns={columns}
            pageSize={PAGE_SIZE.buyers}
            filterParams={['name']}
            defaultSort={{ column: 'name', order: 'asc' }}
            noRecordsText="No results"
            onRowClick={(buyer) => navigate(`/buyer/${buyer._id}`)}
          />
        </Stack>
      </Paper>
    </>
  );
}

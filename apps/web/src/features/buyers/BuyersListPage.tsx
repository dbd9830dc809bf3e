import { type BuyerListItem, PAGE_SIZE } from '@leadex/domain';
import { Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { ListPage, UrlSearchInput } from '../../components/ListPage';
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
  return (
    <ListPage
      title="Buyers"
      description="Companies that buy leads through their campaigns."
      create={{ label: 'Create New Buyer', to: '/buyer/new' }}
      filters={<UrlSearchInput param="name" label="Search by name" maw={360} />}
    >
      <DataTable<BuyerListItem>
        path="/api/buyer"
        queryKey={queryKeys.buyers.all}
        columns={columns}
        pageSize={PAGE_SIZE.buyers}
        filterParams={['name']}
        defaultSort={{ column: 'name', order: 'asc' }}
        onRowClick={(buyer) => navigate(`/buyer/${buyer._id}`)}
      />
    </ListPage>
  );
}

import { type BuyerListItem, PAGE_SIZE } from '@leadex/domain';
import type { DataTableColumn } from '../../components/DataTable';
import { NamedListPage, nameColumn, phoneColumn } from '../../components/NamedListPage';
import { queryKeys } from '../../lib/queryKeys';

/** Admin spec §2, Buyers list: search by name, page size 15, Buyer, User, email, phone, state, zip. */
const columns: DataTableColumn<BuyerListItem>[] = [
  nameColumn('Buyer'),
  { accessor: 'username', title: 'User' },
  { accessor: 'email', title: 'Email' },
  phoneColumn(),
  { accessor: 'state', title: 'State' },
  { accessor: 'zip', title: 'Zip' },
];

export function BuyersListPage() {
  return (
    <NamedListPage<BuyerListItem>
      title="Buyers"
      description="Companies that buy leads through their campaigns."
      create={{ label: 'Create New Buyer', to: '/buyer/new' }}
      path="/api/buyer"
      detailPath="/buyer"
      queryKey={queryKeys.buyers.all}
      columns={columns}
      pageSize={PAGE_SIZE.buyers}
    />
  );
}

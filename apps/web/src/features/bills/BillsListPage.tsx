import { type BillSummary, PAGE_SIZE } from '@leadex/domain';
import { Group } from '@mantine/core';
import { IconFileInvoice } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { ListPage, UrlSearchInput } from '../../components/ListPage';
import { queryKeys } from '../../lib/queryKeys';
import { useClaims } from '../../lib/session';
import { BuyerBillsTable } from '../buyers/BuyerTables';
import { useBuyerBills } from '../buyers/buyers.api';
import { billDateColumn, billTotalColumn, InvoiceLink } from './billColumns';

const columns: DataTableColumn<BillSummary>[] = [
  billDateColumn,
  { accessor: 'buyer_name', title: 'Buyer' },
  { accessor: 'stripe.invoice_number', title: 'Invoice', render: (bill) => <InvoiceLink bill={bill} /> },
  billTotalColumn,
];

/** /bills: the admin's Bills list (admin §2), or a buyer's own bills. */
export function BillsListPage() {
  const { role, role_id } = useClaims();
  return role === 'admin' ? <AdminBillsList /> : <BuyerBillsList buyerId={role_id ?? ''} />;
}

/** Admin §2 Bills list: filters on buyer name and invoice number, accruing bills first, 25 a page. */
function AdminBillsList() {
  const navigate = useNavigate();
  return (
    <ListPage
      title="Bills"
      description="Every buyer's bills. The accruing bill collects the current period's sales; the billing run closes each bill after its grace days."
      padding={{ base: 'xs', xs: 'md' }}
      filters={
        <Group gap="sm" grow preventGrowOverflow={false} wrap="wrap">
          <UrlSearchInput param="buyer" label="Search by buyer" />
          <UrlSearchInput
            param="invoice"
            label="Search by invoice number"
            leftSection={<IconFileInvoice size={16} />}
          />
        </Group>
      }
    >
      <DataTable<BillSummary>
        path="/api/bill/date/all"
        queryKey={queryKeys.bills.all}
        columns={columns}
        pageSize={PAGE_SIZE.bills}
        filterParams={['buyer', 'invoice']}
        noRecordsText="No bills found"
        onRowClick={(bill) => navigate(`/bill/${bill._id}`)}
      />
    </ListPage>
  );
}

/** The buyer's own bills, the accruing one first (read-only). */
function BuyerBillsList({ buyerId }: { buyerId: string }) {
  const bills = useBuyerBills(buyerId);
  return (
    <ListPage
      title="Bills"
      description="Your bills. The next bill collects this period's leads; returns approved before it closes credit it."
      padding={{ base: 'xs', xs: 'md' }}
    >
      <BuyerBillsTable buyerId={buyerId} bills={bills.data} />
    </ListPage>
  );
}

import { PAGE_SIZE, type ReturnListItem } from '@leadex/domain';
import { Box, Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { ListPage, UrlSelectFilter } from '../../components/ListPage';
import { formatMoney, formatTimestamp } from '../../lib/format';
import { queryKeys } from '../../lib/queryKeys';
import { ReturnStatusBadge } from '../leads/LeadBadges';
import { DecideReturnButtons } from './ReturnActions';

const STATUS_OPTIONS = [
  { value: 'requested', label: 'Waiting for a decision' },
  { value: 'approved', label: 'Returned' },
  { value: 'denied', label: 'Return Denied' },
];

const columns: DataTableColumn<ReturnListItem>[] = [
  {
    // Date and time may wrap, so the Status column fits a laptop's width beside the actions (issue 27).
    accessor: 'requested_ts',
    title: 'Requested',
    render: (r) => formatTimestamp(r.requested_ts ?? r.decided_ts),
  },
  { accessor: 'lead_name', title: 'Lead', render: (r) => r.lead_name ?? 'Lead' },
  { accessor: 'buyer', title: 'Buyer', render: (r) => r.buyer.name },
  { accessor: 'service', title: 'Service' },
  { accessor: 'price', title: 'Price', textAlign: 'right', render: (r) => formatMoney(r.price) },
  { accessor: 'reason', title: 'Reason' },
  {
    accessor: 'comment',
    title: 'Comment',
    render: (r) => (
      <Text fz="sm" lineClamp={2} maw={160}>
        {r.comment}
      </Text>
    ),
  },
  { accessor: 'status', title: 'Status', render: (r) => <ReturnStatusBadge status={r.status} viewer="admin" /> },
  {
    accessor: 'actions',
    title: '',
    render: (r) =>
      r.status === 'requested' ? (
        // The buttons act on the return; a click elsewhere on the row opens the lead.
        <Box onClick={(event) => event.stopPropagation()}>
          <DecideReturnButtons leadId={r.lead_id} matchId={r._id} requested buyerName={r.buyer.name} stacked />
        </Box>
      ) : null,
  },
];

/** Admin §2 Returns: the return requests, waiting ones first, with Approve and Deny; 15 a page. */
export function ReturnsListPage() {
  const navigate = useNavigate();
  return (
    <ListPage
      title="Returns"
      description="Leads buyers asked to return. An approved return credits the buyer's bill with the lead's price."
      padding={{ base: 'xs', xs: 'md' }}
      filters={<UrlSelectFilter param="status" label="Filter by status" data={STATUS_OPTIONS} />}
    >
      <DataTable<ReturnListItem>
        path="/api/lead/returns"
        queryKey={queryKeys.returns.all}
        columns={columns}
        pageSize={PAGE_SIZE.returns}
        filterParams={['status']}
        noRecordsText="No return requests"
        pinLastColumn
        compact
        onRowClick={(r) => navigate(`/lead/${r.lead_id}`)}
      />
    </ListPage>
  );
}

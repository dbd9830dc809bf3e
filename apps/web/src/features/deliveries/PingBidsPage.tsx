import { BID_OUTCOME_LABELS, BID_OUTCOMES, PING_BIDS_PAGE_SIZE, type PingBid } from '@leadex/domain';
import { Badge, Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { ListPage, UrlSelectFilter } from '../../components/ListPage';
import { formatMoney, formatTimestamp } from '../../lib/format';
import { queryKeys } from '../../lib/queryKeys';
import { BID_OUTCOME_COLORS } from '../leads/leadFormat';

const OUTCOME_OPTIONS = BID_OUTCOMES.filter((o) => o !== 'refused_post').map((value) => ({
  value,
  label: BID_OUTCOME_LABELS[value],
}));

const columns: DataTableColumn<PingBid>[] = [
  { accessor: 'ts', title: 'Time', render: (r) => formatTimestamp(r.ts) },
  { accessor: 'buyer', title: 'Buyer', render: (r) => r.buyer.name ?? r.buyer._id },
  { accessor: 'delivery', title: 'Delivery', render: (r) => r.delivery.name ?? r.delivery._id },
  { accessor: 'source', title: 'Source', render: (r) => r.source?.name ?? '' },
  { accessor: 'service', title: 'Service', render: (r) => r.service ?? '' },
  { accessor: 'zip', title: 'Zip', render: (r) => r.zip ?? '' },
  {
    accessor: 'outcome',
    title: 'Answer',
    noWrap: true,
    render: (r) => (
      <Badge
        component="span"
        variant="light"
        color={BID_OUTCOME_COLORS[r.outcome]}
        // Whole, never "No …": the column grows to the badge instead of cutting it (as the return badges).
        styles={{ root: { flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible' } }}
      >
        {BID_OUTCOME_LABELS[r.outcome]}
      </Badge>
    ),
  },
  { accessor: 'bid', title: 'Bid', textAlign: 'right', render: (r) => (r.bid === undefined ? '' : formatMoney(r.bid)) },
  {
    accessor: 'reason',
    title: 'Reason',
    render: (r) => (
      // Two lines on the table; the whole reason on hover.
      <Text fz="sm" lineClamp={2} maw={280} title={r.reason}>
        {r.reason ?? ''}
      </Text>
    ),
  },
];

/**
 * /pings (admins, issue 32): what the Ping/Post buyers' systems answered to sources' pings that never
 * became leads, their bids and reasons, newest first, 25 a page. A ping that became a lead shows them
 * on the lead's detail.
 */
export function PingBidsPage() {
  const navigate = useNavigate();
  return (
    <ListPage
      title="Pings Not Posted"
      description="The bids and reasons of Ping/Post buyers on pings that never became leads. The answers to a ping that became a lead are on the lead."
      filters={<UrlSelectFilter param="outcome" label="Filter by answer" data={OUTCOME_OPTIONS} />}
    >
      <DataTable<PingBid>
        path="/api/pingbids"
        queryKey={queryKeys.pingBids.all}
        columns={columns}
        pageSize={PING_BIDS_PAGE_SIZE}
        filterParams={['outcome', 'buyer']}
        noRecordsText="No pings without a lead"
        onRowClick={(r) => navigate(`/delivery/${r.delivery._id}`)}
      />
    </ListPage>
  );
}

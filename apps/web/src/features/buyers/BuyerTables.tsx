import { type BillSummary, type BuyerCampaign, type BuyerLead, NEXT_BILL_ID } from '@leadex/domain';
import { Badge, Group, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { useNavigate } from 'react-router';
import { RecordsTable } from '../../components/RecordsTable';
import { ServiceName } from '../../components/ServiceName';
import { StatusBadge } from '../../components/StatusBadge';
import { formatMoney, formatTimestamp } from '../../lib/format';
import { billDateColumn, billPeriodText, billReturnsColumn, billTotalColumn } from '../bills/billColumns';
import { DeliveryFailureLine } from '../campaigns/DeliveryFailure';
import { locationSummary } from './buyerFormat';

/** Campaigns (admin §2, Buyer detail): services, zips, price, exclusive, status; a row opens the campaign. */
export function BuyerCampaignsTable({ campaigns }: { campaigns: BuyerCampaign[] | undefined }) {
  const navigate = useNavigate();
  const columns: DataTableColumn<BuyerCampaign>[] = [
    {
      accessor: 'name',
      title: 'Name',
      render: (c) => (
        <div>
          <Text fz="sm" fw={600}>
            {c.name}
          </Text>
          <DeliveryFailureLine failure={c.delivery_failure} />
        </div>
      ),
    },
    {
      accessor: 'services',
      title: 'Services',
      render: (c) => (
        <Group gap={4}>
          {c.services.map((service) => (
            <Badge key={service} variant="light" color="blue" tt="none">
              <ServiceName name={service} />
            </Badge>
          ))}
        </Group>
      ),
    },
    { accessor: 'zips', title: 'Zips', render: locationSummary },
    { accessor: 'price', title: 'Price', textAlign: 'right', render: (c) => formatMoney(c.price) },
    {
      accessor: 'exclusive',
      title: 'Exclusive',
      render: (c) => (c.exclusive === 1 ? 'Yes' : `No (shared ${formatMoney(c.shared_price)})`),
    },
    { accessor: 'status', title: 'Status', render: (c) => <StatusBadge status={c.status} /> },
  ];
  return (
    <RecordsTable<BuyerCampaign>
      records={campaigns}
      columns={columns}
      onRowClick={(campaign) => navigate(`/campaign/${campaign._id}`)}
    />
  );
}

/**
 * Bills (admin §2, Buyer detail): a row opens the bill; the accruing bill opens
 * /bill/next/buyer/{buyerId}. Empty text 'No bills found'.
 */
export function BuyerBillsTable({ buyerId, bills }: { buyerId: string; bills: BillSummary[] | undefined }) {
  const navigate = useNavigate();
  const columns: DataTableColumn<BillSummary>[] = [
    billDateColumn,
    { accessor: 'start', title: 'Billing Period', render: billPeriodText },
    { accessor: 'total.charges', title: 'Charges', textAlign: 'right', render: (b) => formatMoney(b.total.charges) },
    billReturnsColumn,
    billTotalColumn,
  ];
  return (
    <RecordsTable<BillSummary>
      records={bills}
      columns={columns}
      noRecordsText="No bills found"
      onRowClick={(bill) => navigate(bill.accruing ? `/bill/${NEXT_BILL_ID}/buyer/${buyerId}` : `/bill/${bill._id}`)}
    />
  );
}

/** The latest leads sold to the buyer, newest first; a row opens the lead. */
export function BuyerLeadsTable({ leads }: { leads: BuyerLead[] | undefined }) {
  const navigate = useNavigate();
  const columns: DataTableColumn<BuyerLead>[] = [
    { accessor: 'ts', title: 'Date', noWrap: true, render: (lead) => formatTimestamp(lead.ts) },
    { accessor: 'name', title: 'Name' },
    { accessor: 'service', title: 'Service' },
    { accessor: 'zip', title: 'Zip' },
    { accessor: 'price', title: 'Price', textAlign: 'right', render: (lead) => formatMoney(lead.price) },
  ];
  return (
    <RecordsTable<BuyerLead>
      records={leads}
      columns={columns}
      height={leads && leads.length > 8 ? 420 : undefined}
      onRowClick={(lead) => navigate(`/lead/${lead._id}`)}
    />
  );
}

import { type CampaignListItem, PAGE_SIZE } from '@leadex/domain';
import { Badge, Group, Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { DataTable, type DataTableColumn, NOT_ON_PHONES } from '../../components/DataTable';
import { ListPage, UrlSearchInput, UrlServiceFilter } from '../../components/ListPage';
import { ServiceName, useServiceOptions } from '../../components/ServiceName';
import { StatusBadge } from '../../components/StatusBadge';
import { queryKeys } from '../../lib/queryKeys';
import { useClaims } from '../../lib/session';
import { useCampaignServices } from './campaigns.api';
import { DeliveryFailureLine } from './DeliveryFailure';

const money = (dollars: number) =>
  dollars.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 });

const NONE: string[] = [];

function ServiceBadges({ services }: { services: string[] }) {
  if (services.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        N/A
      </Text>
    );
  return (
    <Group gap={4}>
      {services.map((service) => (
        // As wide as its name: a narrow screen scrolls the table rather than cut the badge.
        <Badge key={service} variant="light" color="blue" radius="sm" tt="none" miw="max-content">
          <ServiceName name={service} />
        </Badge>
      ))}
    </Group>
  );
}

/** The Name cell; `withBuyer`: on a phone, where the Buyer column is hidden, the buyer under the name. */
const nameColumn = (withBuyer: boolean): DataTableColumn<CampaignListItem> => ({
  accessor: 'name',
  title: 'Name',
  sortable: true,
  render: (c) => (
    <div style={{ minWidth: 120 }}>
      <Text fz="sm" fw={600}>
        {c.name}
      </Text>
      {withBuyer && (
        <Text fz="xs" hiddenFrom="xs">
          {c.buyer_name}
        </Text>
      )}
      <Text fz="xs" c="dimmed">
        {c.fixed_id}
      </Text>
      <DeliveryFailureLine failure={c.delivery_failure} />
    </div>
  ),
});
const servicesColumn: DataTableColumn<CampaignListItem> = {
  accessor: 'services',
  title: 'Services',
  render: (c) => <ServiceBadges services={c.services} />,
};
const statusColumn: DataTableColumn<CampaignListItem> = {
  accessor: 'status',
  title: 'Status',
  sortable: true,
  noWrap: true,
  render: (c) => <StatusBadge status={c.status} />,
};
const priceColumn: DataTableColumn<CampaignListItem> = {
  accessor: 'price',
  title: 'Price',
  sortable: true,
  textAlign: 'right',
  width: 110,
  // Not a spec column: a phone keeps its width for the services and the status.
  visibleMediaQuery: NOT_ON_PHONES,
  render: (c) => money(c.price),
};

/**
 * Admin §2 Campaigns list: search by buyer name, filter by service; Name, Buyer, Services, Status. On a
 * phone the buyer moves under the name, and Status stays pinned in view while the table scrolls.
 */
const ADMIN_COLUMNS: DataTableColumn<CampaignListItem>[] = [
  nameColumn(true),
  { accessor: 'buyer_name', title: 'Buyer', sortable: true, visibleMediaQuery: NOT_ON_PHONES },
  servicesColumn,
  statusColumn,
];

/** Portals §2 Buyer campaigns list: services as badges and a status badge (its own campaigns only). */
const BUYER_COLUMNS: DataTableColumn<CampaignListItem>[] = [
  nameColumn(false),
  servicesColumn,
  priceColumn,
  statusColumn,
];

/** /campaigns for the admin (every buyer's) and the buyer (its own), page size 25. */
export function CampaignsListPage() {
  const { role } = useClaims();
  const isAdmin = role === 'admin';
  const navigate = useNavigate();
  const services = useCampaignServices();
  const options = useServiceOptions(services.data ?? NONE);

  return (
    <ListPage
      title="Campaigns"
      description={
        isAdmin
          ? 'What each buyer buys: services, locations, limits, prices and hours.'
          : 'The services, places and hours you buy leads for.'
      }
      create={{ label: 'Create New Campaign', to: '/campaign/new' }}
      padding={{ base: 'xs', xs: 'md' }}
      filters={
        <Group gap="sm" wrap="wrap">
          {isAdmin && <UrlSearchInput param="buyer_name" label="Search by buyer name" w={320} />}
          <UrlServiceFilter data={options} w={240} />
        </Group>
      }
    >
      <DataTable<CampaignListItem>
        path="/api/match"
        queryKey={queryKeys.campaigns.all}
        columns={isAdmin ? ADMIN_COLUMNS : BUYER_COLUMNS}
        pageSize={PAGE_SIZE.campaigns}
        filterParams={['buyer_name', 'service']}
        defaultSort={{ column: 'name', order: 'asc' }}
        onRowClick={(campaign) => navigate(`/campaign/${campaign._id}`)}
        pinLastColumn
      />
    </ListPage>
  );
}

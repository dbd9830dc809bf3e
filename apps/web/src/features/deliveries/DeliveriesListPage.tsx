import { PAGE_SIZE, type WebhookListItem } from '@leadex/domain';
import { Anchor, Button, Group, Text } from '@mantine/core';
import { IconCopy, IconTag } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { ListPage, UrlSearchInput, UrlSelectFilter } from '../../components/ListPage';
import { StatusBadge } from '../../components/StatusBadge';
import { TAG_OPTION_LIMIT } from '../../components/TagsField';
import { queryKeys } from '../../lib/queryKeys';
import { useClaims } from '../../lib/session';
import { useDeliveryTags } from './deliveries.api';

/** Spec §8: an empty tag list shows N/A; otherwise the tags comma-joined (portals §2). */
export function tagsText(tags: readonly string[]): string {
  return tags.length ? tags.join(', ') : 'N/A';
}

function columns(onCopy: (delivery: WebhookListItem) => void): DataTableColumn<WebhookListItem>[] {
  return [
    {
      accessor: 'name',
      title: 'Name',
      sortable: true,
      render: (d) => (
        <div>
          <Text fz="sm" fw={600}>
            {d.name}
          </Text>
          <Text fz="xs" c="dimmed" lineClamp={1} maw={420}>
            {d.method} {d.url}
          </Text>
        </div>
      ),
    },
    { accessor: 'buyer_name', title: 'Buyer', sortable: true },
    {
      accessor: 'tags',
      title: 'Tags',
      render: (d) => (
        <Text fz="sm" c={d.tags.length ? undefined : 'dimmed'}>
          {tagsText(d.tags)}
        </Text>
      ),
    },
    {
      accessor: 'status',
      title: 'Status',
      sortable: true,
      width: 110,
      render: (d) => <StatusBadge status={d.status} />,
    },
    {
      accessor: 'copy',
      title: '',
      width: 100,
      textAlign: 'right',
      render: (d) => (
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconCopy size={14} />}
          aria-label={`Copy ${d.name}`}
          onClick={(event) => {
            // The row's own click opens the delivery; this one opens its copy.
            event.stopPropagation();
            onCopy(d);
          }}
        >
          Copy
        </Button>
      ),
    },
  ];
}

/**
 * /deliveries for the admin (every buyer's: filters name, buyer name and tag) and the buyer (its
 * own: search by name and tag); page size 25 (admin §2 Deliveries list, portals §2).
 */
export function DeliveriesListPage() {
  const { role } = useClaims();
  const isAdmin = role === 'admin';
  const navigate = useNavigate();
  // The tag filter offers the tags in use (the viewer's own deliveries' for a buyer).
  const tags = useDeliveryTags();

  return (
    <ListPage
      title="Custom Deliveries"
      description={
        isAdmin ? (
          <>
            Webhooks that push each sold lead into a buyer's own system.{' '}
            <Anchor component={Link} to="/pings">
              Bids and reasons on pings never posted
            </Anchor>
          </>
        ) : (
          'Webhooks that push each lead you buy into your own system.'
        )
      }
      create={{ label: 'Create Custom Delivery', to: '/delivery/new' }}
      filters={
        <Group gap="sm" wrap="wrap">
          <UrlSearchInput param="name" label="Search by name" w={260} />
          {isAdmin && <UrlSearchInput param="buyer_name" label="Search by buyer name" w={260} />}
          <UrlSelectFilter
            param="tag"
            label="Search by tag"
            leftSection={<IconTag size={16} />}
            data={tags.data ?? []}
            limit={TAG_OPTION_LIMIT}
            nothingFoundMessage="No tags"
            w={220}
          />
        </Group>
      }
    >
      <DataTable<WebhookListItem>
        path="/api/webhook"
        queryKey={queryKeys.webhooks.all}
        columns={columns((d) => navigate(`/delivery/${d._id}/copy`))}
        pageSize={PAGE_SIZE.deliveries}
        filterParams={isAdmin ? ['name', 'buyer_name', 'tag'] : ['name', 'tag']}
        defaultSort={{ column: 'name', order: 'asc' }}
        onRowClick={(d) => navigate(`/delivery/${d._id}`)}
      />
    </ListPage>
  );
}

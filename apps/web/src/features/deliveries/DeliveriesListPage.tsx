import { PAGE_SIZE, type WebhookListItem } from '@leadex/domain';
import { Button, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconCopy, IconPlus, IconSearch, IconTag } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useClaims } from '../../app/session';
import { DataTable, type DataTableColumn, useUrlFilter } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { StatusBadge } from '../../components/StatusBadge';
import { TAG_OPTION_LIMIT } from '../../components/TagsField';
import { api } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

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
  const [name, setName] = useUrlFilter('name', 200);
  const [buyerName, setBuyerName] = useUrlFilter('buyer_name', 200);
  const [tag, setTag] = useUrlFilter('tag');
  // The tag filter offers the tags in use (the viewer's own deliveries' for a buyer).
  const tags = useQuery({
    queryKey: queryKeys.tags('webhook'),
    queryFn: ({ signal }) => api.get<string[]>('/api/tag/webhook', { signal }),
    staleTime: 60_000,
  });

  return (
    <>
      <PageHeader
        title="Custom Deliveries"
        description={
          isAdmin
            ? "Webhooks that push each sold lead into a buyer's own system."
            : 'Webhooks that push each lead you buy into your own system.'
        }
        actions={
          <Button component={Link} to="/delivery/new" leftSection={<IconPlus size={18} />}>
            Create Custom Delivery
          </Button>
        }
      />
      <Paper withBorder p="md" shadow="xs">
        <Stack gap="md">
          <Group gap="sm" wrap="wrap">
            <TextInput
              placeholder="Search by name"
              aria-label="Search by name"
              leftSection={<IconSearch size={16} />}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              w={260}
            />
            {isAdmin && (
              <TextInput
                placeholder="Search by buyer name"
                aria-label="Search by buyer name"
                leftSection={<IconSearch size={16} />}
                value={buyerName}
                onChange={(event) => setBuyerName(event.currentTarget.value)}
                w={260}
              />
            )}
            <Select
              placeholder="Search by tag"
              aria-label="Search by tag"
              leftSection={<IconTag size={16} />}
              data={tags.data ?? []}
              value={tag || null}
              onChange={(value) => setTag(value ?? '')}
              limit={TAG_OPTION_LIMIT}
              nothingFoundMessage="No tags"
              searchable
              clearable
              w={220}
            />
          </Group>
          <DataTable<WebhookListItem>
            path="/api/webhook"
            queryKey={queryKeys.webhooks.all}
            columns={columns((d) => navigate(`/delivery/${d._id}/copy`))}
            pageSize={PAGE_SIZE.deliveries}
            filterParams={isAdmin ? ['name', 'buyer_name', 'tag'] : ['name', 'tag']}
            defaultSort={{ column: 'name', order: 'asc' }}
            noRecordsText="No results"
            onRowClick={(d) => navigate(`/delivery/${d._id}`)}
          />
        </Stack>
      </Paper>
    </>
  );
}

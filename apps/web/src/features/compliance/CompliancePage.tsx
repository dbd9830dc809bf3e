import {
  ACCESS_ACTION_LABELS,
  ACCESS_ACTIONS,
  type AccessLogEntry,
  COMPLIANCE_PAGE_SIZE,
  type ErasurePreview,
  type ErasureRecord,
  type Retention,
} from '@leadex/domain';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { UrlDateInput, UrlSearchInput, UrlSelectFilter } from '../../components/ListPage';
import { PageHeader } from '../../components/PageHeader';
import { api } from '../../lib/api';
import { formatTimestamp } from '../../lib/format';
import { fieldError } from '../../lib/forms';
import { queryKeys } from '../../lib/queryKeys';
import { DeletionListsPanel, DeletionListWarning } from './DeletionLists';

const countWords: Record<string, string> = {
  leads: 'Leads',
  lead_matches: 'Matches',
  delivery_attempts: 'Delivery logs',
  ping_calls: 'Ping records',
  outbox: 'Outbox messages',
  messages: 'Messages',
  idempotency_keys: 'Replayable answers',
  lead_drop_hashes: 'Deletion-list hashes',
};

function Counts({ counts }: { counts: Record<string, number> }) {
  return (
    <Group gap="xs">
      {Object.entries(counts).map(([k, n]) => (
        <Badge key={k} variant="light" color={n > 0 ? 'blue' : 'gray'}>
          {countWords[k] ?? k}: {n}
        </Badge>
      ))}
    </Group>
  );
}

/** Search by email or phone, preview everything found, then erase in one step (issue 35 item 1). */
function ErasurePanel() {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<'phone' | 'email'>('phone');
  const [contact, setContact] = useState('');
  const [requestedBy, setRequestedBy] = useState('');
  const [preview, setPreview] = useState<ErasurePreview | null>(null);
  const [done, setDone] = useState<ErasureRecord | null>(null);
  const body = () => ({ [kind]: contact });
  const search = useMutation({
    mutationFn: () => api.post<ErasurePreview>('/api/compliance/erasure/search', body()),
    onSuccess: (p) => {
      setPreview(p);
      setDone(null);
    },
  });
  const erase = useMutation({
    mutationFn: () => api.post<ErasureRecord>('/api/compliance/erasure', { ...body(), requested_by: requestedBy }),
    onSuccess: (record) => {
      setDone(record);
      setPreview(null);
      setContact('');
      void queryClient.invalidateQueries({ queryKey: queryKeys.compliance.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.leads.all });
    },
  });
  return (
    <Stack gap="md" maw={900}>
      <Text c="dimmed" fz="sm">
        A person asked to have their data deleted. Enter their email or phone: every lead, match, delivery log, outbox
        message and ping record holding it is listed; Erase overwrites them in one step, keeps each lead as a sale with
        its money, puts the contact on the exchange-wide suppression list and tells every buyer that received a lead.
      </Text>
      <Group align="end">
        <SegmentedControl
          value={kind}
          onChange={(v) => {
            setKind(v as 'phone' | 'email');
            setPreview(null);
          }}
          data={[
            { value: 'phone', label: 'Phone' },
            { value: 'email', label: 'Email' },
          ]}
        />
        <TextInput
          label={kind === 'phone' ? 'Phone' : 'Email'}
          placeholder={kind === 'phone' ? '(512) 555-0123' : 'person@example.com'}
          value={contact}
          onChange={(e) => setContact(e.currentTarget.value)}
          error={fieldError(search.error, kind)}
          w={280}
        />
        <Button onClick={() => search.mutate()} loading={search.isPending} disabled={!contact.trim()}>
          Search
        </Button>
      </Group>
      {preview && (
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={4}>
              {preview.leads.length === 0 ? 'No lead holds this contact' : `${preview.leads.length} lead(s) found`}
            </Title>
            <Counts counts={preview.counts} />
            {preview.leads.length > 0 && (
              <Table striped withTableBorder>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Date</Table.Th>
                    <Table.Th>Lead</Table.Th>
                    <Table.Th>Service</Table.Th>
                    <Table.Th>ZIP</Table.Th>
                    <Table.Th>Source</Table.Th>
                    <Table.Th>Buyers</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {preview.leads.map((l) => (
                    <Table.Tr key={l._id}>
                      <Table.Td>{formatTimestamp(l.ts)}</Table.Td>
                      <Table.Td>{l.name ?? l._id}</Table.Td>
                      <Table.Td>{l.service}</Table.Td>
                      <Table.Td>{l.zip}</Table.Td>
                      <Table.Td>{l.source.name}</Table.Td>
                      <Table.Td>{l.buyers.join(', ')}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            {preview.buyers.length > 0 && (
              <Stack gap={4}>
                <Text fw={600}>Buyers to be told</Text>
                {preview.buyers.map((b) => (
                  <Text key={b._id} fz="sm">
                    {b.name}: {b.targets.map((t) => `${t.channel} ${t.target}`).join(', ')}
                  </Text>
                ))}
              </Stack>
            )}
            <TextInput
              label="Requested by"
              description="Who asked, and how (never the person's data: a ticket number, 'the consumer by email')"
              value={requestedBy}
              onChange={(e) => setRequestedBy(e.currentTarget.value)}
              error={fieldError(erase.error, 'requested_by')}
              maw={480}
            />
            <Group>
              <Button
                color="red"
                onClick={() => erase.mutate()}
                loading={erase.isPending}
                disabled={!requestedBy.trim()}
              >
                Erase
              </Button>
              <Button variant="default" onClick={() => setPreview(null)}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
      {done && (
        <Alert color="green" title="Erased">
          <Stack gap={4}>
            <Text fz="sm">
              Request {done._id}: {done.lead_ids.length} lead(s) erased; {done.buyers.length} buyer(s) told.
            </Text>
            <Counts counts={done.counts} />
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}

const KIND_WORDS: Record<ErasureRecord['kind'], string> = {
  request: 'Request',
  retention: 'Retention',
  deletion_list: 'Deletion list',
};

const recordColumns: DataTableColumn<ErasureRecord>[] = [
  { accessor: 'ts', title: 'Date', render: (r) => formatTimestamp(r.ts) },
  { accessor: 'kind', title: 'Kind', render: (r) => KIND_WORDS[r.kind] },
  { accessor: 'requested_by', title: 'Requested by' },
  {
    accessor: 'erased_by',
    title: 'Erased by',
    render: (r) => r.erased_by?.name ?? (r.kind === 'request' ? '' : 'The daily job'),
  },
  { accessor: 'matched_on', title: 'Matched on' },
  { accessor: 'counts', title: 'Rows', render: (r) => <Counts counts={r.counts} /> },
  {
    accessor: 'notices',
    title: 'Buyers told',
    render: (r) =>
      r.notices.length === 0
        ? '—'
        : r.notices.map((n) => (
            <Text key={`${n.buyer}-${n.channel}-${n.target}`} fz="xs">
              {n.buyer} · {n.channel} · {n.status}
            </Text>
          )),
  },
];

const logColumns: DataTableColumn<AccessLogEntry>[] = [
  { accessor: 'ts', title: 'Date', render: (r) => formatTimestamp(r.ts) },
  { accessor: 'user', title: 'User', render: (r) => r.user?.name ?? r.user?.email ?? 'System' },
  { accessor: 'role', title: 'Role' },
  { accessor: 'action', title: 'Action', render: (r) => ACCESS_ACTION_LABELS[r.action] },
  {
    accessor: 'lead_ids',
    title: 'Leads or filter',
    render: (r) => (
      <Text fz="xs" lineClamp={2} maw={360}>
        {r.lead_ids.length > 0 ? r.lead_ids.join(', ') : r.detail ? JSON.stringify(r.detail) : ''}
        {typeof r.detail?.reason === 'string' ? ` · Reason: ${r.detail.reason}` : ''}
      </Text>
    ),
  },
  { accessor: 'address', title: 'Address' },
];

const LOG_FILTERS = ['user', 'action', 'begin', 'end', 'lead'] as const;

function AccessLogPanel() {
  const [params] = useSearchParams();
  const query = new URLSearchParams();
  for (const f of LOG_FILTERS) {
    const v = params.get(f);
    if (v) query.set(f, v);
  }
  return (
    <Paper withBorder p="md" shadow="xs">
      <Stack gap="md">
        <Text c="dimmed" fz="sm">
          Every view of a lead's personal data, list page, export and erasure: who, when, which leads, from where.
          Nobody can change or delete an entry.
        </Text>
        <Group align="end">
          <UrlSearchInput param="user" label="User (name or email)" w={200} />
          <UrlSelectFilter
            param="action"
            label="Action"
            data={ACCESS_ACTIONS.map((a) => ({ value: a, label: ACCESS_ACTION_LABELS[a] }))}
            w={200}
          />
          <UrlDateInput param="begin" label="From" />
          <UrlDateInput param="end" label="To" />
          <UrlSearchInput param="lead" label="Lead id" w={220} />
          <Anchor href={`/api/compliance/access-log/export.csv?${query.toString()}`} download>
            Export CSV
          </Anchor>
        </Group>
        <DataTable<AccessLogEntry>
          path="/api/compliance/access-log"
          queryKey={queryKeys.compliance.accessLog}
          columns={logColumns}
          pageSize={COMPLIANCE_PAGE_SIZE}
          filterParams={LOG_FILTERS}
          noRecordsText="No entries"
          compact
        />
      </Stack>
    </Paper>
  );
}

/** Retention: days after which the daily job erases leads' personal fields; empty is off (issue 35 item 4). */
function RetentionPanel() {
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: queryKeys.compliance.retention,
    queryFn: () => api.get<Retention>('/api/compliance/retention'),
  });
  const [days, setDays] = useState<number | string | undefined>(undefined);
  const save = useMutation({
    mutationFn: () =>
      api.put<Retention>('/api/compliance/retention', {
        lead_days: days === '' || days === undefined ? null : Number(days),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.compliance.retention }),
  });
  const shown = days ?? current.data?.lead_days ?? '';
  return (
    <Stack gap="sm" maw={520}>
      <Text c="dimmed" fz="sm">
        Leads older than this many days have their personal fields erased by a daily job, the same way as an erasure on
        request (their sales and money stay). Empty: off.
      </Text>
      <Group align="end">
        <NumberInput
          label="Erase leads' personal fields after (days)"
          value={shown}
          onChange={setDays}
          min={1}
          allowDecimal={false}
          error={fieldError(save.error, 'lead_days')}
          w={300}
        />
        <Button onClick={() => save.mutate()} loading={save.isPending}>
          Save
        </Button>
      </Group>
      <Text fz="sm">{current.data?.lead_days ? `On: ${current.data.lead_days} days` : 'Off'}</Text>
    </Stack>
  );
}

/** The admin's Compliance screen: erasure, its request records, the access log and the retention. */
export function CompliancePage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'erasure';
  return (
    <Stack p="md" gap="md">
      <PageHeader
        title="Compliance"
        description="A person's data: erasure on request, the erasure records, who saw what, retention, and California's deletion lists."
      />
      {tab !== 'deletion-lists' && <DeletionListWarning link />}
      <Tabs value={tab} onChange={(v) => setParams(v === 'erasure' ? {} : { tab: v ?? 'erasure' })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="erasure">Erasure</Tabs.Tab>
          <Tabs.Tab value="requests">Erasure requests</Tabs.Tab>
          <Tabs.Tab value="log">Access log</Tabs.Tab>
          <Tabs.Tab value="retention">Retention</Tabs.Tab>
          <Tabs.Tab value="deletion-lists">Deletion lists</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="erasure" pt="md">
          <ErasurePanel />
        </Tabs.Panel>
        <Tabs.Panel value="requests" pt="md">
          <DataTable<ErasureRecord>
            path="/api/compliance/erasures"
            queryKey={queryKeys.compliance.erasures}
            columns={recordColumns}
            pageSize={COMPLIANCE_PAGE_SIZE}
            noRecordsText="No erasure yet"
          />
        </Tabs.Panel>
        <Tabs.Panel value="log" pt="md">
          <AccessLogPanel />
        </Tabs.Panel>
        <Tabs.Panel value="retention" pt="md">
          <RetentionPanel />
        </Tabs.Panel>
        <Tabs.Panel value="deletion-lists" pt="md">
          <DeletionListsPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

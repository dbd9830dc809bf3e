import { DROP_SPEC, type DropRun, type DropStatus } from '@leadex/domain';
import { Alert, Anchor, Badge, Button, FileInput, Group, Progress, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { api } from '../../lib/api';
import { formatTimestamp } from '../../lib/format';
import { fieldError } from '../../lib/forms';
import { queryKeys } from '../../lib/queryKeys';
import { uploadFile } from '../../lib/upload';

const useDropStatus = () =>
  useQuery({
    queryKey: queryKeys.compliance.deletionListStatus,
    queryFn: () => api.get<DropStatus>('/api/compliance/deletion-lists/status'),
  });

/**
 * The warning once 45 days pass without a deletion list run (issue 35 item 3): on the Deletion lists
 * screen, the admin dashboard and Settings; `link` leads to the screen.
 */
export function DeletionListWarning({ link = false }: { link?: boolean }) {
  const status = useDropStatus();
  if (!status.data?.overdue) return null;
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} />} title="California deletion list overdue">
      <Text fz="sm">{status.data.message}</Text>
      {link && (
        <Anchor component={Link} to="/compliance?tab=deletion-lists" fz="sm">
          Open the deletion lists
        </Anchor>
      )}
    </Alert>
  );
}

const columns: DataTableColumn<DropRun>[] = [
  { accessor: 'ts', title: 'Date', render: (r) => formatTimestamp(r.ts) },
  { accessor: 'file', title: 'File' },
  { accessor: 'origin', title: 'From', render: (r) => (r.origin === 'upload' ? 'Upload' : 'Directory (daily job)') },
  {
    accessor: 'status',
    title: 'Status',
    width: 110,
    render: (r) => (
      <Badge color={r.status === 'done' ? 'green' : r.status === 'failed' ? 'red' : 'blue'} title={r.error}>
        {r.status}
      </Badge>
    ),
  },
  { accessor: 'entries', title: 'Entries' },
  { accessor: 'matched', title: 'Matched' },
  { accessor: 'erased', title: 'Erased' },
  { accessor: 'refused_since', title: 'Refused since' },
  { accessor: 'user', title: 'By' },
];

/**
 * California's deletion lists (DROP, issue 35 item 3): run a list file (its progress shown), the
 * directory the daily job reads, and every run.
 */
export function DeletionListsPanel() {
  const queryClient = useQueryClient();
  const status = useDropStatus();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [last, setLast] = useState<DropRun | null>(null);
  const [directory, setDirectory] = useState<string | undefined>(undefined);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.compliance.all });
  const run = async () => {
    if (!file) return;
    setProgress(0);
    try {
      setLast(
        await uploadFile<DropRun>(
          `/api/compliance/deletion-lists/upload?file=${encodeURIComponent(file.name)}`,
          file,
          setProgress,
        ),
      );
      setFile(null);
    } catch {
      // the toast said why
    } finally {
      setProgress(null);
      void refresh();
    }
  };
  const saveDirectory = useMutation({
    mutationFn: () =>
      api.put('/api/compliance/deletion-lists/directory', { directory: directory?.trim() ? directory.trim() : null }),
    onSuccess: () => refresh(),
  });
  const lastRun = status.data?.last_run_ts;
  return (
    <Stack gap="md">
      <DeletionListWarning />
      <Text c="dimmed" fz="sm" maw={900}>
        California’s Delete Request and Opt-out Platform (DROP) lists the consumers who asked data brokers to delete
        them, as SHA-256 hashes of their email, phone, and name + date of birth + ZIP. A list must be run at least every{' '}
        {DROP_SPEC.maxDaysBetweenRuns} days: the matched people are erased as on request, and their later leads are
        refused before pricing. {lastRun ? `Last run ${formatTimestamp(lastRun)}.` : 'No list has been run yet.'}
      </Text>
      <Group align="end">
        <FileInput
          label="Deletion list file (CSV of SHA-256 hashes)"
          placeholder="Choose a .csv file"
          accept=".csv,.txt,text/csv,text/plain"
          value={file}
          onChange={setFile}
          clearable
          w={360}
        />
        <Button disabled={!file || progress !== null} onClick={run}>
          Run Deletion List
        </Button>
      </Group>
      {progress !== null && (
        <Stack gap={4} data-testid="deletion-list-progress" maw={480}>
          <Progress value={Math.round(progress * 100)} animated />
          <Text fz="xs" c="dimmed">
            {progress < 1 ? `Sent ${Math.round(progress * 100)} %` : 'Sent: matching and erasing'}
          </Text>
        </Stack>
      )}
      {last && (
        <Alert color={last.status === 'done' ? 'green' : 'red'} title={`Run of ${last.file}`} maw={900}>
          {last.entries} entries, {last.matched} leads matched, {last.erased} erased
          {last.invalid ? `, ${last.invalid} lines without a hash` : ''}.
        </Alert>
      )}
      <Group align="end">
        <TextInput
          label="Directory the daily job reads lists from (on the server)"
          placeholder="/var/lib/leadex/drop"
          value={directory ?? status.data?.directory ?? ''}
          onChange={(e) => setDirectory(e.currentTarget.value)}
          error={fieldError(saveDirectory.error, 'directory')}
          w={420}
        />
        <Button variant="light" onClick={() => saveDirectory.mutate()} loading={saveDirectory.isPending}>
          Set Directory
        </Button>
      </Group>
      <DataTable<DropRun>
        path="/api/compliance/deletion-lists"
        queryKey={queryKeys.compliance.deletionLists}
        columns={columns}
        pageSize={25}
        noRecordsText="No deletion list run yet"
      />
    </Stack>
  );
}

import {
  OPT_OUT_METHODS,
  type OptOutMethod,
  SUPPRESSION_KINDS,
  SUPPRESSION_PURPOSES,
  type SuppressionImportResult,
  type SuppressionKind,
  type SuppressionList,
  type SuppressionPurpose,
} from '@leadex/domain';
import {
  Alert,
  Badge,
  Button,
  Card,
  FileInput,
  Group,
  Progress,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSession } from '../../lib/session';
import {
  suppressionKeys,
  uploadCsv,
  useAddEntries,
  useCreateList,
  useOptOuts,
  useRecordOptOut,
  useSuppressionLists,
} from './suppression.api';

const KIND_LABELS: Record<SuppressionKind, string> = { phone: 'Phones', email: 'Emails', zip: 'ZIPs' };
const PURPOSE_LABELS: Record<SuppressionPurpose, string> = {
  do_not_contact: 'Internal do-not-contact',
  litigators: 'Known litigators',
  customers: 'Own customers',
  opt_outs: 'Opt-outs and erasures',
  other: 'Other',
};
const METHOD_LABELS: Record<OptOutMethod, string> = {
  text_stop: 'Texted STOP',
  call: 'Phone call',
  email: 'Email',
  web_form: 'Web form',
  other: 'Other',
};

function ImportSummary({ result }: { result: SuppressionImportResult }) {
  return (
    <Alert color={result.invalid > 0 ? 'yellow' : 'green'} data-testid="import-result">
      Read {result.read.toLocaleString()}, added {result.added.toLocaleString()}, already listed{' '}
      {result.already.toLocaleString()}, not valid {result.invalid.toLocaleString()}
      {result.invalid_lines.length > 0
        ? ` (line ${result.invalid_lines
            .slice(0, 5)
            .map((l) => `${l.line}: ${l.value}`)
            .join('; ')})`
        : ''}
      . The list holds {result.entries.toLocaleString()}.
    </Alert>
  );
}

/** One list: values by hand (one a line) and a CSV upload with its progress. */
function ListEntries({ list }: { list: SuppressionList }) {
  const client = useQueryClient();
  const add = useAddEntries(list._id);
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<SuppressionImportResult | null>(null);
  if (list.system)
    return (
      <Text c="dimmed" fz="sm">
        The exchange keeps this list: opt-outs and erasures enter it, and nothing removes them.
      </Text>
    );
  const upload = async () => {
    if (!file) return;
    setResult(null);
    setProgress(0);
    try {
      setResult(await uploadCsv(list._id, file, setProgress));
      await client.invalidateQueries({ queryKey: suppressionKeys.lists });
    } catch {
      // The toast said why.
    } finally {
      setProgress(null);
    }
  };
  return (
    <Stack gap="sm">
      <Textarea
        label={`Add ${KIND_LABELS[list.kind].toLowerCase()}, one a line`}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        autosize
        minRows={2}
      />
      <Group>
        <Button
          size="xs"
          loading={add.isPending}
          disabled={!text.trim()}
          onClick={async () => {
            const values = text
              .split(/\r?\n/)
              .map((v) => v.trim())
              .filter(Boolean);
            setResult(await add.mutateAsync(values));
            setText('');
          }}
        >
          Add
        </Button>
      </Group>
      <FileInput
        label="Upload a CSV (the column named like the list's kind, or the first)"
        placeholder="Choose a .csv file"
        accept=".csv,text/csv,text/plain"
        value={file}
        onChange={setFile}
        clearable
      />
      <Group>
        <Button size="xs" disabled={!file || progress !== null} onClick={upload}>
          Upload
        </Button>
      </Group>
      {progress !== null && (
        <Stack gap={4} data-testid="upload-progress">
          <Progress value={Math.round(progress * 100)} animated />
          <Text fz="xs" c="dimmed">
            {progress < 1 ? `Sent ${Math.round(progress * 100)} %` : 'Sent: the last rows are being stored'}
          </Text>
        </Stack>
      )}
      {result && <ImportSummary result={result} />}
    </Stack>
  );
}

function NewListForm({ admin }: { admin: boolean }) {
  const create = useCreateList();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<SuppressionKind>('phone');
  const [purpose, setPurpose] = useState<Exclude<SuppressionPurpose, 'opt_outs'>>(
    admin ? 'do_not_contact' : 'customers',
  );
  const [buyer, setBuyer] = useState('');
  const [error, setError] = useState<string | undefined>();
  return (
    <Group align="end" wrap="wrap">
      <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} />
      <Select
        label="Kind"
        data={SUPPRESSION_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
        value={kind}
        onChange={(v) => v && setKind(v as SuppressionKind)}
        allowDeselect={false}
      />
      <Select
        label="Purpose"
        data={SUPPRESSION_PURPOSES.filter((p) => p !== 'opt_outs').map((p) => ({ value: p, label: PURPOSE_LABELS[p] }))}
        value={purpose}
        onChange={(v) => v && setPurpose(v as Exclude<SuppressionPurpose, 'opt_outs'>)}
        allowDeselect={false}
      />
      {admin && (
        <TextInput
          label="Buyer id"
          description="Empty: every buyer (global)"
          value={buyer}
          onChange={(e) => setBuyer(e.currentTarget.value)}
        />
      )}
      <Button
        loading={create.isPending}
        onClick={async () => {
          setError(undefined);
          try {
            await create.mutateAsync({ name, kind, purpose, ...(buyer.trim() ? { buyer: buyer.trim() } : {}) });
            setName('');
          } catch (e) {
            setError((e as { errors?: Record<string, string> }).errors?.name);
          }
        }}
      >
        New list
      </Button>
    </Group>
  );
}

function OptOutForm() {
  const record = useRecordOptOut();
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [method, setMethod] = useState<OptOutMethod>('text_stop');
  const [when, setWhen] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(null);
  return (
    <Stack gap="sm">
      <Group align="start" wrap="wrap">
        <TextInput label="Phone" value={phone} onChange={(e) => setPhone(e.currentTarget.value)} error={errors.phone} />
        <TextInput label="Email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={errors.email} />
        <Select
          label="How"
          data={OPT_OUT_METHODS.map((m) => ({ value: m, label: METHOD_LABELS[m] }))}
          value={method}
          onChange={(v) => v && setMethod(v as OptOutMethod)}
          allowDeselect={false}
        />
        <TextInput
          label="When (empty: now)"
          type="datetime-local"
          value={when}
          onChange={(e) => setWhen(e.currentTarget.value)}
          error={errors.revoked_at}
        />
        <TextInput label="Note" value={note} onChange={(e) => setNote(e.currentTarget.value)} />
      </Group>
      <Group>
        <Button
          color="red"
          loading={record.isPending}
          onClick={async () => {
            setErrors({});
            setDone(null);
            try {
              const records = await record.mutateAsync({
                method,
                ...(phone.trim() ? { phone: phone.trim() } : {}),
                ...(email.trim() ? { email: email.trim() } : {}),
                ...(when ? { revoked_at: new Date(when).toISOString() } : {}),
                ...(note.trim() ? { note: note.trim() } : {}),
              });
              const told = records.reduce((n, r) => n + r.notified_buyers, 0);
              setDone(
                `Recorded: ${records.map((r) => r.contact).join(', ')} is suppressed for every buyer; ${told} other buyer${told === 1 ? '' : 's'} told.`,
              );
              setPhone('');
              setEmail('');
              setNote('');
            } catch (e) {
              setErrors((e as { errors?: Record<string, string> }).errors ?? {});
            }
          }}
        >
          Record opt-out
        </Button>
      </Group>
      {done && <Alert color="green">{done}</Alert>}
    </Stack>
  );
}

/**
 * Suppression lists and opt-outs (issue 34): the admin keeps the exchange's lists and any buyer's; a
 * buyer its own. Values are stored as keyed hashes, so a list shows counts, never its values.
 */
export function SuppressionPage() {
  const session = useSession();
  const admin = session.data?.role === 'admin';
  const lists = useSuppressionLists();
  const optOuts = useOptOuts();
  const [openId, setOpenId] = useState<string | null>(null);
  const open = lists.data?.find((l) => l._id === openId) ?? null;
  return (
    <Stack p={{ base: 'xs', xs: 'md' }} gap="lg">
      <div>
        <Title order={1} size="h2">
          Suppression
        </Title>
        <Text c="dimmed" fz="sm">
          {admin
            ? 'Phones, emails and ZIPs no buyer (a global list) or one buyer is sold. Values are kept as keyed hashes: a list shows how many it holds, never what.'
            : 'Phones, emails and ZIPs you are never sold (your own customers, your do-not-contact list). Values are kept as keyed hashes.'}
        </Text>
      </div>
      <Card withBorder>
        <Stack gap="sm">
          <Title order={2} size="h4">
            Lists
          </Title>
          <NewListForm admin={admin} />
          <Table highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Purpose</Table.Th>
                {admin && <Table.Th>For</Table.Th>}
                <Table.Th ta="right">Entries</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(lists.data ?? []).map((l) => (
                <Table.Tr
                  key={l._id}
                  onClick={() => setOpenId(l._id === openId ? null : l._id)}
                  style={{ cursor: 'pointer' }}
                  bg={l._id === openId ? 'var(--mantine-color-blue-light)' : undefined}
                >
                  <Table.Td>{l.name}</Table.Td>
                  <Table.Td>{KIND_LABELS[l.kind]}</Table.Td>
                  <Table.Td>{PURPOSE_LABELS[l.purpose]}</Table.Td>
                  {admin && (
                    <Table.Td>{l.buyer ? (l.buyer_name ?? l.buyer) : <Badge variant="light">Global</Badge>}</Table.Td>
                  )}
                  <Table.Td ta="right">{l.entries.toLocaleString()}</Table.Td>
                </Table.Tr>
              ))}
              {lists.data?.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={admin ? 5 : 4}>
                    <Text c="dimmed" fz="sm">
                      No list yet.
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
          {open && (
            <Card withBorder bg="var(--mantine-color-gray-0)">
              <Title order={3} size="h5" mb="xs">
                {open.name}
              </Title>
              <ListEntries list={open} />
            </Card>
          )}
        </Stack>
      </Card>
      <Card withBorder>
        <Stack gap="sm">
          <Title order={2} size="h4">
            Opt-outs
          </Title>
          <Text c="dimmed" fz="sm">
            A consumer who revoked consent (by any reasonable means) is suppressed for every buyer at once; every buyer
            that bought the consumer in the last 5 years is told. The record is kept 10 years.
          </Text>
          <OptOutForm />
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Contact</Table.Th>
                <Table.Th>How</Table.Th>
                <Table.Th>Revoked</Table.Th>
                <Table.Th>Recorded by</Table.Th>
                <Table.Th ta="right">Buyers told</Table.Th>
                <Table.Th>Kept until</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(optOuts.data ?? []).map((o) => (
                <Table.Tr key={o._id}>
                  <Table.Td>{o.contact}</Table.Td>
                  <Table.Td>{METHOD_LABELS[o.method]}</Table.Td>
                  <Table.Td>{new Date(o.revoked_at).toLocaleString()}</Table.Td>
                  <Table.Td>{o.recorded_by === 'admin' ? 'Admin' : o.recorded_by}</Table.Td>
                  <Table.Td ta="right">{o.notified_buyers}</Table.Td>
                  <Table.Td>{new Date(o.retain_until).toLocaleDateString()}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      </Card>
    </Stack>
  );
}

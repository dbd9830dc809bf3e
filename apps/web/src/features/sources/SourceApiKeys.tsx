import { endOfDayInZone, type Source, type SourceApiKey } from '@leadex/domain';
import { ActionIcon, Button, Code, CopyButton, Group, Modal, Stack, Switch, TextInput, Tooltip } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { IconCheck, IconCopy, IconKey, IconPlayerPause } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { type FormEvent, type ReactNode, useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { RecordsTable } from '../../components/RecordsTable';
import { Section } from '../../components/Section';
import { ApiRequestError } from '../../lib/api';
import { currentExchangeZone, formatDate } from '../../lib/format';
import { showSuccess } from '../../lib/notify';
import { ApiKeyStatusBadge, YesNoBadge } from './SourceBadges';
import { type NewApiKey, useCreateApiKey, useHoldApiKey } from './sources.api';

/** Portals §9 / admin §9: the copied indication shows for 500 ms. */
export const COPIED_MS = 500;

/** An API key in monospace with a copy-to-clipboard button. */
export function CopyableKey({ value }: { value: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Code fz="xs" style={{ whiteSpace: 'nowrap' }}>
        {value}
      </Code>
      <CopyButton value={value} timeout={COPIED_MS}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow position="right" opened={copied || undefined}>
            <ActionIcon
              color={copied ? 'teal' : 'gray'}
              variant="subtle"
              onClick={copy}
              aria-label={copied ? 'Copied' : 'Copy API key'}
            >
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/**
 * The API Keys table of a source (admin detail and source portal): Name, API Key with copy, Status,
 * Can Post Lead, Expiration; the server answers keys on hold last. `actions` adds a column of buttons.
 */
export function ApiKeysTable({
  keys,
  actions,
}: {
  keys: readonly SourceApiKey[];
  actions?: (key: SourceApiKey) => ReactNode;
}) {
  return (
    <RecordsTable<SourceApiKey>
      records={keys}
      noRecordsText="No API keys yet"
      columns={[
        { accessor: 'name', title: 'Name', noWrap: true },
        { accessor: 'key', title: 'API Key', render: (key) => <CopyableKey value={key.key} /> },
        { accessor: 'status', title: 'Status', render: (key) => <ApiKeyStatusBadge status={key.status} /> },
        { accessor: 'canPostLead', title: 'Can Post Lead', render: (key) => <YesNoBadge value={key.canPostLead} /> },
        {
          accessor: 'exp',
          title: 'Expiration',
          noWrap: true,
          render: (key) => (key.exp ? formatDate(key.exp) : 'Never'),
        },
        { accessor: 'actions', title: '', textAlign: 'right', hidden: !actions, render: (key) => actions?.(key) },
      ]}
    />
  );
}

/** The source's API keys: Name, API Key (with copy), Status, Can Post Lead, Expiration; create and hold. */
export function SourceApiKeys({ source }: { source: Source }) {
  const [creating, setCreating] = useState(false);
  const hold = useHoldApiKey(source._id);

  const holdKey = async (key: SourceApiKey) => {
    await hold.mutateAsync(key.name);
    showSuccess(`API key ${key.name} is on hold.`);
  };

  return (
    <Section
      title="API Keys"
      description="Keys the source sends as Authorization: Bearer with each ping, post and lead."
      actions={
        <Button variant="light" leftSection={<IconKey size={16} />} onClick={() => setCreating(true)}>
          Create API Key
        </Button>
      }
    >
      <ApiKeysTable
        keys={source.apikeys}
        actions={(key) =>
          key.hold ? null : (
            <ConfirmButton
              size="compact-sm"
              variant="subtle"
              color="red"
              leftSection={<IconPlayerPause size={14} />}
              confirmTitle="Hold API key"
              confirmText={`Are you sure you want to put the API key ${key.name} on hold? Calls with it are refused at once.`}
              confirmLabel="Hold"
              confirmColor="red"
              onConfirm={() => holdKey(key)}
              aria-label={`Hold ${key.name}`}
            >
              Hold
            </ConfirmButton>
          )
        }
      />
      <CreateApiKeyModal source={source} opened={creating} onClose={() => setCreating(false)} />
    </Section>
  );
}

/** The Create API Key dialog: an optional name, Can Post Lead (the source's by default) and expiration. */
function CreateApiKeyModal({ source, opened, onClose }: { source: Source; opened: boolean; onClose: () => void }) {
  const create = useCreateApiKey(source._id);
  const [name, setName] = useState('');
  const [canPostLead, setCanPostLead] = useState(source.canPostLead);
  const [expiration, setExpiration] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const reset = () => {
    setName('');
    setCanPostLead(source.canPostLead);
    setExpiration(null);
    setErrors({});
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The modal sits in a portal, but React still bubbles its submit to any form around the table.
    event.stopPropagation();
    const input: NewApiKey = {
      name: name.trim() || undefined,
      canPostLead,
      // The chosen day ends at midnight in the exchange's zone, as every time the screens show.
      expiration: expiration
        ? endOfDayInZone(dayjs(expiration).format('YYYY-MM-DD'), currentExchangeZone())
        : undefined,
    };
    try {
      const key = await create.mutateAsync(input);
      showSuccess(`API key ${key.name} created`);
      reset();
      onClose();
    } catch (error) {
      // The toast is raised already; a 400 naming a field also marks it here.
      if (error instanceof ApiRequestError && error.status === 400) setErrors(error.errors);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={() => {
        reset();
        onClose();
      }}
      title="Create API Key"
      centered
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Name"
            placeholder={`API Key ${source.apikeys.length + 1}`}
            description="Optional; keys are held by name, so each name is used once."
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
            data-autofocus
          />
          <DateInput
            label="Expiration"
            placeholder="Never"
            clearable
            minDate={dayjs().add(1, 'day').format('YYYY-MM-DD')}
            value={expiration}
            onChange={setExpiration}
            error={errors.expiration}
            valueFormat="MM/DD/YYYY"
          />
          <Switch
            label="Can Post Lead"
            description="Allows direct posts to /api/lead (the source must be approved for them too)."
            checked={canPostLead}
            onChange={(event) => setCanPostLead(event.currentTarget.checked)}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create API Key
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

import { type IntegrationSetting, type IntegrationStatus, isAdIntegration } from '@leadex/domain';
import { Badge, Button, Card, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlugConnected, IconPlugConnectedX, IconRefresh } from '@tabler/icons-react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formatTimestamp } from '../../lib/format';
import { showSuccess } from '../../lib/notify';
import { useDisconnectIntegration, useIntegrationSource, useInternalSources } from './settings.api';

const STATUS_COLORS: Record<IntegrationStatus, string> = {
  Connected: 'green',
  Expired: 'orange',
  Disconnected: 'gray',
};

const listFormat = new Intl.ListFormat('en-US', { style: 'long', type: 'conjunction' });

/** 'Not configured: set A and B on the server.' for a provider without its client id or secret. */
export function notConfiguredText(missingVariables: readonly string[]): string {
  return `Not configured: set ${listFormat.format(missingVariables)} on the server.`;
}

/** A token's expiry: its time, or Never for a token that does not expire. */
const expiry = (ts: number | null) => (ts ? formatTimestamp(ts) : 'Never');

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <Text fz="sm">
      <Text span c="dimmed" fz="sm">
        {label}:
      </Text>{' '}
      {value}
    </Text>
  );
}

/** The connected account and its tokens' expiry (nothing while disconnected). */
function ConnectionDetails({ integration }: { integration: IntegrationSetting }) {
  if (integration.status === 'Disconnected') return null;
  const { account, connectedAt, accessToken } = integration;
  return (
    <Stack gap={2}>
      {account && <Detail label="Account" value={account} />}
      {connectedAt && <Detail label="Connected" value={formatTimestamp(connectedAt)} />}
      {accessToken && (
        <>
          <Detail label="Access expires" value={expiry(accessToken.expiry_date)} />
          <Detail label="Refresh expires" value={expiry(accessToken.refresh_token_expiry_date)} />
        </>
      )}
    </Stack>
  );
}

/** An ad integration's internal source (its spend is that source's cost) and its last import. */
function AdImport({ integration }: { integration: IntegrationSetting }) {
  const sources = useInternalSources();
  const save = useIntegrationSource();
  const choose = (sourceId: string | null) =>
    save.mutate(
      { name: integration.name, sourceId },
      {
        onSuccess: () => {
          const source = sources.data?.find((s) => s.value === sourceId)?.label;
          showSuccess(
            source
              ? `${integration.label} spend is now the cost of ${source}.`
              : `${integration.label} spend is the cost of no source.`,
          );
        },
      },
    );
  return (
    <Stack gap={6}>
      <Select
        label="Internal source"
        placeholder="Choose the source its spend is the cost of"
        data={sources.data ?? []}
        value={integration.sourceId}
        onChange={choose}
        clearable
        searchable
        disabled={save.isPending}
        nothingFoundMessage="No internal source (one with no lead cost)"
        // The placeholder is longer than a narrow card: cut it with an ellipsis, not mid-letter.
        styles={{ input: { textOverflow: 'ellipsis' } }}
      />
      {integration.lastImportError ? (
        <Text fz="sm" c="red" role="alert">
          Last import failed{integration.lastImportAt ? ` (${formatTimestamp(integration.lastImportAt)})` : ''}:{' '}
          {integration.lastImportError}
        </Text>
      ) : (
        <Text fz="sm" c="dimmed">
          {integration.lastImportAt ? `Last import: ${formatTimestamp(integration.lastImportAt)}` : 'No import yet.'}
        </Text>
      )}
    </Stack>
  );
}

/** Connect (or Reconnect) sends the browser to the provider by the server; Disconnect asks first. */
function IntegrationActions({ integration }: { integration: IntegrationSetting }) {
  const disconnect = useDisconnectIntegration();
  if (!integration.configured) {
    return (
      <Group gap={6} wrap="nowrap" align="flex-start">
        <IconAlertTriangle size={16} color="var(--mantine-color-orange-text)" style={{ flexShrink: 0, marginTop: 2 }} />
        <Text fz="sm">{notConfiguredText(integration.missingVariables)}</Text>
      </Group>
    );
  }
  const connected = integration.status !== 'Disconnected';
  return (
    <Group gap="xs">
      <Button
        component="a"
        href={integration.authPath}
        variant={integration.status === 'Connected' ? 'default' : 'filled'}
        leftSection={connected ? <IconRefresh size={16} /> : <IconPlugConnected size={16} />}
      >
        {connected ? 'Reconnect' : 'Connect'}
      </Button>
      {connected && (
        <ConfirmButton
          variant="subtle"
          color="red"
          leftSection={<IconPlugConnectedX size={16} />}
          loading={disconnect.isPending}
          confirmTitle={`Disconnect ${integration.label}`}
          confirmText={`Disconnect ${integration.label}? The exchange forgets its tokens until it is connected again.`}
          confirmLabel="Disconnect"
          confirmColor="red"
          onConfirm={() =>
            disconnect.mutate(integration.name, {
              onSuccess: () => showSuccess(`${integration.label} disconnected.`),
            })
          }
        >
          Disconnect
        </ConfirmButton>
      )}
    </Group>
  );
}

/** One integration (admin §2 Settings): what it is for, its status badge, and how to connect it. */
export function IntegrationCard({ integration }: { integration: IntegrationSetting }) {
  return (
    <Card withBorder padding="lg" radius="md" component="article" aria-label={integration.label}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <div>
            <Title order={3} size="h5">
              {integration.label}
            </Title>
            <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
              {integration.kind}
            </Text>
          </div>
          <Badge color={STATUS_COLORS[integration.status]} variant="light">
            {integration.status}
          </Badge>
        </Group>
        <Text fz="sm">{integration.purpose}</Text>
        <ConnectionDetails integration={integration} />
        {isAdIntegration(integration.name) && <AdImport integration={integration} />}
        <div style={{ marginTop: 'auto' }}>
          <IntegrationActions integration={integration} />
        </div>
      </Stack>
    </Card>
  );
}

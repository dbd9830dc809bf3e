import type { Source } from '@leadex/domain';
import {
  Alert,
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCheck, IconCopy, IconSend } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { useServiceOptions } from '../../components/ServiceName';
import { COPIED_MS } from '../sources/SourceApiKeys';
import { curlExample, firstApiKey, sourceEndpoints, TEST_PING_ZIP } from './endpoints';
import { type RawResponse, sendTestPing, useCloseWelcome, useServices } from './sourcePortal.api';

/** A button that copies `value`, saying Copied for 500 ms (portals §9). */
function CopyTextButton({ value, label, disabled }: { value: string; label: string; disabled?: boolean }) {
  return (
    <CopyButton value={value} timeout={COPIED_MS}>
      {({ copied, copy }) => (
        <Button
          variant="light"
          color={copied ? 'teal' : undefined}
          leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          onClick={copy}
          disabled={disabled}
        >
          {copied ? 'Copied' : label}
        </Button>
      )}
    </CopyButton>
  );
}

/**
 * The onboarding welcome page (portals §2): the first API key, the endpoints, a test ping with its raw
 * answer, a cURL example, and 'I got this!', which closes the page for good once confirmed.
 */
export function SourceWelcome({ source }: { source: Source }) {
  const origin = window.location.origin;
  const key = firstApiKey(source.apikeys);
  const services = useServices();
  const [service, setService] = useState<string | null>(null);
  const close = useCloseWelcome();

  // Spec §5: the service starts as the first in the list.
  useEffect(() => {
    if (service === null && services.data?.[0]) setService(services.data[0]);
  }, [service, services.data]);

  const confirmClose = () =>
    modals.openConfirmModal({
      title: 'Close the welcome page',
      centered: true,
      children: <Text size="sm">Are you sure you want to close the welcome page?</Text>,
      labels: { confirm: 'Confirm', cancel: 'Cancel' },
      onConfirm: () => close.mutate(),
    });

  return (
    <Stack gap="lg">
      <PageHeader
        title="Welcome to the Lead Delivery System!"
        description={`${source.name}: everything you need to send your first lead.`}
        actions={
          <Button onClick={confirmClose} loading={close.isPending}>
            I got this!
          </Button>
        }
      />

      <Section title="Your API Key" description="Send it with every call, as Authorization: Bearer <key>.">
        {key ? (
          <Group gap="sm" wrap="wrap">
            <Code fz="sm">{key.key}</Code>
            <CopyTextButton value={key.key} label="Copy API Key" />
          </Group>
        ) : (
          <Text c="dimmed" fz="sm">
            You have no API key yet: your provider creates one for you.
          </Text>
        )}
      </Section>

      <Section title="Endpoints" description="Ping for a price, then post the lead for that ping.">
        <Table withTableBorder>
          <Table.Tbody>
            {sourceEndpoints(origin, source.canPostLead).map((endpoint) => (
              <Table.Tr key={endpoint.path}>
                <Table.Th w={160}>{endpoint.label}</Table.Th>
                <Table.Td>
                  <Group gap="xs">
                    <Badge variant="light">POST</Badge>
                    <Code>{endpoint.url}</Code>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Section>

      <TestPingCard apiKey={key?.key} services={services.data ?? []} service={service} onService={setService} />

      <Section
        title="cURL example"
        description="The same test ping from your terminal."
        actions={
          <CopyTextButton
            value={curlExample(origin, key?.key ?? '<api key>', service ?? '<service>')}
            label="Copy cURL"
          />
        }
      >
        <Code block>{curlExample(origin, key?.key ?? '<api key>', service ?? '<service>')}</Code>
      </Section>
    </Stack>
  );
}

/** Test Your First Ping: a service (the first preselected), ZIP 99999 and test true; the answer shown raw. */
function TestPingCard({
  apiKey,
  services,
  service,
  onService,
}: {
  apiKey: string | undefined;
  services: string[];
  service: string | null;
  onService: (service: string | null) => void;
}) {
  const serviceOptions = useServiceOptions(services);
  const [zip, setZip] = useState(TEST_PING_ZIP);
  const [test, setTest] = useState(true);
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<RawResponse | null>(null);

  const send = async () => {
    if (!apiKey || !service) return;
    setSending(true);
    try {
      setAnswer(await sendTestPing(apiKey, { service, zip, test }));
    } catch {
      // Raised as a toast already; nothing to show.
    } finally {
      setSending(false);
    }
  };

  return (
    <Section title="Test Your First Ping" description="A test ping is never sold: try the API safely.">
      <Stack gap="md">
        <Group align="flex-end" gap="md" wrap="wrap">
          <Select
            label="Service"
            data={serviceOptions}
            value={service}
            onChange={onService}
            allowDeselect={false}
            searchable
            w={240}
          />
          <TextInput label="Zip" value={zip} onChange={(event) => setZip(event.currentTarget.value)} w={120} />
          <Switch label="Test" checked={test} onChange={(event) => setTest(event.currentTarget.checked)} mb={8} />
          <Button leftSection={<IconSend size={16} />} onClick={send} loading={sending} disabled={!apiKey || !service}>
            Send Test Ping
          </Button>
        </Group>
        {answer && (
          <Stack gap={4} component="section" aria-label="Test ping response">
            <Group gap="xs">
              <Text fw={600} fz="sm">
                Response
              </Text>
              <Badge color={answer.status < 400 ? 'teal' : 'red'} variant="light">
                HTTP {answer.status}
              </Badge>
            </Group>
            <Code block>{answer.body}</Code>
          </Stack>
        )}
        {!apiKey && (
          <Alert color="yellow" variant="light">
            A test ping needs an API key.
          </Alert>
        )}
      </Stack>
    </Section>
  );
}

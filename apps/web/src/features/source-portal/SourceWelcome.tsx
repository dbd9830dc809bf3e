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
import { curlExample, curlPostExample, firstApiKey, pingIdOf, sourceEndpoints, TEST_PING_ZIP } from './endpoints';
import { SellingNotice } from './SellingStatus';
import { type RawResponse, sendTestPing, sendTestPost, useCloseWelcome, useServices } from './sourcePortal.api';

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
  const [pingAnswer, setPingAnswer] = useState<RawResponse | null>(null);

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
      <SellingNotice source={source} />

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

      <TestPingCard
        apiKey={key?.key}
        services={services.data ?? []}
        service={service}
        onService={setService}
        answer={pingAnswer}
        onAnswer={setPingAnswer}
      />

      <TestPostCard apiKey={key?.key} pingId={pingAnswer ? pingIdOf(pingAnswer.body) : undefined} />

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
  answer,
  onAnswer,
}: {
  apiKey: string | undefined;
  services: string[];
  service: string | null;
  onService: (service: string | null) => void;
  answer: RawResponse | null;
  onAnswer: (answer: RawResponse) => void;
}) {
  const serviceOptions = useServiceOptions(services);
  const [zip, setZip] = useState(TEST_PING_ZIP);
  const [test, setTest] = useState(true);
  const [sending, setSending] = useState(false);

  const send = async () => {
    if (!apiKey || !service) return;
    setSending(true);
    try {
      onAnswer(await sendTestPing(apiKey, { service, zip, test }));
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
        {answer && <RawAnswer answer={answer} label="Test ping response" />}
        <Text fz="sm" c="dimmed">
          {NOT_A_PAYOUT}
        </Text>
        {!apiKey && (
          <Alert color="yellow" variant="light">
            A test ping needs an API key.
          </Alert>
        )}
      </Stack>
    </Section>
  );
}

/** Says what a test answer's price is not (issue 27). */
export const NOT_A_PAYOUT =
  "A test answer's price is not a payout: test leads are never sold, billed or paid. Real leads are paid what your provider set.";

/** An answer as it came: its HTTP status and its body. */
function RawAnswer({ answer, label }: { answer: RawResponse; label: string }) {
  return (
    <Stack gap={4} component="section" aria-label={label}>
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
  );
}

/**
 * Then Your First Post (issue 27): the lead for the test ping's `ping_id`, with a made-up consumer,
 * the answer shown raw, and the same post as a cURL command.
 */
function TestPostCard({ apiKey, pingId }: { apiKey: string | undefined; pingId: string | undefined }) {
  const origin = window.location.origin;
  const [sending, setSending] = useState(false);
  const [answer, setAnswer] = useState<RawResponse | null>(null);
  const curl = curlPostExample(origin, apiKey ?? '<api key>', pingId ?? '<ping_id from the ping>');

  const send = async () => {
    if (!apiKey || !pingId) return;
    setSending(true);
    try {
      setAnswer(await sendTestPost(apiKey, pingId));
    } catch {
      // Raised as a toast already; nothing to show.
    } finally {
      setSending(false);
    }
  };

  return (
    <Section
      title="Test Your First Post"
      description="The post sends the lead for the ping's ping_id; a test post is never sold either."
      actions={<CopyTextButton value={curl} label="Copy post cURL" />}
    >
      <Stack gap="md">
        {pingId ? (
          <Text fz="sm">
            Posts a made-up consumer (Test Lead) for the ping_id your test ping answered. The cURL command makes a new
            Idempotency-Key each run: send a new key with every lead, and the same key only to retry the same post.
          </Text>
        ) : (
          <Text fz="sm" c="dimmed">
            Send a test ping first: the post uses the ping_id it answers.
          </Text>
        )}
        <Group>
          <Button leftSection={<IconSend size={16} />} onClick={send} loading={sending} disabled={!apiKey || !pingId}>
            Send Test Post
          </Button>
        </Group>
        {answer && <RawAnswer answer={answer} label="Test post response" />}
        <Code block>{curl}</Code>
      </Stack>
    </Section>
  );
}

import {
  isPingPost,
  testFields,
  testOutcome,
  type Webhook,
  type WebhookPingTestResult,
  type WebhookTestResult,
} from '@leadex/domain';
import {
  Alert,
  Badge,
  Button,
  Code,
  Divider,
  Group,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { BID_OUTCOME_COLORS, bidOutcomeLabel } from '../leads/leadFormat';
import { useTestWebhook, useWebhookTemplate } from './deliveries.api';

const OUTCOME_COLOR = { Error: 'red', Accepted: 'green', 'Not Accepted': 'yellow' } as const;

/** The field the post gets from the ping's answer (the buyer's id of its bid), not typed in. */
const FROM_THE_PING = 'buyer_ping_id';

/**
 * The Test modal's inputs: each mapped field with a value, once (admin §2); for a Ping/Post delivery
 * the ping's mapped fields first, and not the buyer's ping id, which the test ping's answer gives.
 */
function testInputs(webhook: Webhook): string[] {
  if (!isPingPost(webhook.ping_id)) return testFields(webhook.map);
  return testFields([...(webhook.ping?.map ?? []), ...webhook.map]).filter((field) => field !== FROM_THE_PING);
}

/** Shows a body as it was: JSON pretty-printed, anything else as text. */
function pretty(value: unknown): string {
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2) ?? '';
}

function Block({ label, text }: { label: string; text: string }) {
  return (
    <div>
      <Text fz="sm" fw={600} mb={4}>
        {label}
      </Text>
      <Code block fz="xs" style={{ maxHeight: 260, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {text || '(empty)'}
      </Code>
    </div>
  );
}

/** One call the test made: its line (badge, status, duration), why no answer came, and what went and came back. */
function CallResult({
  title,
  badge,
  color,
  result,
  note,
  testId,
}: {
  title: string;
  badge: string;
  color: string;
  result: Omit<WebhookTestResult, 'accept' | 'ping'>;
  /** More of the line: the Return ID, the buyer's ping id. */
  note?: string;
  testId: string;
}) {
  return (
    <Stack gap="sm" data-testid={testId}>
      <Group gap="sm">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Badge color={color} variant="filled" size="lg">
          {badge}
        </Badge>
        <Text fz="sm" c="dimmed">
          {result.status ? `HTTP ${result.status}` : 'No answer'} · {result.durationMs} ms{note ?? ''}
        </Text>
      </Group>
      {result.error && (
        <Alert color="red" title="No answer">
          {result.error}
        </Alert>
      )}
      <Block label="URL" text={result.url} />
      <Block label="Request Headers" text={pretty(result.reqHeaders)} />
      <Block label="Request Body" text={pretty(result.reqBody)} />
      <Block label="Response Body" text={result.body ? pretty(result.body) : pretty(result.data)} />
    </Stack>
  );
}

/** The test ping of a Ping/Post delivery: the call, and the bid read from its answer or why there is none. */
function PingResult({ ping }: { ping: WebhookPingTestResult }) {
  return (
    <>
      <CallResult
        title="Ping Response"
        badge={bidOutcomeLabel(ping.outcome, ping.bid)}
        color={BID_OUTCOME_COLORS[ping.outcome]}
        result={ping}
        note={ping.buyer_ping_id ? ` · Buyer Ping ID ${ping.buyer_ping_id}` : undefined}
        testId="ping-response"
      />
      {ping.outcome !== 'bid' && ping.reason && !ping.error && (
        <Alert color="yellow" title="No bid">
          {ping.reason}
        </Alert>
      )}
    </>
  );
}

/**
 * The Test Results dialog (admin §2, portals §2): one input per mapped field with a value, Send
 * Test, then the Test Response with its badge (Error at status 400 or higher, Accepted, Not
 * Accepted), the URL, the request headers and body, and the response body, scrolled into view. A
 * Ping/Post delivery sends a test ping first, shows its bid (or why none), then the test post.
 */
export function DeliveryTestModal({
  webhook,
  opened,
  onClose,
}: {
  webhook: Webhook;
  opened: boolean;
  onClose: () => void;
}) {
  const fields = useMemo(() => testInputs(webhook), [webhook]);
  const pingPost = isPingPost(webhook.ping_id);
  const template = useWebhookTemplate();
  const samples = useMemo(
    () => Object.fromEntries((template.data?.fields ?? []).map((f) => [f.field, f.sample])),
    [template.data],
  );
  const [values, setValues] = useState<Record<string, string>>({});
  const test = useTestWebhook(webhook._id);
  const [result, setResult] = useState<WebhookTestResult | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);

  // Each opening starts from the samples, without an old answer.
  useEffect(() => {
    if (!opened) return;
    setValues(Object.fromEntries(fields.map((field) => [field, samples[field] ?? ''])));
    setResult(null);
  }, [opened, fields, samples]);

  useEffect(() => {
    if (result) resultRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }, [result]);

  const send = async () => {
    const body = Object.fromEntries(fields.map((field) => [`test_${field}`, values[field] ?? '']));
    setResult(null);
    setResult(await test.mutateAsync(body));
  };

  const outcome = result && testOutcome(result);
  return (
    <Modal opened={opened} onClose={onClose} title="Test Results" size="xl">
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          {pingPost && webhook.ping
            ? `Sends a test ping to ${webhook.ping.method} ${webhook.ping.url}, then a test lead to ${webhook.method} ${webhook.url}, with the values below.`
            : `Sends a test lead to ${webhook.method} ${webhook.url} with the values below.`}
        </Text>
        {fields.length === 0 ? (
          <Alert color="gray">No mapped field has a value: the test sends the hardcoded values only.</Alert>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {fields.map((field) => (
              <TextInput
                key={field}
                label={field}
                name={`test_${field}`}
                value={values[field] ?? ''}
                onChange={(event) => {
                  const next = event.currentTarget.value;
                  setValues((current) => ({ ...current, [field]: next }));
                }}
              />
            ))}
          </SimpleGrid>
        )}
        <Group justify="flex-end">
          <Button leftSection={<IconSend size={16} />} onClick={send} loading={test.isPending}>
            Send Test
          </Button>
        </Group>
        {result && outcome && (
          <Stack gap="lg" ref={resultRef}>
            {result.ping && (
              <>
                <PingResult ping={result.ping} />
                <Divider />
              </>
            )}
            <CallResult
              title={pingPost ? 'Post Response' : 'Test Response'}
              badge={outcome}
              color={OUTCOME_COLOR[outcome]}
              result={result}
              note={result.returnId ? ` · Return ID ${result.returnId}` : undefined}
              testId="test-response"
            />
            {(result.reason || result.retry) && !result.error && (
              <Alert color="yellow" title={result.retry ? 'Try again: a real delivery would be retried' : 'Reason'}>
                {result.reason ?? 'The answer holds the retry rules.'}
              </Alert>
            )}
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}

import { testFields, testOutcome, type Webhook, type WebhookTestResult } from '@leadex/domain';
import { Alert, Badge, Button, Code, Group, Modal, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTestWebhook, useWebhookTemplate } from './deliveries.api';

const OUTCOME_COLOR = { Error: 'red', Accepted: 'green', 'Not Accepted': 'yellow' } as const;

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

/**
 * The Test Results dialog (admin §2, portals §2): one input per mapped field with a value, Send
 * Test, then the Test Response with its badge (Error at status 400 or higher, Accepted, Not
 * Accepted), the URL, the request headers and body, and the response body, scrolled into view.
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
  const fields = useMemo(() => testFields(webhook.map), [webhook.map]);
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
    <Modal opened={opened} onClose={onClose} title={<Title order={4}>Test Results</Title>} size="xl">
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          Sends a test lead to {webhook.method} {webhook.url} with the values below.
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
          <Stack gap="sm" ref={resultRef} data-testid="test-response">
            <Group gap="sm">
              <Title order={5}>Test Response</Title>
              <Badge color={OUTCOME_COLOR[outcome]} variant="filled" size="lg">
                {outcome}
              </Badge>
              <Text fz="sm" c="dimmed">
                {result.status ? `HTTP ${result.status}` : 'No answer'} · {result.durationMs} ms
                {result.returnId ? ` · Return ID ${result.returnId}` : ''}
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
        )}
      </Stack>
    </Modal>
  );
}

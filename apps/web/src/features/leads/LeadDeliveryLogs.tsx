import {
  DELIVERY_CHANNEL_LABELS,
  DELIVERY_CHANNELS,
  type DeliveryChannel,
  type LeadDeliveryAttempt,
  type LeadDetail,
  type LeadMatch,
} from '@leadex/domain';
import { Accordion, Badge, Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Section } from '../../components/Section';
import { formatTimestamp } from '../../lib/format';
import { showSuccess } from '../../lib/notify';
import { DeliveryStatusBadge } from './LeadBadges';
import { useResendDelivery } from './leads.api';

/** A match's channels that were tried, in the order the logs show them. */
function channelsOf(match: LeadMatch): [DeliveryChannel, LeadDeliveryAttempt[]][] {
  return DELIVERY_CHANNELS.map((c) => [c, match[c] ?? []] as [DeliveryChannel, LeadDeliveryAttempt[]]).filter(
    ([, attempts]) => attempts.length > 0,
  );
}

/**
 * Whether a match has a failed delivery to resend (DESIGN.md §6): it is undelivered after its retries,
 * or a target has not accepted any try yet (the server resends the targets never accepted).
 */
export function deliveryFailed(match: LeadMatch): boolean {
  if (match.reject) return false;
  if (match.delivery_status === 'undelivered') return true;
  const tried = new Set<string>();
  const accepted = new Set<string>();
  for (const [channel, attempts] of channelsOf(match)) {
    for (const attempt of attempts) {
      tried.add(`${channel} ${attempt.target}`);
      if (attempt.accept) accepted.add(`${channel} ${attempt.target}`);
    }
  }
  return [...tried].some((target) => !accepted.has(target));
}

/** What an attempt's status reads: the email's event or the SMS status where there is one. */
function attemptStatus(attempt: LeadDeliveryAttempt): string | undefined {
  if (typeof attempt.status === 'string') return attempt.status;
  if (Array.isArray(attempt.status)) return attempt.status.at(-1)?.data.event;
  return undefined;
}

/**
 * Admin §2 and DESIGN.md §6: each match's delivery logs (custom delivery, webhook, every broadcast
 * webhook, email, SMS), each attempt with its time, target, outcome, duration and the excerpts of
 * what was sent and answered; Resend on a failed delivery.
 */
export function LeadDeliveryLogs({ lead }: { lead: LeadDetail }) {
  const matches = lead.match ?? [];
  return (
    <Section title="Delivery Logs" description="Every try to hand the lead to each buyer.">
      {matches.length === 0 ? (
        <Text fz="sm" c="dimmed">
          Nothing was delivered: no buyer bought this lead.
        </Text>
      ) : (
        <Accordion multiple defaultValue={matches.map((m) => m._id)} variant="separated">
          {matches.map((match) => (
            <Accordion.Item key={match._id} value={match._id}>
              <Accordion.Control>
                <Group component="span" gap="sm" wrap="wrap">
                  <Text component="span" fw={600} fz="sm">
                    {match.buyer.name ?? match.buyer._id}
                  </Text>
                  <Text component="span" fz="sm" c="dimmed">
                    {match.campaign.name}
                  </Text>
                  {match.reject ? (
                    <Badge component="span" color="red" variant="light">
                      Rejected
                    </Badge>
                  ) : (
                    <DeliveryStatusBadge status={match.delivery_status} />
                  )}
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <MatchLogs leadId={lead._id} match={match} />
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Section>
  );
}

function MatchLogs({ leadId, match }: { leadId: string; match: LeadMatch }) {
  const resend = useResendDelivery(leadId);
  const channels = channelsOf(match);
  const failed = deliveryFailed(match);
  const buyer = match.buyer.name ?? 'the buyer';
  return (
    <Stack gap="md">
      {failed && (
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fz="sm" c="red.8">
            The delivery to {buyer} failed.
          </Text>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconRefresh size={16} />}
            loading={resend.isPending}
            onClick={async () => {
              const { queued } = await resend.mutateAsync(match._id);
              showSuccess(`Resending to ${buyer}: ${queued} ${queued === 1 ? 'delivery' : 'deliveries'} queued.`);
            }}
          >
            Resend
          </Button>
        </Group>
      )}
      {channels.length === 0 ? (
        <Text fz="sm" c="dimmed">
          No delivery attempts yet.
        </Text>
      ) : (
        channels.map(([channel, attempts]) => (
          <Stack key={channel} gap={6}>
            <Title order={3} size="h5">
              {DELIVERY_CHANNEL_LABELS[channel]}
            </Title>
            <Accordion multiple chevronPosition="left" variant="contained">
              {attempts.map((attempt) => (
                <AttemptItem key={attempt._id} attempt={attempt} />
              ))}
            </Accordion>
          </Stack>
        ))
      )}
    </Stack>
  );
}

function AttemptItem({ attempt }: { attempt: LeadDeliveryAttempt }) {
  const status = attemptStatus(attempt);
  return (
    <Accordion.Item value={attempt._id}>
      <Accordion.Control>
        <Group component="span" gap="sm" wrap="wrap" fz="sm">
          <Text component="span" fz="sm" c="dimmed">
            #{attempt.attempt}
          </Text>
          <Text component="span" fz="sm">
            {formatTimestamp(attempt.ts)}
          </Text>
          <Text component="span" fz="sm" fw={500} style={{ wordBreak: 'break-all' }}>
            {attempt.target}
          </Text>
          <Badge component="span" color={attempt.accept ? 'green' : 'red'} variant="light">
            {attempt.accept ? 'Accepted' : 'Failed'}
            {attempt.status_code ? ` · ${attempt.status_code}` : ''}
          </Badge>
          {status && (
            <Text component="span" fz="xs" c="dimmed">
              {status}
            </Text>
          )}
          <Text component="span" fz="sm" c="dimmed">
            {attempt.duration_ms} ms
          </Text>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <CallExcerpts call={attempt} />
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/**
 * One call to a buyer's system in a log: what `children` say of it, why it failed (in red when
 * `failed`, as it is unless told), and what was sent and answered.
 */
export function CallExcerpts({
  call,
  failed = true,
  children,
}: {
  call: { error?: string; request?: string; response?: string };
  failed?: boolean;
  children?: ReactNode;
}) {
  return (
    <Stack gap="xs">
      {children}
      {call.error && (
        <Text fz="sm" c={failed ? 'red.8' : undefined}>
          {call.error}
        </Text>
      )}
      <Excerpt label="Request" text={call.request} />
      <Excerpt label="Response" text={call.response} />
    </Stack>
  );
}

/** What was sent or answered, as text (never rendered as HTML). */
function Excerpt({ label, text }: { label: string; text: string | undefined }) {
  return (
    <div>
      <Text fz="xs" fw={600} tt="uppercase" c="dimmed">
        {label}
      </Text>
      {text ? (
        <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {text}
        </Code>
      ) : (
        <Text fz="sm" c="dimmed">
          None
        </Text>
      )}
    </div>
  );
}

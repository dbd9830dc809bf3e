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
import { Labeled, RecordLink } from './LeadFields';
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

/** Where one channel of a match stands: every target accepted, some of them, or none yet. */
export interface ChannelState {
  channel: DeliveryChannel;
  state: 'delivered' | 'partial' | 'failed';
  targets: number;
  accepted: number;
}

/** Each tried channel's state (issue 27: a broadcast with one webhook failing is partial, not delivered). */
export function channelStates(match: LeadMatch): ChannelState[] {
  return channelsOf(match).map(([channel, attempts]) => {
    const targets = new Set(attempts.map((a) => a.target));
    const accepted = new Set(attempts.filter((a) => a.accept).map((a) => a.target));
    const state = accepted.size === targets.size ? 'delivered' : accepted.size > 0 ? 'partial' : 'failed';
    return { channel, state, targets: targets.size, accepted: accepted.size };
  });
}

const CHANNEL_STATE_STYLES: Record<ChannelState['state'], { label: string; color: string }> = {
  delivered: { label: 'Delivered', color: 'green' },
  partial: { label: 'Partial', color: 'orange' },
  failed: { label: 'Failed', color: 'red' },
};

function ChannelStateBadge({ state }: { state: ChannelState }) {
  const style = CHANNEL_STATE_STYLES[state.state];
  return (
    <Badge component="span" color={style.color} variant="light">
      {style.label}
      {state.targets > 1 ? ` · ${state.accepted} of ${state.targets}` : ''}
    </Badge>
  );
}

/**
 * Where a match's deliveries stand, as a badge: Partially delivered when some targets took the lead
 * and others did not (never Delivered beside a failure, issue 27); else its delivery status.
 */
export function MatchDeliveryBadge({ match }: { match: LeadMatch }) {
  const states = channelStates(match);
  const someFailed = states.some((s) => s.state !== 'delivered');
  const someAccepted = states.some((s) => s.accepted > 0);
  if (!match.reject && match.delivery_status !== 'undelivered' && someFailed && someAccepted)
    return (
      <Badge component="span" color="orange" variant="light">
        Partially delivered
      </Badge>
    );
  return <DeliveryStatusBadge status={match.delivery_status} />;
}

/** The match's badge in the logs: Rejected, or where its deliveries stand. */
function MatchBadge({ match }: { match: LeadMatch }) {
  if (match.reject)
    return (
      <Badge component="span" color="red" variant="light">
        Rejected
      </Badge>
    );
  return <MatchDeliveryBadge match={match} />;
}

/**
 * Admin §2 and DESIGN.md §6: each match's delivery logs (custom delivery, webhook, every broadcast
 * webhook, email, SMS), each channel with its state, each attempt with its time, target, outcome,
 * duration and the excerpts of what was sent and answered; Resend on a failed delivery. The buyer,
 * the campaign and each custom delivery are named and linked.
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
                    {match.buyer.name ?? 'Buyer'}
                  </Text>
                  <Text component="span" fz="sm" c="dimmed">
                    {match.campaign.name}
                  </Text>
                  <MatchBadge match={match} />
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
  const states = new Map(channelStates(match).map((s) => [s.channel, s]));
  const failed = deliveryFailed(match);
  const buyer = match.buyer.name ?? 'the buyer';
  const failing = [...states.values()].filter((s) => s.state !== 'delivered');
  const partial = failing.length > 0 && [...states.values()].some((s) => s.accepted > 0);
  return (
    <Stack gap="md">
      <Group gap="lg" fz="sm" wrap="wrap">
        <Labeled label="Buyer">
          <RecordLink to={`/buyer/${match.buyer._id}`}>{match.buyer.name ?? 'Open the buyer'}</RecordLink>
        </Labeled>
        <Labeled label="Campaign">
          <RecordLink to={`/campaign/${match.campaign._id}`}>{match.campaign.name}</RecordLink>
        </Labeled>
        {match.buyer_lead_id && (
          <Labeled label="Buyer Lead ID">
            <Text fz="sm">{match.buyer_lead_id}</Text>
          </Labeled>
        )}
        {match.delivery_reason && (
          <Labeled label="Buyer's Reason">
            <Text fz="sm" c="red.8">
              {match.delivery_reason}
            </Text>
          </Labeled>
        )}
      </Group>
      {failed && (
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fz="sm" c="red.8">
            {partial
              ? `Part of the delivery to ${buyer} failed: ${failing
                  .map(
                    (s) => `${DELIVERY_CHANNEL_LABELS[s.channel]} (${s.targets - s.accepted} of ${s.targets} failed)`,
                  )
                  .join(', ')}.`
              : `The delivery to ${buyer} failed.`}
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
        channels.map(([channel, attempts]) => {
          const state = states.get(channel);
          return (
            <Stack key={channel} gap={6}>
              <Group gap="sm">
                <Title order={3} size="h5">
                  {DELIVERY_CHANNEL_LABELS[channel]}
                </Title>
                {state && <ChannelStateBadge state={state} />}
              </Group>
              <Accordion multiple chevronPosition="left" variant="contained">
                {attempts.map((attempt) => (
                  <AttemptItem key={attempt._id} attempt={attempt} />
                ))}
              </Accordion>
            </Stack>
          );
        })
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
            {attempt.delivery?.name ?? attempt.target}
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
        <CallExcerpts call={attempt}>
          {attempt.delivery && (
            <Labeled label="Delivery">
              <RecordLink to={`/delivery/${attempt.delivery._id}`}>{attempt.delivery.name}</RecordLink>
            </Labeled>
          )}
        </CallExcerpts>
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

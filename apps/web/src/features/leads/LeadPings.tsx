import type { LeadDetail, LeadPingCall } from '@leadex/domain';
import { Accordion, Badge, Group, Text } from '@mantine/core';
import { Section } from '../../components/Section';
import { formatTimestamp } from '../../lib/format';
import { CallExcerpts } from './LeadDeliveryLogs';
import { Labeled, RecordLink } from './LeadFields';
import { BID_OUTCOME_COLORS, bidOutcomeLabel } from './leadFormat';

/**
 * DESIGN.md §6: the pings of the Ping/Post buyers for this lead (sent before it was sold), each with
 * its buyer, delivery, outcome and bid, status, duration, time and the excerpts of what was sent and
 * answered. What a buyer answered is shown as text, never run. The posts are in the Delivery Logs.
 */
export function LeadPings({ lead }: { lead: LeadDetail }) {
  const pings = lead.pings ?? [];
  if (pings.length === 0) return null;
  const bids = pings.filter((p) => p.outcome === 'bid').length;
  return (
    <Section
      title="Pings"
      description={`${pings.length} ${pings.length === 1 ? 'Ping/Post buyer was' : 'Ping/Post buyers were'} asked for a bid before the sale, ${bids} bid. The winner's post is in the Delivery Logs.`}
    >
      <Accordion multiple chevronPosition="left" variant="contained">
        {pings.map((ping) => (
          <PingItem key={ping._id} ping={ping} />
        ))}
      </Accordion>
    </Section>
  );
}

function PingItem({ ping }: { ping: LeadPingCall }) {
  return (
    <Accordion.Item value={ping._id}>
      <Accordion.Control>
        <Group component="span" gap="sm" wrap="wrap" fz="sm">
          <Text component="span" fz="sm">
            {formatTimestamp(ping.ts)}
          </Text>
          <Text component="span" fz="sm" fw={600}>
            {ping.buyer.name ?? ping.buyer._id}
          </Text>
          <Text component="span" fz="sm" c="dimmed">
            {ping.delivery.name ?? ping.delivery._id}
          </Text>
          <Badge component="span" color={BID_OUTCOME_COLORS[ping.outcome]} variant="light">
            {bidOutcomeLabel(ping.outcome, ping.bid)}
            {ping.status_code ? ` · ${ping.status_code}` : ''}
          </Badge>
          <Text component="span" fz="sm" c="dimmed">
            {ping.duration_ms} ms
          </Text>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        {/* A buyer declining to bid is an answer, not a failure. */}
        <CallExcerpts call={ping} failed={ping.outcome !== 'no_bid'}>
          <Group gap="lg" fz="sm">
            <Labeled label="Buyer">
              <RecordLink to={`/buyer/${ping.buyer._id}`}>{ping.buyer.name ?? ping.buyer._id}</RecordLink>
            </Labeled>
            <Labeled label="Delivery">
              <RecordLink to={`/delivery/${ping.delivery._id}`}>{ping.delivery.name ?? ping.delivery._id}</RecordLink>
            </Labeled>
            {ping.buyer_ping_id && (
              <Labeled label="Buyer Ping ID">
                <Text fz="sm">{ping.buyer_ping_id}</Text>
              </Labeled>
            )}
          </Group>
        </CallExcerpts>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

import type { Source } from '@leadex/domain';
import { Alert, Badge, type BadgeProps } from '@mantine/core';
import { IconHourglass, IconInfoCircle, IconPlayerPause } from '@tabler/icons-react';
import { formatDate, formatTimestamp } from '../../lib/format';

/**
 * Whether the source's real leads sell, and if not why (issue 27): on hold; awaiting the provider's
 * approval (self-signed-up); approved but paid nothing yet (no lead cost, no channel's); or active.
 */
export type SellingState = 'held' | 'awaiting_approval' | 'no_payout' | 'active';

export function sellingState(source: Pick<Source, 'hold' | 'approved' | 'needs_payout'>): SellingState {
  if (source.hold) return 'held';
  if (!source.approved) return 'awaiting_approval';
  if (source.needs_payout) return 'no_payout';
  return 'active';
}

/** The status badge of the source's own pages: Active, On hold as of a date, Awaiting approval or No payout set. */
export function SellingBadge({ source, ...props }: { source: Source } & Omit<BadgeProps, 'color'>) {
  const state = sellingState(source);
  if (state === 'held' && source.hold)
    return (
      <Badge color="red" variant="light" title={`On hold since ${formatTimestamp(source.hold.ts)}`} {...props}>
        On hold as of {formatDate(source.hold.ts)}
      </Badge>
    );
  if (state === 'awaiting_approval')
    return (
      <Badge color="orange" variant="light" {...props}>
        Awaiting approval
      </Badge>
    );
  if (state === 'no_payout')
    return (
      <Badge color="orange" variant="light" {...props}>
        No payout set
      </Badge>
    );
  return (
    <Badge color="green" variant="light" {...props}>
      Active
    </Badge>
  );
}

/** What the source can send now, in words, unless it is simply active. */
export function SellingNotice({ source }: { source: Source }) {
  const state = sellingState(source);
  if (state === 'held' && source.hold)
    return (
      <Alert color="red" variant="light" icon={<IconPlayerPause />} title="Your account is on hold">
        Since {formatDate(source.hold.ts)} your pings, posts and leads are refused, test ones included, until your
        provider lifts the hold. Contact your provider.
      </Alert>
    );
  if (state === 'awaiting_approval')
    return (
      <Alert color="orange" variant="light" icon={<IconHourglass />} title="Awaiting approval">
        Test leads work now: send them with test set to true. Real leads sell once your provider approves your account;
        until then they are answered not_approved.
      </Alert>
    );
  if (state === 'no_payout')
    return (
      <Alert color="orange" variant="light" icon={<IconInfoCircle />} title="No payout set">
        Your provider has not set what it pays you per lead yet, so your real leads cannot sell: they are answered
        no_payout. Test leads work. Contact your provider.
      </Alert>
    );
  return null;
}

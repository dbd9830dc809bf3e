import type { ApiKeyStatus, SourceStatus } from '@leadex/domain';
import { Badge, type BadgeProps } from '@mantine/core';

const SOURCE_COLORS: Record<SourceStatus, string> = {
  Active: 'green',
  'On Hold': 'red',
  'Test Sent': 'blue',
  'No Activity': 'gray',
};

/** The derived source status (admin spec §4): Active, On Hold, Test Sent or No Activity. */
export function SourceStatusBadge({ status, ...props }: { status: SourceStatus } & Omit<BadgeProps, 'color'>) {
  return (
    // A span, so the badge may sit in a line of text (the detail page's header).
    <Badge component="span" color={SOURCE_COLORS[status]} variant="light" {...props}>
      {status}
    </Badge>
  );
}

/** A self-signed-up source an admin has not approved yet: it may only send test leads. */
export function AwaitingApprovalBadge(props: Omit<BadgeProps, 'color'>) {
  return (
    <Badge component="span" color="orange" variant="light" {...props}>
      Awaiting approval
    </Badge>
  );
}

/** A self-signed-up source with no payout (no lead cost, no channel's): its real leads cannot sell (issue 27). */
export function NoPayoutBadge(props: Omit<BadgeProps, 'color'>) {
  return (
    <Badge component="span" color="red" variant="light" {...props}>
      No payout set
    </Badge>
  );
}

const KEY_COLORS: Record<ApiKeyStatus, string> = { Active: 'green', 'On hold': 'red', Expired: 'gray' };

/** An API key's status (admin spec §4): Active, On hold or Expired. */
export function ApiKeyStatusBadge({ status }: { status: ApiKeyStatus }) {
  return (
    <Badge color={KEY_COLORS[status]} variant="light">
      {status}
    </Badge>
  );
}

/** Yes / No as a small badge. */
export function YesNoBadge({ value }: { value: boolean }) {
  return (
    <Badge color={value ? 'teal' : 'gray'} variant="light">
      {value ? 'Yes' : 'No'}
    </Badge>
  );
}

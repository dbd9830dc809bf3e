import { Badge, type BadgeProps } from '@mantine/core';

/** A record's status as the API gives it: a word, or the flags `{ live, draft, pause }` of campaigns. */
export type StatusValue = string | { live?: boolean; draft?: boolean; pause?: boolean } | null | undefined;

const STYLES = {
  live: { label: 'Live', color: 'green' },
  pause: { label: 'Paused', color: 'red' },
  draft: { label: 'Draft', color: 'yellow' },
  unknown: { label: 'Unknown', color: 'gray' },
} as const;

/** Reduces the accepted spellings to one of live, pause, draft or unknown. */
export function statusKey(status: StatusValue): keyof typeof STYLES {
  if (status && typeof status === 'object') {
    if (status.live) return 'live';
    if (status.pause) return 'pause';
    if (status.draft) return 'draft';
    return 'unknown';
  }
  switch (status?.toLowerCase()) {
    case 'live':
      return 'live';
    case 'pause':
    case 'paused':
      return 'pause';
    case 'draft':
      return 'draft';
    default:
      return 'unknown';
  }
}

export interface StatusBadgeProps extends Omit<BadgeProps, 'color' | 'children'> {
  status: StatusValue;
}

/** Live green, Paused red, Draft yellow, anything else Unknown gray (portals spec §2). */
export function StatusBadge({ status, ...props }: StatusBadgeProps) {
  const { label, color } = STYLES[statusKey(status)];
  return (
    <Badge color={color} variant="light" {...props}>
      {label}
    </Badge>
  );
}

import { RETURN_STATUS_LABELS, type ReturnStatus } from '@leadex/domain';
import { Badge, type BadgeProps } from '@mantine/core';
import type { ComponentPropsWithoutRef, Ref } from 'react';

/**
 * Admin §2 and portals §2: consent and homeowner flags read as Yes/No badges; a flag the source did not
 * send reads Unknown (issue 32), never No.
 */
export function YesNoBadge({ value, ...props }: { value: boolean | null | undefined } & Omit<BadgeProps, 'children'>) {
  if (value === undefined || value === null)
    return (
      <Badge component="span" color="gray" variant="outline" {...props}>
        Unknown
      </Badge>
    );
  return (
    <Badge component="span" color={value ? 'green' : 'gray'} variant="light" {...props}>
      {value ? 'Yes' : 'No'}
    </Badge>
  );
}

const RETURN_COLORS: Record<ReturnStatus, string> = { requested: 'yellow', approved: 'green', denied: 'red' };

/**
 * A return's badge: Return Requested (yellow), Returned (green) or Return Denied (red) for the admin
 * (admin §2); a buyer reads Return Approved rather than Returned (portals §4). It passes on its ref and
 * the event handlers a wrapper gives it, so a Mantine Tooltip around it can find it and open on hover.
 */
export function ReturnStatusBadge({
  status,
  viewer,
  ref,
  ...rest
}: { status: ReturnStatus; viewer: 'admin' | 'buyer'; ref?: Ref<HTMLSpanElement> } & Omit<
  ComponentPropsWithoutRef<'span'>,
  'children' | 'color'
>) {
  const label = viewer === 'buyer' && status === 'approved' ? 'Return Approved' : RETURN_STATUS_LABELS[status];
  return (
    <Badge
      ref={ref}
      component="span"
      color={RETURN_COLORS[status]}
      variant="light"
      // Whole, never "Re…": a narrow table column grows to the badge instead of cutting it (issue 27).
      styles={{ root: { flexShrink: 0, overflow: 'visible' }, label: { overflow: 'visible' } }}
      {...rest}
    >
      {label}
    </Badge>
  );
}

/** The return status of a match from the spec's shape (reason, approve.approve, deny.deny). */
export function returnStatusOf(
  ret: { reason?: string; approve?: unknown; deny?: unknown } | undefined,
): ReturnStatus | undefined {
  if (!ret) return undefined;
  if (ret.approve) return 'approved';
  if (ret.deny) return 'denied';
  return 'requested';
}

const DELIVERY_STYLES: Record<string, { label: string; color: string }> = {
  pending: { label: 'Pending', color: 'gray' },
  queued: { label: 'Queued', color: 'blue' },
  delivered: { label: 'Delivered', color: 'green' },
  undelivered: { label: 'Undelivered', color: 'red' },
};

/** Where a match's deliveries stand (DESIGN.md §6). */
export function DeliveryStatusBadge({ status }: { status: string | undefined }) {
  if (!status) return null;
  const style = DELIVERY_STYLES[status] ?? { label: status, color: 'gray' };
  return (
    <Badge component="span" color={style.color} variant="light">
      {style.label}
    </Badge>
  );
}

/** A test lead (sent with test=true) is marked wherever it is listed. */
export function TestBadge() {
  return (
    <Badge component="span" color="blue" variant="outline" size="sm">
      Test
    </Badge>
  );
}

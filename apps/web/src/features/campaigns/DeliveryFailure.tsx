import type { CampaignDeliveryFailure } from '@leadex/domain';
import { Alert, Anchor, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatTimestamp } from '../../lib/format';

/**
 * A campaign row's line in red (DESIGN.md §6: the last failure of the buyer's custom delivery is
 * shown in red on its campaigns): the error text, with the delivery and the time in a tooltip.
 */
export function DeliveryFailureLine({ failure }: { failure: CampaignDeliveryFailure | null | undefined }) {
  if (!failure) return null;
  return (
    <Tooltip
      multiline
      maw={420}
      withArrow
      label={`${failure.delivery} failed ${formatTimestamp(failure.ts)}: ${failure.message}`}
    >
      <Group gap={4} wrap="nowrap" mt={2} maw={360} data-testid="delivery-failure">
        <IconAlertTriangle size={14} color="var(--mantine-color-red-filled)" style={{ flexShrink: 0 }} />
        <Text fz="xs" c="red" fw={500} truncate>
          Delivery failing: {failure.message}
        </Text>
      </Group>
    </Tooltip>
  );
}

/** The campaign screen's red alert: which delivery failed (a link to it), when, and its error text. */
export function DeliveryFailureAlert({ failure }: { failure: CampaignDeliveryFailure | null | undefined }) {
  if (!failure) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle />} title="Last delivery failure">
      <Stack gap={4}>
        <Text fz="sm">
          <Anchor component={Link} to={`/delivery/${failure.delivery_id}`} c="red" fw={600} fz="sm" underline="always">
            {failure.delivery}
          </Anchor>{' '}
          failed on {formatTimestamp(failure.ts)}. A success clears this message.
        </Text>
        <Text fz="sm" c="red" ff="monospace" style={{ wordBreak: 'break-word' }}>
          {failure.message}
        </Text>
      </Stack>
    </Alert>
  );
}

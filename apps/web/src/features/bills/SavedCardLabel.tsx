import type { PaymentCard } from '@leadex/domain';
import { Badge, Group, Text } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';

const expiry = (month: number, year: number) => `${String(month).padStart(2, '0')}/${year}`;

/** A saved card as Payment Information and the profile list it: brand, last four, expiry, Default. */
export function SavedCardLabel({ card }: { card: PaymentCard }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <IconCreditCard size={18} />
      <Text fz="sm" tt="capitalize">
        {card.card.brand} •••• {card.card.last4}
      </Text>
      <Text fz="sm" c="dimmed">
        expires {expiry(card.card.exp_month, card.card.exp_year)}
      </Text>
      {card.default && (
        <Badge variant="light" color="green">
          Default
        </Badge>
      )}
    </Group>
  );
}

import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageLoader } from '../../components/PageLoader';
import { Section } from '../../components/Section';
import { usePaymentInformation } from './cards.api';

const expiry = (month: number, year: number) => `${String(month).padStart(2, '0')}/${year}`;

/**
 * The buyer profile's Payment Cards (portals spec §2 /buyer): the saved cards, read-only; they are
 * added, made default and deleted in Payment Information on the home page.
 */
export function PaymentCardsSection({ buyerId }: { buyerId: string }) {
  const info = usePaymentInformation(buyerId);
  const cards = info.data?.paymentMethods ?? [];
  return (
    <Section
      title="Payment Cards"
      description={
        <>
          The cards your bills are charged to. Add or change them in{' '}
          <Anchor component={Link} to="/" fz="sm" underline="always">
            Payment Information
          </Anchor>
          .
        </>
      }
    >
      {info.isPending ? (
        <PageLoader />
      ) : cards.length === 0 ? (
        <Text fz="sm" c="dimmed">
          No saved cards
        </Text>
      ) : (
        <Stack gap="xs">
          {cards.map((card) => (
            <Group key={card.id} gap="xs" wrap="nowrap" aria-label={`Card ending ${card.card.last4}`}>
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
          ))}
        </Stack>
      )}
    </Section>
  );
}

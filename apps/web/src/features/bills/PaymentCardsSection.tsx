import { Anchor, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageLoader } from '../../components/PageLoader';
import { Section } from '../../components/Section';
import { usePaymentInformation } from './cards.api';
import { SavedCardLabel } from './SavedCardLabel';

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
            <Group key={card.id} aria-label={`Card ending ${card.card.last4}`}>
              <SavedCardLabel card={card} />
            </Group>
          ))}
        </Stack>
      )}
    </Section>
  );
}

import { type Buyer, PAY_METHOD_LABELS } from '@leadex/domain';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconCreditCard, IconInfoCircle } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { PageLoader } from '../../components/PageLoader';
import { TitledCard } from '../../components/TitledCard';
import { formatMoney } from '../../lib/format';
import { showSuccess } from '../../lib/notify';
import { useCardAction, useCardsRefresh, usePaymentInformation } from './cards.api';
import { SavedCardLabel } from './SavedCardLabel';

// Stripe.js and Elements download only when a buyer opens the card form on an exchange that takes cards.
const StripeCardForm = lazy(() => import('./StripeCardForm'));

/** Cards delete only after this question. */
export const DELETE_CARD_CONFIRM = 'Are you sure you want to delete this card?';

/**
 * Payment Information (portals spec §2, buyer home): the buyer's billing terms, its saved cards (the
 * default one is what the billing run charges), and the card form.
 */
export function PaymentInformation({ buyer }: { buyer: Buyer }) {
  const info = usePaymentInformation(buyer._id);
  const makeDefault = useCardAction(buyer._id, 'updateDefaultPaymentMethod');
  const remove = useCardAction(buyer._id, 'deletePaymentMethod');
  const refresh = useCardsRefresh(buyer._id);
  const [adding, setAdding] = useState(false);
  const cards = info.data?.paymentMethods ?? [];

  return (
    <TitledCard
      title="Payment Information"
      description={
        <>
          {PAY_METHOD_LABELS[buyer.bill.pay]}, billed {buyer.bill.period === 'weekly' ? 'weekly' : 'monthly'}
          {buyer.bill.pay !== 'credit' ? `, ${buyer.bill.grace} grace days` : ''}.
        </>
      }
    >
      {info.isPending ? (
        <PageLoader />
      ) : (
        <Stack gap="sm">
          {info.data?.prepay_balance !== undefined && (
            <Group justify="space-between">
              <Text fz="sm">Prepay balance</Text>
              <Text fz="sm" fw={600} c={info.data.prepay_balance < 0 ? 'red' : undefined}>
                {formatMoney(info.data.prepay_balance)}
              </Text>
            </Group>
          )}
          {info.data?.available !== undefined && (
            <Group justify="space-between">
              <Text fz="sm">Available to spend</Text>
              <Text fz="sm" fw={600}>
                {formatMoney(info.data.available)}
              </Text>
            </Group>
          )}
          {cards.length === 0 && (
            <Text fz="sm" c="dimmed">
              No saved cards
            </Text>
          )}
          {cards.map((card) => (
            <Group key={card.id} justify="space-between" wrap="nowrap" aria-label={`Card ending ${card.card.last4}`}>
              <SavedCardLabel card={card} />
              <Group gap="xs" wrap="nowrap">
                {!card.default && (
                  <Button
                    size="xs"
                    variant="subtle"
                    loading={makeDefault.isPending && makeDefault.variables === card.id}
                    onClick={() =>
                      makeDefault.mutate(card.id, { onSuccess: () => showSuccess('Default card changed') })
                    }
                  >
                    Make Default
                  </Button>
                )}
                <ConfirmButton
                  size="xs"
                  variant="subtle"
                  color="red"
                  confirmText={DELETE_CARD_CONFIRM}
                  confirmColor="red"
                  onConfirm={() => remove.mutateAsync(card.id).then(() => showSuccess('Card deleted'))}
                >
                  Delete
                </ConfirmButton>
              </Group>
            </Group>
          ))}
          {info.data && !info.data.publishableKey ? (
            <Alert color="gray" icon={<IconInfoCircle />} title="Adding a card">
              Cards cannot be added here yet: the exchange has not set up card payments. Contact us to pay by card.
            </Alert>
          ) : adding && info.data?.publishableKey ? (
            <Suspense fallback={<PageLoader />}>
              <StripeCardForm
                buyerId={buyer._id}
                publishableKey={info.data.publishableKey}
                onSaved={() => {
                  setAdding(false);
                  void refresh();
                }}
                onCancel={() => setAdding(false)}
              />
            </Suspense>
          ) : (
            <Group>
              <Button variant="light" leftSection={<IconCreditCard size={16} />} onClick={() => setAdding(true)}>
                Add Card
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </TitledCard>
  );
}

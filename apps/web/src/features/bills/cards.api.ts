import type { PaymentInformation, SetupIntentAnswer } from '@leadex/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

const base = (buyerId: string) => `/api/buyer/${encodeURIComponent(buyerId)}/stripe`;
const cardsKey = (buyerId: string) => ['cards', buyerId] as const;

/** GET /api/buyer/{id}/stripe/paymentMethods: the saved cards, and whether a card can be added. */
export function usePaymentInformation(buyerId: string) {
  return useQuery({
    queryKey: cardsKey(buyerId),
    queryFn: ({ signal }) => api.get<PaymentInformation>(`${base(buyerId)}/paymentMethods`, { signal }),
    enabled: Boolean(buyerId),
  });
}

/** Make a card the default, or delete it; the answer is the new list. */
export function useCardAction(buyerId: string, action: 'updateDefaultPaymentMethod' | 'deletePaymentMethod') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (paymentMethodId: string) =>
      api.put<PaymentInformation>(`${base(buyerId)}/${action}`, { paymentMethodId }),
    onSuccess: (info) => queryClient.setQueryData(cardsKey(buyerId), info),
  });
}

/** GET …/setupPaymentIntent: the client secret the card form confirms with Stripe. */
export const startCardSetup = (buyerId: string) => api.get<SetupIntentAnswer>(`${base(buyerId)}/setupPaymentIntent`);

/** After the browser saved a card with Stripe: read the list again. */
export function useCardsRefresh(buyerId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: cardsKey(buyerId) });
}

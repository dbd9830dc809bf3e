import { Button, Group, Loader, Text } from '@mantine/core';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { useEffect, useState } from 'react';
import { showError, showSuccess } from '../../lib/notify';
import { startCardSetup } from './cards.api';

/** Stripe.js once per key: it loads from Stripe's servers, so only this chunk, only when a key exists. */
const loaded = new Map<string, Promise<Stripe | null>>();
const stripeFor = (key: string) => {
  const existing = loaded.get(key);
  if (existing) return existing;
  const promise = loadStripe(key);
  loaded.set(key, promise);
  return promise;
};

/**
 * The card form (DESIGN.md §11): Stripe Elements confirms a SetupIntent in the browser, so the card's
 * number goes to Stripe only; the saved card then lists with the others.
 */
export default function StripeCardForm({
  buyerId,
  publishableKey,
  onSaved,
}: {
  buyerId: string;
  publishableKey: string;
  onSaved: () => void;
}) {
  const [secret, setSecret] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    startCardSetup(buyerId)
      .then((answer) => live && setSecret(answer.client_secret))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [buyerId]);
  if (!secret)
    return (
      <Group gap="xs">
        <Loader size="xs" />
        <Text fz="sm" c="dimmed">
          Loading the card form…
        </Text>
      </Group>
    );
  return (
    <Elements stripe={stripeFor(publishableKey)} options={{ clientSecret: secret }}>
      <CardForm onSaved={onSaved} />
    </Elements>
  );
}

function CardForm({ onSaved }: { onSaved: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!stripe || !elements) return;
    setSaving(true);
    const { error } = await stripe.confirmSetup({ elements, redirect: 'if_required' });
    setSaving(false);
    if (error) {
      showError(error.message ?? 'Stripe could not save this card');
      return;
    }
    showSuccess('Card saved');
    onSaved();
  };
  return (
    <>
      <PaymentElement />
      <Button mt="md" onClick={() => void save()} loading={saving} disabled={!stripe}>
        Save Card
      </Button>
    </>
  );
}

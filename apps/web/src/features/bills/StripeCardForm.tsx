import { Alert, Button, Group, Loader, Text } from '@mantine/core';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { showError, showSuccess } from '../../lib/notify';
import { startCardSetup } from './cards.api';

/** How long Stripe.js may take to arrive before the form says it cannot load. */
const SCRIPT_TIMEOUT_MS = 20_000;

/** What the form says when Stripe.js cannot load (blocked, offline, or not allowed by the page). */
export const CARD_FORM_UNAVAILABLE =
  'The card form could not load: your browser could not reach Stripe (js.stripe.com). Check your connection or any blocker, then try again.';

/**
 * Stripe.js once per key: it loads from Stripe's servers, so only this chunk, only when a key exists. A
 * failed load is forgotten, so Try again fetches the script again.
 */
const loaded = new Map<string, Promise<Stripe>>();
const stripeFor = (key: string) => {
  const existing = loaded.get(key);
  if (existing) return existing;
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error('Stripe.js took too long to load')), SCRIPT_TIMEOUT_MS),
  );
  const promise = Promise.race([loadStripe(key), timeout]).then((stripe) => {
    if (!stripe) throw new Error('Stripe.js did not start');
    return stripe;
  });
  promise.catch(() => loaded.delete(key));
  loaded.set(key, promise);
  return promise;
};

type Stage =
  | { step: 'loading' }
  | { step: 'failed'; message: string }
  | { step: 'ready'; stripe: Stripe; secret: string };

/**
 * The card form (DESIGN.md §11): Stripe Elements confirms a SetupIntent in the browser, so the card's
 * number goes to Stripe only; the saved card then lists with the others. Stripe.js loads first, and the
 * SetupIntent is asked for only once it has (issue 27): a form that cannot show starts nothing at
 * Stripe. A script that cannot load is said in words, with Try again and Cancel.
 */
export default function StripeCardForm({
  buyerId,
  publishableKey,
  onSaved,
  onCancel,
}: {
  buyerId: string;
  publishableKey: string;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [stage, setStage] = useState<Stage>({ step: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setStage({ step: 'loading' });
    // `attempt` starts it again (Try again).
    void attempt;
    stripeFor(publishableKey).then(
      (stripe) => {
        // A form gone meanwhile (Cancel, or shown again) must not start a SetupIntent it will not use.
        if (!live) return;
        startCardSetup(buyerId).then(
          (answer) => live && setStage({ step: 'ready', stripe, secret: answer.client_secret ?? '' }),
          // The error is raised as a toast already (lib/api).
          () => live && setStage({ step: 'failed', message: 'The card form could not start. Try again.' }),
        );
      },
      (error: unknown) => {
        console.error('Stripe.js did not load', error);
        if (live) setStage({ step: 'failed', message: CARD_FORM_UNAVAILABLE });
      },
    );
    return () => {
      live = false;
    };
  }, [buyerId, publishableKey, attempt]);

  if (stage.step === 'loading')
    return (
      <Group gap="xs" justify="space-between">
        <Group gap="xs">
          <Loader size="xs" />
          <Text fz="sm" c="dimmed">
            Loading the card form…
          </Text>
        </Group>
        <Button variant="default" size="xs" onClick={onCancel}>
          Cancel
        </Button>
      </Group>
    );
  if (stage.step === 'failed')
    return (
      <Alert color="orange" icon={<IconAlertTriangle />} title="The card form is unavailable" role="alert">
        <Text fz="sm">{stage.message}</Text>
        <Group gap="sm" mt="sm">
          <Button size="xs" variant="light" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </Button>
          <Button size="xs" variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Alert>
    );
  return (
    <Elements stripe={stage.stripe} options={{ clientSecret: stage.secret }}>
      <CardForm onSaved={onSaved} onCancel={onCancel} />
    </Elements>
  );
}

function CardForm({ onSaved, onCancel }: { onSaved: () => void; onCancel: () => void }) {
  const stripe = useStripe();
  const elements = useElements();
  const [saving, setSaving] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
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
      <PaymentElement
        onLoadError={(event) => setLoadError(event.error.message ?? 'Stripe could not show the card form.')}
      />
      {loadError && (
        <Alert color="orange" icon={<IconAlertTriangle />} mt="sm" role="alert">
          {loadError}
        </Alert>
      )}
      <Group gap="sm" mt="md">
        <Button onClick={() => void save()} loading={saving} disabled={!stripe || Boolean(loadError)}>
          Save Card
        </Button>
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
      </Group>
    </>
  );
}

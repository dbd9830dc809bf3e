import { BUYER_MESSAGE_MAX, type BuyerMessage, buyerMessageSchema } from '@leadex/domain';
import { Alert, Button, Group, Stack, Textarea } from '@mantine/core';
import { IconCircleCheck, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { TitledCard } from '../../components/TitledCard';
import { applyFieldErrors, inputProps, schemaResolver } from '../../lib/forms';
import { useSendBuyerMessage } from '../buyers/buyerPortal.api';

/** Portals spec §8: what a buyer reads once its message is sent. */
export const MESSAGE_SENT = 'Thank you for reaching out. We will get in touch with you shortly.';

/** Message Us (portals spec §2 buyer home): a note to the exchange, which its admins read in Messages. */
export function MessageUs({ buyerId }: { buyerId: string }) {
  const send = useSendBuyerMessage(buyerId);
  const [sent, setSent] = useState(false);
  const form = useForm<BuyerMessage>({ resolver: schemaResolver(buyerMessageSchema), defaultValues: { message: '' } });
  const { isSubmitting } = form.formState;
  const length = form.watch('message').length;

  const submit = form.handleSubmit(async (values) => {
    try {
      await send.mutateAsync(values);
      form.reset({ message: '' });
      setSent(true);
    } catch (error) {
      applyFieldErrors(error, form.setError, ['message']);
    }
  });

  return (
    <TitledCard title="Message Us" description="A question about your leads, campaigns or bills? Write to us here.">
      {sent ? (
        <Stack gap="sm">
          <Alert color="green" icon={<IconCircleCheck />} role="status">
            {MESSAGE_SENT}
          </Alert>
          <Group>
            <Button variant="light" onClick={() => setSent(false)}>
              Send Another Message
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Textarea
              label="Message"
              placeholder="How can we help?"
              autosize
              minRows={4}
              maxRows={10}
              withAsterisk
              {...inputProps(form, 'message')}
              description={`${length.toLocaleString('en-US')} of ${BUYER_MESSAGE_MAX.toLocaleString('en-US')} characters`}
            />
            <Group>
              <Button type="submit" leftSection={<IconSend size={16} />} loading={isSubmitting}>
                Send Message
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </TitledCard>
  );
}

import { SimpleGrid } from '@mantine/core';
import { useEditing } from './EditableForm';
import { EMPTY_LIST, ListField, TextField } from './FormFields';

/** Label, typing hint and the characters that split a pasted list into entries. */
interface ListText {
  label: string;
  placeholder: string;
  splitChars?: string[];
}

/**
 * The wording of each form: a buyer's default delivery names its lists ('Email List'); a campaign
 * names the channel ('Email'). Phone numbers hold spaces, so the SMS lists never split on them.
 */
const TEXTS: Record<'buyer' | 'campaign', { email: ListText; sms: ListText; broadcast: ListText }> = {
  buyer: {
    email: { label: 'Email List', placeholder: 'leads@buyer.com, press Enter', splitChars: [',', ';'] },
    sms: { label: 'SMS List', placeholder: '(555) 010-2000, press Enter', splitChars: [',', ';'] },
    broadcast: { label: 'Broadcast Webhooks', placeholder: 'https://, press Enter', splitChars: [',', ';'] },
  },
  campaign: {
    email: { label: 'Email', placeholder: 'Add an address and press Enter' },
    sms: { label: 'SMS', placeholder: 'Add a phone number and press Enter', splitChars: [','] },
    broadcast: { label: 'Broadcast Webhooks', placeholder: 'Add a URL and press Enter' },
  },
};

/**
 * Where a lead goes (`notify` of the shared schemas): the email list, the SMS list, the webhook and
 * the broadcast webhooks, bound to the surrounding EditableForm. The buyer's Lead Delivery (the
 * default of its new campaigns) and each campaign's Lead Delivery use it, so both read alike.
 */
export function LeadDeliveryFields({ form }: { form: 'buyer' | 'campaign' }) {
  const editing = useEditing();
  const texts = TEXTS[form];
  const list = (name: string, text: ListText) => <ListField name={name} aria-label={text.label} {...text} />;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      {list('notify.email', texts.email)}
      {list('notify.sms', texts.sms)}
      <TextField name="notify.webhook" label="Webhook" placeholder={editing ? 'https://' : EMPTY_LIST} type="url" />
      {list('notify.broadcast_webhooks', texts.broadcast)}
    </SimpleGrid>
  );
}

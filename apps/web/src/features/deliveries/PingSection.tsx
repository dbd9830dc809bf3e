import { CONTACT_FIELDS, DELIVERY_TYPES, PING_FIELD_NAMES, PING_POST_DELIVERY, PING_TIMEOUT_MS } from '@leadex/domain';
import { Alert, Divider, Grid, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useWatch } from 'react-hook-form';
import { useEditing } from '../../components/EditableForm';
import { NumberField, RadioField, SelectField, TextField } from '../../components/FormFields';
import { Section } from '../../components/Section';
import { useWebhookTemplate } from './deliveries.api';
import { DELIVERY_TYPE_LABELS, type DeliveryFormValues } from './deliveryForm';
import { HardcodedValueRows, HeadersAndAccept, MappingRows, RequestFields, useHint } from './RequestFields';

const TYPE_OPTIONS = DELIVERY_TYPES.map((value) => ({ value, label: DELIVERY_TYPE_LABELS[value] }));

/** The delivery's type: a radio while editing (Direct or Ping/Post), its name otherwise. */
export function DeliveryTypeField() {
  if (useEditing()) return <RadioField name="ping_id" label="Type" options={TYPE_OPTIONS} />;
  return <SelectField name="ping_id" label="Type" data={TYPE_OPTIONS} />;
}

/** Whether the form's delivery is of type Ping/Post (its ping section and test ping show). */
export function useIsPingPost(): boolean {
  return useWatch<DeliveryFormValues, 'ping_id'>({ name: 'ping_id' }) === PING_POST_DELIVERY;
}

/**
 * The ping of a Ping/Post delivery (DESIGN.md §6): where the buyer's system is asked for a bid before
 * the lead is sold, with the lead's non-personal fields only, and where its answer holds the bid.
 */
export function PingSection() {
  const editing = useEditing();
  const hint = useHint();
  // The services' non-personal ping fields (`fields.<key>`, issue 33) after the lead's own.
  const template = useWebhookTemplate();
  const pingFields = template.data?.ping_fields ?? PING_FIELD_NAMES;
  const serviceFields = pingFields.filter((f) => !PING_FIELD_NAMES.includes(f));
  return (
    <Section
      title="Ping"
      description="Before a lead is sold, your system is asked for a bid with the lead's non-personal fields. The best bid wins, and only the winner receives the lead, through the post below."
    >
      <Stack gap="md">
        <Grid gap="md">
          <RequestFields prefix="ping." label="Ping " urlHint="https://crm.example.com/api/bid" wrapHint="ping" />
          <Grid.Col span={{ base: 6, md: 3 }}>
            <NumberField
              name="ping.timeout_ms"
              label="Timeout (ms)"
              description={editing ? `${PING_TIMEOUT_MS.min} to ${PING_TIMEOUT_MS.max}` : undefined}
              allowDecimal={false}
              allowNegative={false}
              // Out of range shows the schema's message rather than being changed behind the user's back.
              clampBehavior="none"
              thousandSeparator=","
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <TextField
              name="ping.price_field"
              label="Bid Price Field"
              required
              description={editing ? 'The answer field holding the bid in dollars (a.b for nested fields).' : undefined}
              placeholder={hint('bid')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <TextField
              name="ping.ping_id_field"
              label="Buyer Ping ID Field"
              description={
                editing
                  ? 'The answer field holding your id of the bid, sent back in the post as buyer_ping_id.'
                  : undefined
              }
              placeholder={hint('ping_id')}
            />
          </Grid.Col>
        </Grid>
        <HeadersAndAccept
          prefix="ping."
          label="Ping "
          acceptNote="A bid when the answer is a 2xx, every field of the response holds its value, and the bid price field holds a price above zero."
        />
        <Divider label="Ping Mapping" labelPosition="left" />
        <Alert color="blue" variant="light" icon={<IconLock size={18} />} p="sm">
          <Text fz="sm">
            A ping sends only these lead fields: {PING_FIELD_NAMES.join(', ')}
            {serviceFields.length > 0 && `, and the services' non-personal ping fields (${serviceFields.join(', ')})`}.
            Contact fields and the services' personal fields are never sent in a ping ({CONTACT_FIELDS.join(', ')}):
            only the winner receives them, in the post.
          </Text>
        </Alert>
        <MappingRows prefix="ping." label="Ping " fields={pingFields} searchHint="Search ping fields" />
        <Divider label="Ping Hardcoded Values" labelPosition="left" />
        <HardcodedValueRows prefix="ping." label="Ping " />
      </Stack>
    </Section>
  );
}

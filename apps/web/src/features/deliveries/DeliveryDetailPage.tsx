import { WEBHOOK_STATUS_LABELS, WEBHOOK_STATUSES, type Webhook, type WebhookStatusValue } from '@leadex/domain';
import { Badge, Button, Grid, Stack } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { type BuyerChoice, BuyerPicker } from '../../components/BuyerPicker';
import { EditableForm, useEditing } from '../../components/EditableForm';
import { DisplayField, LabeledValue, RadioField, RecordStampFields, TextField } from '../../components/FormFields';
import { TagsRow } from '../../components/ProfileFields';
import { RecordFrame, RecordRoute, type RecordStatus, useRecordForm } from '../../components/RecordPage';
import { Section } from '../../components/Section';
import { statusKey } from '../../components/StatusBadge';
import { useClaims } from '../../lib/session';
import { DeliveryTestModal } from './DeliveryTestModal';
import { useCreateWebhook, useUpdateWebhook, useWebhook, useWebhookCopy, useWebhookTemplate } from './deliveries.api';
import {
  type DeliveryFormValues,
  deliveryChanges,
  deliveryFormSchema,
  deliveryFormValues,
  recordFormValues,
  toDeliveryPayload,
} from './deliveryForm';
import { DeliveryTypeField, PingSection, useIsPingPost } from './PingSection';
import { HardcodedValueRows, HeadersAndAccept, MappingRows, RequestFields, RetryRows, useHint } from './RequestFields';

/** Browser storage key of the buyer last chosen for a new delivery (admin §2 Delivery detail). */
export const DEFAULT_BUYER_KEY = 'default-campaign-buyer';

/** The remembered buyer: its id (and name, to show it before the buyer list loads). */
function readDefaultBuyer(): BuyerChoice | null {
  try {
    const raw = localStorage.getItem(DEFAULT_BUYER_KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { _id?: unknown; name?: unknown };
    return typeof parsed._id === 'string' && parsed._id
      ? { value: parsed._id, label: typeof parsed.name === 'string' ? parsed.name : parsed._id }
      : null;
  } catch {
    return null;
  }
}

function rememberBuyer(choice: BuyerChoice | null) {
  try {
    if (choice) localStorage.setItem(DEFAULT_BUYER_KEY, JSON.stringify({ _id: choice.value, name: choice.label }));
  } catch {
    // Storage full or blocked: the picker simply starts empty next time.
  }
}

const STATUS_OPTIONS = WEBHOOK_STATUSES.map((value) => ({ value, label: WEBHOOK_STATUS_LABELS[value] }));
const BADGE_COLOR: Record<WebhookStatusValue, string> = { live: 'green', draft: 'yellow', pause: 'red' };
/** Read-only, the badge says Live, Draft or Pause (admin §2 Delivery detail). */
const BADGE_LABEL: Record<WebhookStatusValue, string> = { live: 'Live', draft: 'Draft', pause: 'Pause' };

/** /delivery/{id}, /delivery/new and /delivery/{id}/copy, for the admin and the buyer. */
export function DeliveryDetailPage() {
  return <RecordRoute>{(id, action) => <DeliveryDetail id={id} action={action} />}</RecordRoute>;
}

const NOT_FOUND = {
  title: 'Custom delivery not found',
  text: 'This delivery does not exist, or you cannot see it.',
  back: { label: 'Back to Custom Deliveries', to: '/deliveries' },
};

/** Loads what the form starts from: the record, its copy, or the template of a new delivery. */
function DeliveryDetail({ id, action }: { id: string; action: string | undefined }) {
  const claims = useClaims();
  const isAdmin = claims.role === 'admin';
  const isCopy = action === 'copy';
  const isNew = id === 'new' || isCopy;
  const record = useWebhook(isNew ? null : id);
  const copy = useWebhookCopy(isCopy ? id : null);
  const template = useWebhookTemplate();
  const [initialBuyer] = useState(() => (isAdmin && id === 'new' ? readDefaultBuyer() : null));

  const start = useMemo(() => {
    if (isCopy) {
      if (!copy.data) return undefined;
      return deliveryFormValues(copy.data);
    }
    if (id !== 'new' || !template.data) return undefined;
    return deliveryFormValues(template.data, {
      buyer: isAdmin ? (initialBuyer?.value ?? '') : (claims.role_id ?? ''),
      fromTemplate: true,
    });
  }, [isCopy, copy.data, id, template.data, isAdmin, initialBuyer, claims.role_id]);

  let status: RecordStatus = 'ready';
  if ((action !== undefined && !isCopy) || (isCopy && copy.isError) || (!isNew && record.isError)) status = 'missing';
  else if (isNew ? !start : record.isPending) status = 'loading';

  const buyerChoice =
    isCopy && copy.data?.buyer
      ? { value: copy.data.buyer, label: copy.data.buyer_name ?? copy.data.buyer }
      : initialBuyer;
  return (
    <RecordFrame status={status} notFound={NOT_FOUND}>
      <DeliveryForm
        id={id}
        isNew={isNew}
        isAdmin={isAdmin}
        record={record.data}
        start={start}
        buyerChoice={buyerChoice}
        fieldNames={(template.data?.fields ?? []).map((f) => f.field)}
      />
    </RecordFrame>
  );
}

interface DeliveryFormProps {
  id: string;
  isNew: boolean;
  isAdmin: boolean;
  record: Webhook | undefined;
  /** A new delivery's first values (template or copy). */
  start: DeliveryFormValues | undefined;
  buyerChoice: BuyerChoice | null;
  /** The template field list: the mapping's field choices. */
  fieldNames: string[];
}

/**
 * The delivery screen shared by the admin and the buyer (admin §2 Delivery detail, portals §2 Buyer
 * delivery detail): read-only with Edit and Test, or in edit mode; a new one starts in edit mode.
 */
function DeliveryForm({ id, isNew, isAdmin, record, start, buyerChoice, fieldNames }: DeliveryFormProps) {
  const create = useCreateWebhook();
  const update = useUpdateWebhook(id);
  const editor = useRecordForm({
    base: '/delivery',
    isNew,
    schema: deliveryFormSchema,
    blank: start,
    record,
    toValues: recordFormValues,
    create: ({ values: all }) => create.mutateAsync(toDeliveryPayload(all)),
    update: async ({ values: all, original }) => {
      const changes = deliveryChanges(original, all);
      // Only blanks or spaces changed: nothing to save.
      return Object.keys(changes).length === 0 ? null : update.mutateAsync(changes);
    },
  });
  const [testing, setTesting] = useState(false);

  const title = isNew ? start?.name || 'New Custom Delivery' : (record?.name ?? 'Custom Delivery');
  return (
    <>
      <EditableForm<DeliveryFormValues>
        {...editor}
        title={title}
        description={isNew ? 'A new delivery starts as a draft: set it live once a test is accepted.' : undefined}
        breadcrumbs={[{ label: 'Custom Deliveries', to: '/deliveries' }, { label: title }]}
        actions={record && !isNew ? <TestButton onClick={() => setTesting(true)} /> : undefined}
      >
        <DetailsSection record={isNew ? undefined : record} isAdmin={isAdmin} isNew={isNew} buyerChoice={buyerChoice} />
        <PingPart />
        <ParametersSection />
        <Section
          title="Delivery Mapping"
          description="Each lead field is sent under the name your system expects. Rows left without a name are not sent."
        >
          <MappingRows fields={fieldNames} searchHint="Search lead fields" />
        </Section>
        <Section title="Delivery Hardcoded Values" description="The same value sent with every lead.">
          <HardcodedValueRows />
        </Section>
      </EditableForm>
      {record && !isNew && <DeliveryTestModal webhook={record} opened={testing} onClose={() => setTesting(false)} />}
    </>
  );
}

/** A Ping/Post delivery's ping, before the post's parameters. */
function PingPart() {
  return useIsPingPost() ? <PingSection /> : null;
}

/** Test runs the stored delivery: it shows only while the delivery is read-only. */
function TestButton({ onClick }: { onClick: () => void }) {
  const editing = useEditing();
  if (editing) return null;
  return (
    <Button variant="default" leftSection={<IconPlayerPlay size={18} />} onClick={onClick}>
      Test
    </Button>
  );
}

function StatusField() {
  const editing = useEditing();
  const current = useWatch<DeliveryFormValues, 'status'>({ name: 'status' });
  if (editing) return <RadioField name="status" label="Status" options={STATUS_OPTIONS} />;
  const status = statusKey(current);
  const value: WebhookStatusValue = status === 'unknown' ? 'draft' : status;
  return (
    <LabeledValue label="Status">
      <Badge color={BADGE_COLOR[value]} variant="light" size="lg">
        {BADGE_LABEL[value]}
      </Badge>
    </LabeledValue>
  );
}

/** Delivery Details: status, ID, timestamp, buyer (a picker for a new one), name, type, tags. */
function DetailsSection({
  record,
  isAdmin,
  isNew,
  buyerChoice,
}: {
  record: Webhook | undefined;
  isAdmin: boolean;
  isNew: boolean;
  buyerChoice: BuyerChoice | null;
}) {
  return (
    <Section title="Delivery Details">
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <StatusField />
        </Grid.Col>
        {/* Half a row each: a quarter cut the ID at a laptop's width (issue 27). */}
        {record && <RecordStampFields id={record._id} ts={record.ts} span={{ base: 12, sm: 6 }} />}
        <Grid.Col span={{ base: 12, md: 6 }}>
          <TextField name="name" label="Name" required placeholder="Summit CRM" />
        </Grid.Col>
        {record ? (
          <Grid.Col span={{ base: 12, md: 6 }}>
            <DisplayField label="Buyer" value={record.buyer_name} />
          </Grid.Col>
        ) : (
          isNew &&
          isAdmin && (
            <Grid.Col span={{ base: 12, md: 6 }}>
              <BuyerPicker initial={buyerChoice} onChoose={rememberBuyer} />
            </Grid.Col>
          )
        )}
        <Grid.Col span={{ base: 12, md: 6 }}>
          <DeliveryTypeField />
        </Grid.Col>
        <TagsRow kind="webhook" />
      </Grid>
    </Section>
  );
}

/**
 * What the post's answer holds (the buyer's lead id, its reason for refusing) and the key and secret
 * (each with the name it is sent under), in form order.
 */
const ANSWER_AND_CREDENTIAL_FIELDS: { name: keyof DeliveryFormValues; label: string; example?: string }[] = [
  { name: 'return_id', label: 'Return ID', example: 'lead.id' },
  { name: 'reason_field', label: 'Reason Field', example: 'reason' },
  { name: 'key', label: 'Key' },
  { name: 'keyname', label: 'Key Name', example: 'key' },
  { name: 'secret', label: 'Secret' },
  { name: 'secretname', label: 'Secret Name', example: 'secret' },
];

/** Delivery Parameters: where and how the lead is sent, and what answer counts as accepted. */
function ParametersSection() {
  const hint = useHint();
  return (
    <Section title="Delivery Parameters" description="Where and how each lead is sent, and which answer accepts it.">
      <Stack gap="md">
        <Grid gap="md">
          <RequestFields urlHint="https://crm.example.com/api/leads" wrapHint="lead" />
          {ANSWER_AND_CREDENTIAL_FIELDS.map(({ name, label, example }) => (
            <Grid.Col key={name} span={{ base: 6, md: 3 }}>
              <TextField name={name} label={label} placeholder={example ? hint(example) : undefined} />
            </Grid.Col>
          ))}
        </Grid>
        <HeadersAndAccept acceptNote="Accepted when the answer is a 2xx and every field of the response holds its value (a.b for nested fields)." />
        <RetryRows />
      </Stack>
    </Section>
  );
}

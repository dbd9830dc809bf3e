import type { Source } from '@leadex/domain';
import { Alert, Button, Center, Grid, Group, Loader, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconInfoCircle, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { type FormEvent, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { ConfirmButton } from '../../components/ConfirmButton';
import { EditableForm, type SaveRequest } from '../../components/EditableForm';
import {
  DisplayField,
  NumberField,
  SelectField,
  TagsFormField,
  TextareaField,
  TextField,
} from '../../components/FormFields';
import { Section } from '../../components/Section';
import { formatPhone, formatTimestamp } from '../../lib/format';
import { schemaResolver } from '../../lib/forms';
import { showSaved, showSuccess } from '../../lib/notify';
import { SourceApiKeys } from './SourceApiKeys';
import { SourceStatusBadge } from './SourceBadges';
import { SourceChannels } from './SourceChannels';
import { SourceLeads } from './SourceLeads';
import { SourceUsers } from './SourceUsers';
import {
  createSchema,
  NEW_SOURCE,
  type SourceFormValues,
  STATE_OPTIONS,
  toFormValues,
  updateSchema,
  YES_NO_OPTIONS,
} from './sourceForm';
import { useCreateSource, useSource, useSourceHold, useUpdateSource } from './sources.api';

/** /source/{id} for the admin; /source/new creates. */
export function SourceDetailPage() {
  const { id = 'new' } = useParams();
  // A fresh form per record: after a create the page moves from /source/new to the new id.
  return <SourceDetail key={id} id={id} />;
}

function SourceDetail({ id }: { id: string }) {
  const isNew = id === 'new';
  const navigate = useNavigate();
  const source = useSource(isNew ? null : id);
  const create = useCreateSource();
  const update = useUpdateSource(id);
  const values = useMemo(() => (isNew ? NEW_SOURCE : source.data && toFormValues(source.data)), [isNew, source.data]);
  const form = useForm<SourceFormValues>({
    resolver: schemaResolver(isNew ? createSchema : updateSchema),
    defaultValues: NEW_SOURCE,
  });

  if (!isNew && source.isPending) {
    return (
      <Center py={80}>
        <Loader />
      </Center>
    );
  }
  if (!isNew && !source.data) {
    return (
      <Alert color="red" icon={<IconInfoCircle />} title="Source not found">
        This source does not exist.
      </Alert>
    );
  }

  const save = async ({ values: all, changes }: SaveRequest<SourceFormValues>) => {
    const saved: Source = isNew ? await create.mutateAsync(all) : await update.mutateAsync(changes);
    showSaved(saved.name, isNew);
    if (isNew) navigate(`/source/${saved._id}`, { replace: true });
  };

  const record = source.data;
  return (
    <Stack gap="lg">
      <EditableForm<SourceFormValues>
        form={form}
        values={values}
        isNew={isNew}
        onSave={save}
        wholeFields={['channels']}
        title={isNew ? 'New Source' : (record?.name ?? 'Source')}
        description={record && <StatusLine source={record} />}
        breadcrumbs={[{ label: 'Sources', to: '/sources' }, { label: isNew ? 'New Source' : (record?.name ?? '') }]}
        actions={record && <HoldButton source={record} />}
      >
        <Section title="Source Details">
          <Grid gap="md">
            {record && (
              <>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <DisplayField label="ID" value={record._id} />
                </Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <DisplayField label="Timestamp" value={formatTimestamp(record.ts)} />
                </Grid.Col>
              </>
            )}
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextField name="name" label="Name" required />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextField name="contactName" label="Contact Name" />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextField name="email" label="Email" required type="email" />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextField name="phone" label="Phone" required type="tel" format={formatPhone} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, lg: 5 }}>
              <TextField name="address" label="Address" />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
              <TextField name="city" label="City" />
            </Grid.Col>
            <Grid.Col span={{ base: 6, lg: 2 }}>
              <SelectField name="state" label="State" data={STATE_OPTIONS} searchable clearable />
            </Grid.Col>
            <Grid.Col span={{ base: 6, lg: 2 }}>
              <TextField name="zip" label="Zip" maxLength={5} inputMode="numeric" />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
              <NumberField
                name="max_cost"
                label="Lead Cost"
                prefix="$"
                min={0}
                max={5000}
                decimalScale={2}
                allowNegative={false}
                clampBehavior="none"
                thousandSeparator=","
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
              <SelectField name="canPostLead" label="Can Post Direct" data={YES_NO_OPTIONS} allowDeselect={false} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, lg: 2 }}>
              <NumberField name="tier" label="Tier" min={0} allowDecimal={false} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
              <TextField name="website" label="Website" />
            </Grid.Col>
            <Grid.Col span={12}>
              <TextareaField name="notes" label="Notes" />
            </Grid.Col>
            <Grid.Col span={12}>
              <TagsFormField name="tags" kind="source" label="Tags" placeholder="Add a tag and press Enter" />
            </Grid.Col>
          </Grid>
        </Section>

        <Section title="Channels" description="Traffic channels with their own max cost per sold lead.">
          <SourceChannels />
        </Section>
      </EditableForm>

      {record && (
        <>
          <SourceApiKeys source={record} />
          <SourceUsers source={record} />
          <SourceLeads leads={record.leads ?? []} />
        </>
      )}
    </Stack>
  );
}

/** Under the title: the derived status, and since when and why a held source is held. */
function StatusLine({ source }: { source: Source }) {
  return (
    <Group gap="xs" component="span">
      <SourceStatusBadge status={source.status} />
      {source.hold && (
        <Text component="span" fz="sm" c="dimmed">
          On hold since {formatTimestamp(source.hold.ts)}
          {source.hold.reason ? `: ${source.hold.reason}` : ''}
        </Text>
      )}
    </Group>
  );
}

/** Hold (with an optional reason) or Unhold the source; both ask first. */
function HoldButton({ source }: { source: Source }) {
  const hold = useSourceHold(source._id);
  const [asking, setAsking] = useState(false);
  const [reason, setReason] = useState('');

  if (source.hold) {
    return (
      <ConfirmButton
        variant="light"
        color="green"
        leftSection={<IconPlayerPlay size={18} />}
        confirmTitle="Unhold source"
        confirmText={`Are you sure you want to unhold ${source.name}? Its API keys work again at once.`}
        confirmLabel="Unhold"
        onConfirm={async () => {
          await hold.mutateAsync({ hold: false });
          showSuccess(`${source.name} is no longer on hold.`);
        }}
      >
        Unhold
      </ConfirmButton>
    );
  }

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    // The modal sits in a portal, but React still bubbles its submit to the page's form.
    event.stopPropagation();
    await hold.mutateAsync({ hold: true, reason: reason.trim() || undefined });
    showSuccess(`${source.name} is on hold.`);
    setAsking(false);
    setReason('');
  };

  return (
    <>
      <Button variant="light" color="red" leftSection={<IconPlayerPause size={18} />} onClick={() => setAsking(true)}>
        Hold
      </Button>
      <Modal opened={asking} onClose={() => setAsking(false)} title="Hold source" centered>
        <form onSubmit={confirm} noValidate>
          <Stack gap="md">
            <Text size="sm">
              Are you sure you want to put {source.name} on hold? Its pings, posts and leads are refused at once.
            </Text>
            <Textarea
              label="Reason"
              placeholder="Optional"
              autosize
              minRows={2}
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsking(false)}>
                Cancel
              </Button>
              <Button type="submit" color="red" loading={hold.isPending}>
                Hold
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

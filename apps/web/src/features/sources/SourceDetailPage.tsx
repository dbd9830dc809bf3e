import { MAX_SOURCE_COST, type Source } from '@leadex/domain';
import { Grid, Group, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { IconCircleCheck, IconPlayerPause, IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmButton } from '../../components/ConfirmButton';
import { EditableForm } from '../../components/EditableForm';
import { FormDialogButton } from '../../components/FormDialogButton';
import { MoneyField, NumberField, RecordStampFields, SelectField, TextField } from '../../components/FormFields';
import { AddressFields, NotesAndTagsFields } from '../../components/ProfileFields';
import { RecordFrame, RecordRoute, recordStatus, useCreateOrUpdateForm } from '../../components/RecordPage';
import { Section } from '../../components/Section';
import { ApiRequestError } from '../../lib/api';
import { formatPhone, formatTimestamp } from '../../lib/format';
import { showSuccess } from '../../lib/notify';
import { SourceApiKeys } from './SourceApiKeys';
import { AwaitingApprovalBadge, NoPayoutBadge, SourceStatusBadge } from './SourceBadges';
import { SourceChannels } from './SourceChannels';
import { SourceLeads } from './SourceLeads';
import { SourceServiceRouting } from './SourceServiceRouting';
import { SourceUsers } from './SourceUsers';
import { ANSWER_FORMAT_OPTIONS, SOURCE_FORM, type SourceFormValues, YES_NO_OPTIONS } from './sourceForm';
import { useApproveSource, useCreateSource, useSource, useSourceHold, useUpdateSource } from './sources.api';

/** /source/{id} for the admin; /source/new creates. */
export function SourceDetailPage() {
  return <RecordRoute>{(id) => <SourceDetail id={id} />}</RecordRoute>;
}

function SourceDetail({ id }: { id: string }) {
  const isNew = id === 'new';
  const source = useSource(isNew ? null : id);
  const create = useCreateSource();
  const update = useUpdateSource(id);
  const editor = useCreateOrUpdateForm({ ...SOURCE_FORM, isNew, record: source.data, create, update });

  const record = source.data;
  return (
    <RecordFrame
      status={recordStatus(source, isNew)}
      notFound={{ title: 'Source not found', text: 'This source does not exist.' }}
    >
      <Stack gap="lg">
        <EditableForm<SourceFormValues>
          {...editor}
          wholeFields={['channels', 'campaign_services']}
          title={isNew ? 'New Source' : (record?.name ?? 'Source')}
          description={record && <StatusLine source={record} />}
          breadcrumbs={[{ label: 'Sources', to: '/sources' }, { label: isNew ? 'New Source' : (record?.name ?? '') }]}
          actions={
            record && (
              <Group gap="sm">
                {!record.approved && <ApproveButton source={record} />}
                <HoldButton source={record} />
              </Group>
            )
          }
        >
          <Section title="Source Details">
            <Grid gap="md">
              {record && <RecordStampFields id={record._id} ts={record.ts} span={{ base: 12, sm: 6 }} />}
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
              <AddressFields />
              <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
                <MoneyField name="max_cost" label="Lead Cost" max={5000} allowNegative={false} clampBehavior="none" />
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
              <NotesAndTagsFields kind="source" />
            </Grid>
          </Section>

          <Section title="Channels" description="Traffic channels with their own max cost per sold lead.">
            <SourceChannels />
          </Section>

          <Section
            title="Service of leads sent without one"
            description="Platforms often send no service: their campaign id or this default names it."
          >
            <SourceServiceRouting />
          </Section>

          <Section
            title="Answers"
            description="How the API answers this source's pings and leads when a request does not say (response_format)."
          >
            <Grid gap="sm">
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <SelectField
                  name="answer_format"
                  label="Answer format"
                  description="LeadConduit's Standard recipient reads the LeadConduit answer as it is"
                  data={ANSWER_FORMAT_OPTIONS}
                  allowDeselect={false}
                />
              </Grid.Col>
            </Grid>
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
    </RecordFrame>
  );
}

/** Under the title: the derived status, and since when and why a held source is held. */
function StatusLine({ source }: { source: Source }) {
  return (
    <Group gap="xs" component="span">
      <SourceStatusBadge status={source.status} />
      {!source.approved && <AwaitingApprovalBadge />}
      {source.approved && source.needs_payout && <NoPayoutBadge />}
      {source.hold && (
        <Text component="span" fz="sm" c="dimmed">
          On hold since {formatTimestamp(source.hold.ts)}
          {source.hold.reason ? `: ${source.hold.reason}` : ''}
        </Text>
      )}
    </Group>
  );
}

/**
 * Approve a self-signed-up source, so it sells real leads (until then it may only test), at a payout:
 * the dialog asks for its Lead Cost (issue 27), kept empty only when a channel has a max cost.
 */
function ApproveButton({ source }: { source: Source }) {
  const approve = useApproveSource(source._id);
  const [cost, setCost] = useState<string | number>(source.max_cost ?? '');
  const [error, setError] = useState<string | null>(null);
  const paidChannels = source.channels.filter((c) => c.max_cost !== null).map((c) => c.name);

  const confirm = async (close: () => void) => {
    setError(null);
    try {
      await approve.mutateAsync(cost === '' ? {} : { max_cost: Number(cost) });
    } catch (failure) {
      setError(failure instanceof ApiRequestError ? (failure.errors.max_cost ?? failure.message) : String(failure));
      return;
    }
    showSuccess(`${source.name} is approved.`);
    close();
  };

  return (
    <FormDialogButton
      label="Approve"
      color="green"
      icon={IconCircleCheck}
      title="Approve source"
      question={`Are you sure you want to approve ${source.name}? Its real leads sell from now on, at the payout below.`}
      submitting={approve.isPending}
      onSubmit={confirm}
    >
      <NumberInput
        label="Lead Cost"
        description={
          paidChannels.length > 0
            ? `What it is paid per sold lead. Its channels ${paidChannels.join(', ')} have their own.`
            : 'What it is paid per sold lead. Required: without it the source would be paid nothing.'
        }
        prefix="$"
        decimalScale={2}
        fixedDecimalScale
        min={0}
        max={MAX_SOURCE_COST}
        allowNegative={false}
        value={cost}
        onChange={setCost}
        error={error}
        data-autofocus
      />
    </FormDialogButton>
  );
}

/** Hold (with an optional reason) or Unhold the source; both ask first. */
function HoldButton({ source }: { source: Source }) {
  const hold = useSourceHold(source._id);
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

  const confirm = async (close: () => void) => {
    await hold.mutateAsync({ hold: true, reason: reason.trim() || undefined });
    showSuccess(`${source.name} is on hold.`);
    close();
    setReason('');
  };

  return (
    <FormDialogButton
      label="Hold"
      color="red"
      variant="light"
      icon={IconPlayerPause}
      title="Hold source"
      question={`Are you sure you want to put ${source.name} on hold? Its pings, posts and leads are refused at once.`}
      submitting={hold.isPending}
      onSubmit={confirm}
    >
      <Textarea
        label="Reason"
        placeholder="Optional"
        autosize
        minRows={2}
        value={reason}
        onChange={(event) => setReason(event.currentTarget.value)}
        data-autofocus
      />
    </FormDialogButton>
  );
}

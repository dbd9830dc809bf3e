import {
  type Campaign,
  type CampaignFormValues,
  campaignChanges,
  campaignFormSchema,
  campaignFormValues,
  DEFAULT_CAMPAIGN_TIME,
  hasNotifyMethod,
  newCampaignFormValues,
  timeFormValues,
  toCampaignPayload,
} from '@leadex/domain';
import { Grid, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { BuyerPicker } from '../../components/BuyerPicker';
import { EditableForm, useEditing } from '../../components/EditableForm';
import {
  DisplayField,
  LabeledValue,
  MultiSelectField,
  RadioField,
  SelectField,
  SwitchField,
  TextareaField,
  TextField,
  ZipTagsField,
} from '../../components/FormFields';
import { LeadDeliveryFields } from '../../components/LeadDeliveryFields';
import { TagsRow } from '../../components/ProfileFields';
import { RecordFrame, RecordRoute, recordStatus, useRecordForm } from '../../components/RecordPage';
import { Section } from '../../components/Section';
import { useServiceOptions } from '../../components/ServiceName';
import { StatusBadge } from '../../components/StatusBadge';
import { formatMoney, formatTimestamp } from '../../lib/format';
import { useClaims } from '../../lib/session';
import { useBuyer } from '../buyers/buyers.api';
import { RegionBuilder } from '../zips/RegionBuilder';
import { useZipsets } from '../zips/zips.api';
import {
  EMPTY_NOTES,
  EMPTY_SERVICES,
  HOUR_OPTIONS,
  LOCATION_OPTIONS,
  SHARED_OPTIONS,
  STATE_OPTIONS,
  STATUS_OPTIONS,
  ZONE_OPTIONS,
} from './campaignForm';
import { useCampaign, useCreateCampaign, useServices, useUpdateCampaign } from './campaigns.api';
import { DeliveryFailureAlert } from './DeliveryFailure';
import { FieldFilters } from './FieldFilters';
import { SourceRestrictions } from './SourceRestrictions';
import { TypedNumberField } from './TypedNumberField';

/** /campaign/{id} for the admin and the buyer; /campaign/new creates. */
export function CampaignDetailPage() {
  return <RecordRoute>{(id) => <CampaignDetail id={id} />}</RecordRoute>;
}

/**
 * The campaign screen shared by the admin and the buyer (admin §2 Campaign detail, portals §2
 * Buyer campaign detail). The buyer works on its own campaigns only and never sees Source
 * Restrictions; the admin picks the buyer of a new campaign.
 */
function CampaignDetail({ id }: { id: string }) {
  const claims = useClaims();
  const isAdmin = claims.role === 'admin';
  const isNew = id === 'new';
  const campaign = useCampaign(isNew ? null : id);
  const create = useCreateCampaign();
  const update = useUpdateCampaign(id);
  const record = campaign.data;
  const blank = useMemo(() => newCampaignFormValues(isAdmin ? '' : (claims.role_id ?? '')), [isAdmin, claims.role_id]);
  // Only the admin sees Source Restrictions, so only the admin's saves send them.
  const options = { withSourceFilter: isAdmin };
  const editor = useRecordForm({
    base: '/campaign',
    isNew,
    schema: campaignFormSchema,
    blank,
    record,
    toValues: campaignFormValues,
    create: ({ values: all }) => {
      // A new campaign starts as draft: the server decides its status.
      const { status: _draft, ...payload } = toCampaignPayload(all, options);
      return create.mutateAsync(payload);
    },
    update: ({ values: all, original }) => update.mutateAsync(campaignChanges(original, all, options)),
  });

  const title = isNew ? 'New Campaign' : (record?.name ?? 'Campaign');
  return (
    <RecordFrame
      status={recordStatus(campaign, isNew)}
      notFound={{
        title: 'Campaign not found',
        text: 'This campaign does not exist, or you cannot see it.',
        back: { label: 'Back to Campaigns', to: '/campaigns' },
      }}
    >
      <EditableForm<CampaignFormValues>
        {...editor}
        title={title}
        description={isNew ? 'A new campaign starts as a draft: set it live once it is ready.' : undefined}
        breadcrumbs={[{ label: 'Campaigns', to: '/campaigns' }, { label: title }]}
      >
        <DeliveryFailureAlert failure={record?.delivery_failure} />
        <DetailsSection record={record} isAdmin={isAdmin} isNew={isNew} />
        <LocationSection record={record} isAdmin={isAdmin} />
        <LimitsSection />
        <BudgetSection record={record} />
        <LeadDeliverySection isNew={isNew} />
        <FieldFilters />
        {isAdmin && <SourceRestrictions />}
        <TimeSection />
        <ComplianceSection />
      </EditableForm>
    </RecordFrame>
  );
}

interface SectionProps {
  record: Campaign | undefined;
  isAdmin: boolean;
}

/**
 * Campaign Details. The admin creates with Name, Buyer and Price (admin §2); a buyer's new campaign
 * shows every field it can set (portals §2, §3), services first among them, since a campaign without
 * services buys nothing. A saved campaign adds status, Branded Id and timestamp.
 */
function DetailsSection({ record, isAdmin, isNew }: SectionProps & { isNew: boolean }) {
  const editing = useEditing();

  if (isNew || !record) {
    return (
      <Section title="Campaign Details">
        <Grid gap="md">
          <Grid.Col span={{ base: 12, md: isAdmin ? 5 : 8 }}>
            <TextField name="name" label="Name" required placeholder="Roofing - North Texas" />
          </Grid.Col>
          {isAdmin && (
            <Grid.Col span={{ base: 12, sm: 8, md: 4 }}>
              <BuyerPicker />
            </Grid.Col>
          )}
          <Grid.Col span={{ base: 12, sm: 4, md: isAdmin ? 3 : 4 }}>
            <PriceField />
          </Grid.Col>
          {!isAdmin && <TermsFields />}
        </Grid>
      </Section>
    );
  }

  return (
    <Section title="Campaign Details">
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 6 }}>
          {editing ? (
            <RadioField name="status" label="Status" options={STATUS_OPTIONS} />
          ) : (
            <StatusLine record={record} />
          )}
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
          <TextField name="fixed_id" label="Branded Id" required />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 6, md: 3 }}>
          <DisplayField label="Timestamp" value={formatTimestamp(record.ts)} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <TextField name="name" label="Name" required />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <DisplayField label="Buyer" value={record.buyer_name} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <PriceField />
        </Grid.Col>
        <TermsFields services={record.services} />
      </Grid>
    </Section>
  );
}

function PriceField() {
  return <TypedNumberField name="price" label="Price" required money />;
}

/**
 * Shared Leads (with Shared Price when shared), Services, Tags and Notes: grid columns of the
 * Details grid. `services`: the record's, offered until the exchange's list has loaded.
 */
function TermsFields({ services: recorded = [] }: { services?: string[] }) {
  const shared = useWatch({ name: 'shared' }) === 'yes';
  const services = useServices();
  const serviceOptions = useServiceOptions(services.data ?? recorded);
  return (
    <>
      <Grid.Col span={{ base: 12, sm: 4 }}>
        <SelectField name="shared" label="Shared Leads" data={SHARED_OPTIONS} allowDeselect={false} />
      </Grid.Col>
      {shared && (
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <TypedNumberField name="shared_price" label="Shared Price" required money />
        </Grid.Col>
      )}
      <Grid.Col span={12}>
        <MultiSelectField
          name="services"
          label="Services"
          placeholder="Choose the services this campaign buys"
          emptyText={EMPTY_SERVICES}
          data={serviceOptions}
          searchable
          clearable
        />
      </Grid.Col>
      <TagsRow kind="match" />
      <Grid.Col span={12}>
        <TextareaField name="notes" label="Notes" emptyText={EMPTY_NOTES} />
      </Grid.Col>
    </>
  );
}

/** The status badge with its last change: when, by whom and why. */
function StatusLine({ record }: { record: Campaign }) {
  const { status } = record;
  const last = status.history[0];
  return (
    <LabeledValue
      label="Status"
      note={
        last && (
          <Text fz="xs" c="dimmed">
            Since {formatTimestamp(last.ts)}
            {last.operator_name ? ` by ${last.operator_name}` : ''}
            {last.reason ? ` (${last.reason})` : ''}
          </Text>
        )
      }
    >
      <StatusBadge status={status} size="lg" />
    </LabeledValue>
  );
}

/** Location: State, Region (a named zipset) or Zip, with the chosen type's values. */
function LocationSection({ record, isAdmin }: SectionProps) {
  const editing = useEditing();
  const location = useWatch<CampaignFormValues, 'location'>({ name: 'location' });
  const buyer = useWatch<CampaignFormValues, 'buyer'>({ name: 'buyer' });
  // An admin sees the regions this campaign's buyer may use; a buyer's own list is scoped by the server.
  const zipsets = useZipsets(isAdmin ? buyer || undefined : undefined);
  const { setValue } = useFormContext<CampaignFormValues>();
  const zipsetOptions = useMemo(() => {
    const list = (zipsets.data ?? []).map((z) => ({ value: z._id, label: `${z.name} (${z.zips.length} ZIPs)` }));
    if (record?.zipset && !list.some((o) => o.value === record.zipset))
      list.unshift({ value: record.zipset, label: record.zipset_name ?? record.zipset });
    return list;
  }, [zipsets.data, record]);

  return (
    <Section title="Location" description="Where the campaign buys leads.">
      <Stack gap="md">
        <SelectField name="location" label="Location" data={LOCATION_OPTIONS} allowDeselect={false} maw={320} />
        {location === 'state' && (
          <MultiSelectField
            name="state"
            label="States"
            placeholder="Choose states"
            data={STATE_OPTIONS}
            searchable
            clearable
            hidePickedOptions
          />
        )}
        {location === 'zipset' && (
          <>
            <SelectField
              name="zipset"
              label="Region"
              placeholder="Choose a region"
              data={zipsetOptions}
              searchable
              clearable
              nothingFoundMessage={zipsets.isFetching ? 'Loading...' : 'No regions yet: create one below'}
              maw={520}
            />
            {editing && (
              <RegionBuilder
                onCreated={(zipset) => setValue('zipset', zipset._id, { shouldDirty: true, shouldValidate: true })}
              />
            )}
          </>
        )}
        {location === 'zip' && <ZipTagsField name="zips" label="Zip codes" placeholder="75201, 75202…" />}
      </Stack>
    </Section>
  );
}

/** Limits: Hourly, Daily, Weekly, Monthly; empty means no limit. */
function LimitsSection() {
  return (
    <Section title="Limits" description="Most leads per period; leave a limit empty for none.">
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <TypedNumberField name="max.hourly" label="Hourly" placeholder="No limit" />
        <TypedNumberField name="max.daily" label="Daily" placeholder="No limit" />
        <TypedNumberField name="max.weekly" label="Weekly" placeholder="No limit" />
        <TypedNumberField name="max.monthly" label="Monthly" placeholder="No limit" />
      </SimpleGrid>
    </Section>
  );
}

/** Budget caps in dollars (issue 33): daily, weekly, monthly, each with what is spent in its current period. */
function BudgetSection({ record }: { record: Campaign | undefined }) {
  const spent = record?.spent;
  // Spend is counted only against a set budget (the engine keeps no counter without one): a period
  // without a budget shows no spent line rather than a $0.00 that is not true.
  const spentLine = (period: 'daily' | 'weekly' | 'monthly') => {
    const budget = record?.budget[period];
    return spent && budget !== null && budget !== undefined
      ? `Spent ${formatMoney(spent[period])} of ${formatMoney(budget)} ${SPAN[period]}`
      : undefined;
  };
  return (
    <Section
      title="Budget"
      description="Most dollars spent per period, counted like the limits; leave a budget empty for none."
    >
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        {(['daily', 'weekly', 'monthly'] as const).map((period) => (
          <Stack key={period} gap={4}>
            <TypedNumberField
              name={`budget.${period}`}
              label={`${period[0]?.toUpperCase()}${period.slice(1)} budget`}
              placeholder="No budget"
              money
            />
            {spentLine(period) && (
              <Text size="sm" c="dimmed" data-testid={`budget-spent-${period}`}>
                {spentLine(period)}
              </Text>
            )}
          </Stack>
        ))}
      </SimpleGrid>
    </Section>
  );
}

/** The current period a budget's spend is counted in. */
const SPAN = { daily: 'today', weekly: 'this week', monthly: 'this month' } as const;

/** Lead Delivery: email list, SMS list, webhook, broadcast webhooks; a new campaign copies the buyer's. */
function LeadDeliverySection({ isNew }: { isNew: boolean }) {
  const { formState, getValues, setValue } = useFormContext<CampaignFormValues>();
  const buyerId = useWatch<CampaignFormValues, 'buyer'>({ name: 'buyer' });
  const buyer = useBuyer(isNew && buyerId ? buyerId : null);
  const notifyError = (formState.errors.notify as { message?: string } | undefined)?.message;

  // The buyer's default lead delivery fills a new campaign's, unless someone already typed one.
  useEffect(() => {
    const notify = buyer.data?.notify;
    if (!isNew || !notify || hasNotifyMethod(getValues('notify'))) return;
    setValue('notify', {
      email: notify.email ?? [],
      sms: notify.sms ?? [],
      webhook: notify.webhook ?? '',
      broadcast_webhooks: notify.broadcast_webhooks ?? [],
    });
  }, [isNew, buyer.data, getValues, setValue]);

  return (
    <Section title="Lead Delivery" description="How the buyer receives each lead this campaign buys.">
      <Stack gap="md">
        <LeadDeliveryFields form="campaign" />
        {notifyError && (
          <Text c="red" fz="sm" role="alert">
            {notifyError}
          </Text>
        )}
      </Stack>
    </Section>
  );
}

/** Issue 34: named consent and the consumer's calling window, two switches of the campaign. */
function ComplianceSection() {
  return (
    <Section title="Compliance" description="What a lead's consent and the consumer's local time must allow.">
      <Stack gap="sm">
        <SwitchField
          name="require_named_consent"
          label="Require named consent"
          description="Buy only leads whose consent language names one of the buyer’s legal names (always on for a Medicare service)."
        />
        <SwitchField
          name="refuse_outside_calling_window"
          label="Refuse leads outside the consumer’s calling window"
          description="For a buyer that calls at once: no lead that arrives when the consumer’s state does not allow a call."
        />
      </Stack>
    </Section>
  );
}

/** Time Restrictions: the toggle fills the defaults (on) or removes the hours (off). */
function TimeSection() {
  const editing = useEditing();
  const { control, setValue } = useFormContext<CampaignFormValues>();
  const on = useWatch<CampaignFormValues, 'timeOn'>({ name: 'timeOn' });
  return (
    <Section
      title="Time Restrictions"
      description="Hours the campaign takes leads, in its time zone; the same start and end mean all day."
      actions={
        <Controller
          name="timeOn"
          control={control}
          render={({ field }) => (
            <Switch
              label={on ? 'On' : 'Off'}
              aria-label="Time Restrictions"
              checked={field.value}
              disabled={!editing}
              onChange={(event) => {
                const checked = event.currentTarget.checked;
                // On fills the defaults; off removes them (the payload sends time as a delete flag).
                setValue('time', timeFormValues(DEFAULT_CAMPAIGN_TIME), { shouldDirty: true });
                field.onChange(checked);
              }}
            />
          )}
        />
      }
    >
      {on ? (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 5 }}>
          <SelectField name="time.zone" label="Time Zone" data={ZONE_OPTIONS} allowDeselect={false} />
          <SelectField name="time.weekday.start" label="Weekday Start" data={HOUR_OPTIONS} allowDeselect={false} />
          <SelectField name="time.weekday.end" label="Weekday End" data={HOUR_OPTIONS} allowDeselect={false} />
          <SelectField name="time.weekend.start" label="Weekend Start" data={HOUR_OPTIONS} allowDeselect={false} />
          <SelectField name="time.weekend.end" label="Weekend End" data={HOUR_OPTIONS} allowDeselect={false} />
        </SimpleGrid>
      ) : (
        <Text c="dimmed" fz="sm">
          No time restrictions: the campaign takes leads at any hour.
        </Text>
      )}
    </Section>
  );
}

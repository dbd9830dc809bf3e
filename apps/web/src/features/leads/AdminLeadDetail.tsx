import { formatLeadPhone, type LeadDetail, type LeadMatch, trustedFormCertificateUrl } from '@leadex/domain';
import { Badge, Button, Grid, Group, Stack, Text } from '@mantine/core';
import { IconThumbDown, IconThumbUp } from '@tabler/icons-react';
import { type ComponentProps, useMemo } from 'react';
import { type DefaultValues, useForm } from 'react-hook-form';
import { EditableForm } from '../../components/EditableForm';
import { DisplayField, RecordStampFields, SelectField, TextareaField, TextField } from '../../components/FormFields';
import { JsonViewer } from '../../components/JsonViewer';
import { AddressFields, TagsRow } from '../../components/ProfileFields';
import { RecordsTable } from '../../components/RecordsTable';
import { Section } from '../../components/Section';
import { useServiceOptions } from '../../components/ServiceName';
import { formatMoney, formatTimestamp } from '../../lib/format';
import { schemaResolver } from '../../lib/forms';
import { showSaved } from '../../lib/notify';
import { useServices } from '../campaigns/campaigns.api';
import { DecideReturnButtons } from '../returns/ReturnActions';
import { ReturnStatusBadge, returnStatusOf, TestBadge } from './LeadBadges';
import { LeadComplianceSections } from './LeadCompliance';
import { LeadDeliveryLogs, MatchDeliveryBadge } from './LeadDeliveryLogs';
import { LeadExplanation } from './LeadExplanation';
import { BadgeRow, FieldFlagNote, OpenLinkButton, recordLinkColumn, ValueField } from './LeadFields';
import { LeadPings } from './LeadPings';
import { type LeadFormValues, leadFormSchema, toLeadFormValues, toLeadUpdate, YES_NO_OPTIONS } from './leadForm';
import { leadType } from './leadFormat';
import { useUpdateLead } from './leads.api';
import { ServiceFieldsSection } from './ServiceFieldsSection';

/** A lead's yes-or-no field: Unknown until the source says (never No by default), with its flag's note. */
function YesNoField({ lead, name, label }: { lead: LeadDetail; name: 'tcpa_consent' | 'homeowner'; label: string }) {
  return (
    <SelectField
      name={name}
      label={label}
      data={YES_NO_OPTIONS}
      allowDeselect={false}
      placeholder="Unknown"
      description={<FieldFlagNote lead={lead} field={name} />}
    />
  );
}

/** A lead's text field, with its flag's note under the label. */
function FlaggedTextField({
  lead,
  name,
  ...props
}: { lead: LeadDetail; name: 'phone' | 'email' | 'trusted_form' | 'jornaya' } & Omit<
  ComponentProps<typeof TextField>,
  'name' | 'description'
>) {
  return <TextField name={name} description={<FieldFlagNote lead={lead} field={name} />} {...props} />;
}

/** A lead's name as its title and its toasts read it. */
const titleOf = (lead: { name?: string }) => lead.name?.trim() || 'Lead';

/**
 * Admin §2 Lead detail: the editable fields (Edit, Save with only the changes, Cancel), the quality
 * viewer with its Good/Bad button, the metadata viewer, the Buyers table, the Ping/Post buyers' pings,
 * each match's delivery logs with Resend (the posts), the decision explained, and the returns.
 */
export function AdminLeadDetail({ lead }: { lead: LeadDetail }) {
  const update = useUpdateLead(lead._id);
  const services = useServices();
  const values = useMemo(() => toLeadFormValues(lead), [lead]);
  const form = useForm<LeadFormValues>({
    resolver: schemaResolver(leadFormSchema),
    defaultValues: values as DefaultValues<LeadFormValues>,
  });
  const serviceNames = useMemo(() => {
    const names = services.data ?? [];
    return names.includes(lead.service) ? names : [lead.service, ...names];
  }, [services.data, lead.service]);
  const serviceOptions = useServiceOptions(serviceNames);
  const matches = lead.match ?? [];

  return (
    <Stack gap="lg">
      <EditableForm<LeadFormValues>
        form={form}
        values={values}
        title={titleOf(lead)}
        description={
          <BadgeRow>
            <Text component="span" fz="sm" c="dimmed">
              {formatTimestamp(lead.ts)} from {lead.source?.name}
            </Text>
            <Badge component="span" variant="light" color={matches.some((m) => !m.reject) ? 'green' : 'gray'}>
              {matches.some((m) => !m.reject) ? 'Sold' : 'No Buyer'}
            </Badge>
            <Badge component="span" variant="outline" color="gray">
              {leadType(lead.ping_id)}
            </Badge>
            {lead.test && <TestBadge />}
          </BadgeRow>
        }
        breadcrumbs={[{ label: 'Leads', to: '/leads' }, { label: titleOf(lead) }]}
        onSave={async ({ changes }) => {
          const saved = await update.mutateAsync(toLeadUpdate(changes));
          showSaved(titleOf(saved), false);
        }}
      >
        <Section title="Lead Details">
          <Grid gap="md">
            <RecordStampFields id={lead._id} ts={lead.ts} span={{ base: 12, sm: 6, lg: 4 }} />
            <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
              <DisplayField label="Source" value={lead.source?.name} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
              <TextField name="name" label="Name" />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
              <FlaggedTextField lead={lead} name="phone" label="Phone" type="tel" format={formatLeadPhoneOrEmpty} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
              <FlaggedTextField lead={lead} name="email" label="Email" type="email" />
            </Grid.Col>
            <AddressFields
              notes={{
                address: <FieldFlagNote lead={lead} field="address" />,
                city: <FieldFlagNote lead={lead} field="city" />,
                state: <FieldFlagNote lead={lead} field="state" />,
                zip: <FieldFlagNote lead={lead} field="zip" />,
              }}
            />
            <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
              <SelectField name="service" label="Service" data={serviceOptions} searchable allowDeselect={false} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
              <DisplayField label="Channel" value={lead.channel} />
            </Grid.Col>
            <Grid.Col span={{ base: 6, lg: 2 }}>
              <DisplayField label="Cost" value={formatMoney(lead.cost)} />
            </Grid.Col>
            <Grid.Col span={{ base: 6, lg: 2 }}>
              <DisplayField label="Price" value={formatMoney(lead.price)} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
              <TextField name="pub_id" label="Pub ID" />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
              <TextField name="sub_id" label="Sub ID" />
            </Grid.Col>
            <TagsRow kind="lead" />
          </Grid>
        </Section>

        <Section title="Consent">
          <Grid gap="md">
            <Grid.Col span={{ base: 6, lg: 3 }}>
              <YesNoField lead={lead} name="tcpa_consent" label="TCPA Consent" />
            </Grid.Col>
            <Grid.Col span={{ base: 6, lg: 3 }}>
              <YesNoField lead={lead} name="homeowner" label="Homeowner" />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 6 }}>
              <FlaggedTextField
                lead={lead}
                name="trusted_form"
                label="Trusted Form"
                // Only a certificate on TrustedForm's host opens (issue 32): never a link a source typed.
                rightSection={
                  <OpenLinkButton
                    url={trustedFormCertificateUrl(lead.trusted_form) ?? undefined}
                    label="Open the TrustedForm certificate"
                  />
                }
                rightSectionPointerEvents="all"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 6 }}>
              <FlaggedTextField lead={lead} name="jornaya" label="LeadiD Token" />
            </Grid.Col>
            {(lead.trusted_form_ping_url || lead.field_flags?.some((f) => f.field === 'trusted_form_ping_url')) && (
              <Grid.Col span={{ base: 12, lg: 6 }}>
                <ValueField
                  label="TrustedForm Ping URL"
                  value={lead.trusted_form_ping_url}
                  note={<FieldFlagNote lead={lead} field="trusted_form_ping_url" />}
                />
              </Grid.Col>
            )}
            <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
              <DisplayField label="IP" value={lead.ip} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6, lg: 3 }}>
              <DisplayField label="User Agent" value={lead.user_agent} />
            </Grid.Col>
            <Grid.Col span={12}>
              <TextareaField name="tcpa_language" label="TCPA Language" />
            </Grid.Col>
          </Grid>
        </Section>
      </EditableForm>

      <ServiceFieldsSection lead={lead} />

      <QualitySection lead={lead} />

      <Section title="Metadata" description="What the source sent beside the lead's fields.">
        <JsonViewer value={lead.metadata} label="Metadata" />
      </Section>

      <BuyersSection matches={matches} />
      <LeadComplianceSections leadId={lead._id} admin />
      <LeadPings lead={lead} />
      <LeadDeliveryLogs lead={lead} />
      <LeadExplanation lead={lead} />
      <ReturnsSection leadId={lead._id} matches={matches} />
    </Stack>
  );
}

/** Admin §2: a 10-digit phone formatted, anything else Invalid; an empty field stays empty. */
function formatLeadPhoneOrEmpty(phone: string): string {
  return phone ? formatLeadPhone(phone) : '';
}

/** The quality viewer's two buttons: each sets `quality.ok`, and shows pressed while it holds. */
const QUALITY_RATINGS = [
  { good: true, label: 'Good', color: 'green', Icon: IconThumbUp },
  { good: false, label: 'Bad', color: 'red', Icon: IconThumbDown },
] as const;

/** The quality viewer: the lead's quality record and the Good/Bad button that sets `quality.ok`. */
function QualitySection({ lead }: { lead: LeadDetail }) {
  const update = useUpdateLead(lead._id);
  const ok = lead.quality?.ok;
  const mark = async (good: boolean) => {
    const saved = await update.mutateAsync({ quality: { ok: good } });
    showSaved(titleOf(saved), false);
  };
  const { ok: _ok, ...rest } = lead.quality ?? {};
  return (
    <Section
      title="Quality"
      description={
        ok === undefined ? 'Not rated yet.' : ok ? 'Rated good.' : 'Rated bad: the buyer may have reason to return it.'
      }
      actions={
        <Button.Group>
          {QUALITY_RATINGS.map(({ good, label, color, Icon }) => (
            <Button
              key={label}
              variant={ok === good ? 'filled' : 'default'}
              color={color}
              leftSection={<Icon size={18} />}
              aria-pressed={ok === good}
              loading={update.isPending && update.variables?.quality?.ok === good}
              onClick={() => ok !== good && mark(good)}
            >
              {label}
            </Button>
          ))}
        </Button.Group>
      }
    >
      {Object.keys(rest).length > 0 ? (
        <JsonViewer value={lead.quality} label="Quality" />
      ) : (
        <Text fz="sm" c="dimmed">
          No quality checks recorded.
        </Text>
      )}
    </Section>
  );
}

/** Admin §2: the buyers of the lead with price, shared price, rejected and the return's status. */
function BuyersSection({ matches }: { matches: LeadMatch[] }) {
  return (
    <Section title="Buyers" description="The campaigns that bought this lead.">
      <RecordsTable<LeadMatch>
        records={matches}
        noRecordsText="No Buyer"
        columns={[
          recordLinkColumn('buyer', 'Buyer', (m) => ({
            to: `/buyer/${m.buyer._id}`,
            text: m.buyer.name ?? m.buyer._id,
          })),
          recordLinkColumn('campaign', 'Campaign', (m) => ({
            to: `/campaign/${m.campaign._id}`,
            text: m.campaign.name,
          })),
          {
            accessor: 'kind',
            title: 'Exclusive',
            render: (m) => (m.kind === 'exclusive' ? 'Yes' : 'No'),
          },
          { accessor: 'price', title: 'Price', textAlign: 'right', render: (m) => formatMoney(m.price) },
          {
            accessor: 'shared_price',
            title: 'Shared Price',
            textAlign: 'right',
            render: (m) => formatMoney(m.shared_price),
          },
          {
            accessor: 'reject',
            title: 'Rejected',
            render: (m) => (
              <Badge component="span" variant="light" color={m.reject ? 'red' : 'gray'}>
                {m.reject ? 'Yes' : 'No'}
              </Badge>
            ),
          },
          {
            accessor: 'delivery_status',
            title: 'Delivery',
            render: (m) => <MatchDeliveryBadge match={m} />,
          },
          {
            accessor: 'return',
            title: 'Return Status',
            noWrap: true,
            render: (m) => {
              const status = returnStatusOf(m.return);
              return status ? <ReturnStatusBadge status={status} viewer="admin" /> : null;
            },
          },
        ]}
      />
    </Section>
  );
}

/**
 * Where the returns of the lead's matches stand, with Approve (also for a sale nobody asked to
 * return) and Deny (a request) while undecided (admin §2 Lead detail: return actions).
 */
function ReturnsSection({ leadId, matches }: { leadId: string; matches: LeadMatch[] }) {
  const sold = matches.filter((m) => !m.reject);
  return (
    <Section title="Returns">
      {sold.length === 0 ? (
        <Text fz="sm" c="dimmed">
          No buyer to return it.
        </Text>
      ) : (
        <Stack gap="sm">
          {sold.map((m) => {
            const status = returnStatusOf(m.return);
            return (
              <Group key={m._id} gap="sm" wrap="wrap">
                <Text fz="sm" fw={500}>
                  {m.buyer.name ?? m.buyer._id}
                </Text>
                {status ? (
                  <ReturnStatusBadge status={status} viewer="admin" />
                ) : (
                  <Text fz="sm" c="dimmed">
                    No return requested
                  </Text>
                )}
                {m.return?.reason && <Text fz="sm">Reason: {m.return.reason}</Text>}
                {m.return?.comment && (
                  <Text fz="sm" c="dimmed">
                    “{m.return.comment}”
                  </Text>
                )}
                {(!status || status === 'requested') && (
                  <DecideReturnButtons
                    leadId={leadId}
                    matchId={m._id}
                    requested={status === 'requested'}
                    buyerName={m.buyer.name ?? m.buyer._id}
                  />
                )}
              </Group>
            );
          })}
        </Stack>
      )}
    </Section>
  );
}

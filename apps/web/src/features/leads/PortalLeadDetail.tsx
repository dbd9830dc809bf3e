import { formatLeadPhone, type LeadDetail, trustedFormCertificateUrl } from '@leadex/domain';
import { Alert, Anchor, Grid, type GridColProps, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { useServiceLabel } from '../../components/ServiceName';
import { formatMoney, formatTimestamp } from '../../lib/format';
import { RequestReturnButton } from '../returns/ReturnActions';
import { ReturnStatusBadge, returnStatusOf, TestBadge } from './LeadBadges';
import { LeadComplianceSections } from './LeadCompliance';
import {
  BadgeRow,
  FieldFlagNote,
  FlagField,
  LabeledField,
  LongValueField,
  UrlValueField,
  ValueCols,
  ValueField,
} from './LeadFields';
import { leadType } from './leadFormat';
import { ServiceFieldsSection } from './ServiceFieldsSection';

const titleOf = (lead: { name?: string }) => lead.name?.trim() || 'Lead';
const phoneOf = (phone: string | undefined) => (phone ? formatLeadPhone(phone) : '');

const half = { base: 12, sm: 6, lg: 4 } as const;
const narrow = { base: 6, lg: 2 } as const;

/** Lead Details, opening with the lead's ID and timestamp in either portal; the portal's own fields follow. */
function LeadDetailsSection({ lead, children }: { lead: LeadDetail; children: ReactNode }) {
  return (
    <Section title="Lead Details">
      <Grid gap="md">
        <ValueCols
          fields={[
            { label: 'ID', value: lead._id },
            { label: 'Timestamp', value: formatTimestamp(lead.ts) },
          ]}
        />
        {children}
      </Grid>
    </Section>
  );
}

/**
 * The TrustedForm certificate: the open button only for a certificate on TrustedForm's host (what a
 * source sent is shown, never run), and the flag when the source sent something else (issue 32).
 */
function TrustedFormCol({ lead, label, span }: { lead: LeadDetail; label: string; span: GridColProps['span'] }) {
  return (
    <Grid.Col span={span}>
      <UrlValueField
        label={label}
        value={lead.trusted_form}
        openUrl={trustedFormCertificateUrl(lead.trusted_form) ?? undefined}
        openLabel="Open the TrustedForm certificate"
        note={<FieldFlagNote lead={lead} field="trusted_form" />}
      />
    </Grid.Col>
  );
}

/** The lead's TCPA consent and homeowner flags, under each portal's labels. */
function ConsentFlags({
  lead,
  labels: [tcpa, homeowner],
  span,
}: {
  lead: LeadDetail;
  labels: [string, string];
  span: GridColProps['span'];
}) {
  return (
    <>
      <Grid.Col span={span}>
        <FlagField label={tcpa} value={lead.tcpa_consent} note={<FieldFlagNote lead={lead} field="tcpa_consent" />} />
      </Grid.Col>
      <Grid.Col span={span}>
        <FlagField label={homeowner} value={lead.homeowner} note={<FieldFlagNote lead={lead} field="homeowner" />} />
      </Grid.Col>
    </>
  );
}

/**
 * Portals §2 Buyer lead detail: the lead's fields read-only, its own match only; the Billing section
 * appears when the first match exists and was not rejected; Request Lead Return while it may be returned.
 */
export function BuyerLeadDetail({ lead }: { lead: LeadDetail }) {
  const first = lead.match?.[0];
  const serviceLabel = useServiceLabel();
  const billed = first !== undefined && !first.reject;
  const returnStatus = returnStatusOf(first?.return);
  return (
    <>
      <PageHeader
        title={titleOf(lead)}
        description={
          <BadgeRow>
            <Text component="span" fz="sm" c="dimmed">
              {formatTimestamp(lead.ts)} · {leadType(lead.ping_id)}
            </Text>
            {lead.test && <TestBadge />}
          </BadgeRow>
        }
        breadcrumbs={[{ label: 'Leads', to: '/leads' }, { label: titleOf(lead) }]}
        actions={billed && first.returnable ? <RequestReturnButton leadId={lead._id} matchId={first._id} /> : undefined}
      />
      <Stack gap="lg">
        <LeadDetailsSection lead={lead}>
          <ValueCols
            lead={lead}
            fields={[
              { label: 'Service', value: serviceLabel(lead.service) },
              { label: 'Name', value: lead.name },
              { field: 'phone', label: 'Phone', value: phoneOf(lead.phone) },
              { field: 'email', label: 'Email', value: lead.email },
              { field: 'address', label: 'Address', value: lead.address, span: { base: 12, sm: 6, lg: 5 } },
              { field: 'city', label: 'City', value: lead.city, span: { base: 12, sm: 6, lg: 3 } },
              { field: 'state', label: 'State', value: lead.state, span: narrow },
              { field: 'zip', label: 'Zip', value: lead.zip, span: narrow },
            ]}
          />
        </LeadDetailsSection>

        <ServiceFieldsSection lead={lead} />

        <Section title="Consent">
          <Grid gap="md">
            <ConsentFlags lead={lead} labels={['TCPA Consent', 'Homeowner']} span={{ base: 6, lg: 3 }} />
            <TrustedFormCol lead={lead} label="Trusted Form" span={{ base: 12, lg: 6 }} />
            <ValueCols
              lead={lead}
              fields={[
                { field: 'jornaya', label: 'LeadiD Token', value: lead.jornaya, span: { base: 12, lg: 6 } },
                { label: 'TCPA Language', value: lead.tcpa_language, span: 12, long: true },
              ]}
            />
          </Grid>
        </Section>

        <LeadComplianceSections leadId={lead._id} />

        {first?.reject && (
          <Alert color="gray" icon={<IconInfoCircle />} title="Not billed">
            Your delivery did not accept this lead, so it is not on your bill.
            {first.delivery_reason && ` Your system's reason: ${first.delivery_reason}`}
          </Alert>
        )}
        {billed && first.delivery_reason && (
          <Alert color="yellow" icon={<IconInfoCircle />} title="Not accepted by your delivery">
            Your system's reason: {first.delivery_reason}
          </Alert>
        )}
        {billed && (
          <Section title="Billing">
            <Grid gap="md">
              <Grid.Col span={half}>
                <ValueField label="Price" value={formatMoney(first.price)} />
              </Grid.Col>
              {first.buyer_lead_id && (
                <Grid.Col span={half}>
                  <ValueField label="Your Lead ID" value={first.buyer_lead_id} />
                </Grid.Col>
              )}
              <Grid.Col span={half}>
                <LabeledField label="Bill">
                  {first.bill ? (
                    <Anchor component={Link} to={`/bill/${first.bill}`} fz="sm">
                      View the bill
                    </Anchor>
                  ) : (
                    <Text fz="sm" c="dimmed">
                      The next bill
                    </Text>
                  )}
                </LabeledField>
              </Grid.Col>
              <Grid.Col span={half}>
                <LabeledField label="Return Status">
                  {returnStatus ? (
                    <ReturnStatusBadge status={returnStatus} viewer="buyer" />
                  ) : (
                    <Text fz="sm" c="dimmed">
                      {first.returnable ? 'No return requested' : 'The return window has closed'}
                    </Text>
                  )}
                </LabeledField>
              </Grid.Col>
            </Grid>
          </Section>
        )}
      </Stack>
    </>
  );
}

/**
 * Portals §2 Source lead detail: title the lead's name (or Lead); ID, Timestamp, Source name, Name,
 * City, State, Zip, Phone, Email, Address, Trusted_Form, PUB_ID, SUB_ID, Jornaya, TCPA_Language, and
 * Yes/No badges for TCPA_Consent and Homeowner. Never a buyer or a price.
 */
export function SourceLeadDetail({ lead }: { lead: LeadDetail }) {
  return (
    <>
      <PageHeader
        title={titleOf(lead)}
        description={lead.test ? <TestBadge /> : undefined}
        breadcrumbs={[{ label: 'Leads', to: '/leads' }, { label: titleOf(lead) }]}
      />
      <LeadDetailsSection lead={lead}>
        <ValueCols
          lead={lead}
          fields={[
            { label: 'Source name', value: lead.source?.name },
            { label: 'Name', value: lead.name },
            { field: 'city', label: 'City', value: lead.city },
            { field: 'state', label: 'State', value: lead.state, span: narrow },
            { field: 'zip', label: 'Zip', value: lead.zip, span: narrow },
            { field: 'phone', label: 'Phone', value: phoneOf(lead.phone) },
            { field: 'email', label: 'Email', value: lead.email },
            { field: 'address', label: 'Address', value: lead.address },
          ]}
        />
        <TrustedFormCol lead={lead} label="Trusted_Form" span={{ base: 12, lg: 8 }} />
        <ValueCols
          fields={[
            { label: 'PUB_ID', value: lead.pub_id },
            { label: 'SUB_ID', value: lead.sub_id },
            { field: 'jornaya', label: 'Jornaya', value: lead.jornaya },
          ]}
        />
        <ConsentFlags lead={lead} labels={['TCPA_Consent', 'Homeowner']} span={narrow} />
        <Grid.Col span={12}>
          <LongValueField label="TCPA_Language" value={lead.tcpa_language} />
        </Grid.Col>
      </LeadDetailsSection>
      <ServiceFieldsSection lead={lead} />
    </>
  );
}

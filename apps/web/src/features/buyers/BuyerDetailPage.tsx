import { type Buyer, buyerUserSchema } from '@leadex/domain';
import { Alert, Button, Grid, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconInfoCircle, IconPlayerPause, IconShieldOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ConfirmButton } from '../../components/ConfirmButton';
import { EditableForm } from '../../components/EditableForm';
import { DisplayField, MoneyField, SelectField, TextField } from '../../components/FormFields';
import { AddressFields, NotesAndTagsFields } from '../../components/ProfileFields';
import { RecordFrame, RecordRoute, recordStatus, useCreateOrUpdateForm } from '../../components/RecordPage';
import { Section } from '../../components/Section';
import { UsersSection } from '../../components/UsersSection';
import { formatMoney, formatPhone, formatTimestamp } from '../../lib/format';
import { showSuccess } from '../../lib/notify';
import { useClaims } from '../../lib/session';
import { PaymentCardsSection } from '../bills/PaymentCardsSection';
import { TypedNumberField } from '../campaigns/TypedNumberField';
import { BuyerBillsTable, BuyerCampaignsTable, BuyerLeadsTable } from './BuyerTables';
import {
  BUYER_FORM,
  type BuyerFormValues,
  GRACE_OPTIONS,
  PAY_METHOD_OPTIONS,
  PERIOD_OPTIONS,
  WHOLE_FIELDS,
} from './buyerForm';
import {
  type BuyerInclude,
  useBuyer,
  useBuyerBills,
  useBuyerUserActions,
  useCreateBuyer,
  usePauseCampaigns,
  useUpdateBuyer,
} from './buyers.api';
import { LeadDeliverySection } from './LeadDeliverySection';
import { LegalNamesSection } from './LegalNamesSection';

/** Admin §8: the question before pausing all campaigns of a buyer. */
export const PAUSE_CONFIRM = 'Are you sure you want to pause all campaigns for this buyer?';

const ADMIN_INCLUDE: BuyerInclude[] = ['matches', 'leads', 'users'];
const SELF_INCLUDE: BuyerInclude[] = ['users'];

/** /buyer/{id} for the admin; /buyer/new creates. */
export function BuyerDetailPage() {
  return <RecordRoute>{(id) => <BuyerDetail id={id} />}</RecordRoute>;
}

/** /buyer for a buyer user: its own record, read-only (admin spec §2, the buyer's own view). */
export function BuyerProfilePage() {
  const { role_id } = useClaims();
  if (!role_id) {
    return (
      <Alert color="yellow" icon={<IconInfoCircle />}>
        Your user is not linked to a buyer. Contact your provider.
      </Alert>
    );
  }
  return <BuyerDetail id={role_id} selfView />;
}

interface BuyerDetailProps {
  id: string;
  /** The buyer looking at itself: nothing is editable, and users are changed through the provider. */
  selfView?: boolean;
}

/** The buyer screen shared by the admin and the buyer's own profile (DESIGN.md §3). */
function BuyerDetail({ id, selfView = false }: BuyerDetailProps) {
  const isNew = id === 'new' && !selfView;
  const buyer = useBuyer(isNew ? null : id, selfView ? SELF_INCLUDE : ADMIN_INCLUDE);
  const bills = useBuyerBills(isNew || selfView ? null : id);
  const create = useCreateBuyer();
  const update = useUpdateBuyer(id);
  const pause = usePauseCampaigns(id);
  const userActions = useBuyerUserActions(id);
  const editor = useCreateOrUpdateForm({ ...BUYER_FORM, isNew, record: buyer.data, create, update });

  const record = buyer.data;
  const anyLive = Boolean(record?.matches?.some((c) => c.status.live));
  const pauseAll = async () => {
    const result = await pause.mutateAsync().catch(() => null);
    if (result) showSuccess(`${result.paused} ${result.paused === 1 ? 'campaign' : 'campaigns'} paused`);
  };

  return (
    <RecordFrame
      status={recordStatus(buyer, isNew)}
      notFound={{ title: 'Buyer not found', text: 'This buyer does not exist, or you cannot see it.' }}
    >
      <EditableForm<BuyerFormValues>
        {...editor}
        readOnly={selfView}
        wholeFields={WHOLE_FIELDS}
        actions={
          record && !selfView ? (
            <ConfirmButton
              variant="light"
              color="red"
              leftSection={<IconPlayerPause size={18} />}
              disabled={!anyLive}
              loading={pause.isPending}
              confirmTitle="Pause Campaigns"
              confirmText={PAUSE_CONFIRM}
              confirmLabel="Pause Campaigns"
              confirmColor="red"
              onConfirm={pauseAll}
            >
              Pause Campaigns
            </ConfirmButton>
          ) : record && selfView ? (
            // The buyer's own suppression lists and opt-outs (issue 34): the spec's buyer menu stays as it is.
            <Button component={Link} to="/suppression" variant="light" leftSection={<IconShieldOff size={18} />}>
              Suppression lists
            </Button>
          ) : undefined
        }
        title={isNew ? 'New Buyer' : (record?.name ?? 'Buyer')}
        description={selfView ? 'Your company profile with the exchange.' : undefined}
        breadcrumbs={
          selfView
            ? undefined
            : [{ label: 'Buyers', to: '/buyers' }, { label: isNew ? 'New Buyer' : (record?.name ?? '') }]
        }
      >
        <Section title="Profile">
          <Grid gap="md">
            {record && (
              <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
                <DisplayField label="ID" value={record._id} />
              </Grid.Col>
            )}
            <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
              <TextField name="username" label="Username" locked={!isNew} required={isNew} autoComplete="off" />
            </Grid.Col>
            {record && (
              <Grid.Col span={{ base: 12, sm: 6, lg: 4 }}>
                <DisplayField label="Timestamp" value={formatTimestamp(record.ts)} />
              </Grid.Col>
            )}
            <Grid.Col span={{ base: 12, lg: isNew ? 8 : 12 }}>
              <TextField name="name" label="Name" required />
            </Grid.Col>
            <AddressFields />
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextField name="phone" label="Phone" required type="tel" format={formatPhone} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextField name="email" label="Email" required type="email" />
            </Grid.Col>
            <NotesAndTagsFields kind="buyer" />
          </Grid>
        </Section>

        <LeadDeliverySection sourceSetting={!selfView} />

        <Section title="Billing" description="How the buyer pays for the leads it receives.">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            <SelectField name="bill.pay" label="Payment Method" data={PAY_METHOD_OPTIONS} required />
            <SelectField name="bill.period" label="Billing Period" data={PERIOD_OPTIONS} />
            <SelectField name="bill.grace" label="Grace Period" data={GRACE_OPTIONS} />
            <MoneyField name="bill.prepay" label="Prepay" max={100_000} wholeDollars />
            <MoneyField name="bill.threshold" label="Credit Threshold" max={100_000} wholeDollars />
          </SimpleGrid>
        </Section>

        <BuyerBudgetSection record={record} selfView={selfView} />

        {record && selfView && <PaymentCardsSection buyerId={record._id} />}

        {record && !selfView && (
          <Section title="Bills" description="Bills of this buyer; the accruing bill first.">
            <BuyerBillsTable buyerId={record._id} bills={bills.data} />
          </Section>
        )}

        {record && (
          <UsersSection
            users={record.users ?? []}
            description={
              selfView
                ? 'To add, remove or change users, contact your provider.'
                : 'People who sign in to this buyer’s portal.'
            }
            modalTitle="Buyer User Details"
            schema={buyerUserSchema}
            actions={selfView ? undefined : userActions}
          />
        )}

        {record && !selfView && (
          <>
            <Section title="Campaigns" description="The buyer's campaigns; a row opens the campaign.">
              <BuyerCampaignsTable campaigns={record.matches} />
            </Section>
            <Section title="Latest Leads" description="The last 50 leads sold to this buyer, newest first.">
              <BuyerLeadsTable leads={record.leads} />
            </Section>
          </>
        )}
      </EditableForm>
      {record && <LegalNamesSection buyer={record} selfView={selfView} />}
    </RecordFrame>
  );
}

/** Budget (issue 33): the buyer's daily budget across its campaigns and what it has spent today. */
function BuyerBudgetSection({ record, selfView }: { record: Buyer | undefined; selfView: boolean }) {
  const spent = record?.spent_today;
  const budget = record?.budget_daily ?? null;
  return (
    <Section
      title="Budget"
      description={
        selfView
          ? 'The most your campaigns together may spend in a day; to change it, contact your provider.'
          : 'The most the buyer’s campaigns together may spend in a day, in the exchange’s zone; leave it empty for none.'
      }
    >
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <Stack gap={4}>
          <TypedNumberField name="budget_daily" label="Daily budget" placeholder="No budget" money />
          {/* Spend is counted against a set budget only (no counter without one). */}
          {spent !== undefined && budget !== null && (
            <Text size="sm" c="dimmed" data-testid="buyer-spent-today">
              {`Spent ${formatMoney(spent)} of ${formatMoney(budget)} today`}
            </Text>
          )}
        </Stack>
      </SimpleGrid>
    </Section>
  );
}

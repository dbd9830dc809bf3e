import {
  type Bill,
  type BillAdjustment,
  type BillLead,
  billAdjustmentsSchema,
  NEXT_BILL_ID,
  PAY_METHOD_LABELS,
} from '@leadex/domain';
import { ActionIcon, Anchor, Badge, Button, Group, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { DataTableColumn } from 'mantine-datatable';
import { useMemo } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { EditableForm, useEditing } from '../../components/EditableForm';
import { DisplayField, MoneyField, TextField } from '../../components/FormFields';
import { RecordFrame, recordStatus } from '../../components/RecordPage';
import { RecordsTable } from '../../components/RecordsTable';
import { Section } from '../../components/Section';
import { formatMoney, formatTimestamp } from '../../lib/format';
import { schemaResolver } from '../../lib/forms';
import { showSuccess } from '../../lib/notify';
import { useClaims } from '../../lib/session';
import { formatBillDate } from '../buyers/buyerFormat';
import { ReturnStatusBadge } from '../leads/LeadBadges';
import { formatDeduction, InvoiceLink } from './billColumns';
import { useAdjustBill, useBill } from './bills.api';

/** A credit or debit line as the form holds it: the amount stays a number or empty while typed. */
interface AdjustmentLine {
  amount: number | string;
  description: string;
}
interface AdjustmentValues {
  credits: AdjustmentLine[];
  debits: AdjustmentLine[];
}

const toValues = (bill: Bill): AdjustmentValues => ({ credits: bill.credits, debits: bill.debits });

/** /bill/{id}, and /bill/next/buyer/{buyerId} for a buyer's accruing bill (admin §2 Bill detail). */
export function BillDetailPage() {
  const { id = '', buyerId } = useParams();
  const bill = useBill(id, buyerId);
  return (
    <RecordFrame
      status={recordStatus(bill)}
      notFound={{
        title: 'Bill not found',
        text:
          id === NEXT_BILL_ID
            ? 'This buyer has no bill yet: its first sale opens one.'
            : 'This bill does not exist, or you cannot see it.',
        back: { label: 'Back to the bills', to: '/bills' },
      }}
    >
      {bill.data && <BillScreen bill={bill.data} />}
    </RecordFrame>
  );
}

function BillScreen({ bill }: { bill: Bill }) {
  const { role } = useClaims();
  const isAdmin = role === 'admin';
  const adjust = useAdjustBill(bill._id);
  const values = useMemo(() => toValues(bill), [bill]);
  const form = useForm<AdjustmentValues>({ resolver: schemaResolver(billAdjustmentsSchema), defaultValues: values });
  const onSave = async ({ values: current }: { values: AdjustmentValues }) => {
    await adjust.mutateAsync(billAdjustmentsSchema.parse(current));
    showSuccess('Credits and debits saved');
  };
  const title = bill.accruing ? 'Next Bill' : `Bill ${bill.buyer_name}`;

  return (
    <EditableForm<AdjustmentValues>
      form={form}
      values={values}
      title={title}
      description={
        bill.status.complete
          ? 'This bill is closed: its totals are final.'
          : 'Totals follow the sales, approved returns, credits and debits until the billing run closes the bill.'
      }
      breadcrumbs={[{ label: 'Bills', to: '/bills' }, { label: title }]}
      // Only an admin adjusts, and only a bill not closed yet (PUT /api/bill/{id} refuses it).
      readOnly={!isAdmin || bill.status.complete}
      wholeFields={['credits', 'debits']}
      onSave={onSave}
    >
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <BillDetails bill={bill} linkBuyer={isAdmin} />
          <BillingPeriod bill={bill} />
          <Section title="Billing Type">
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <DisplayField label="Pay Method" value={PAY_METHOD_LABELS[bill.buyer_bill.pay]} />
              <DisplayField label="Period" value={bill.buyer_bill.period === 'weekly' ? 'Weekly' : 'Monthly'} />
            </SimpleGrid>
          </Section>
          <Totals bill={bill} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <AdjustmentsSection kind="credits" title="Credits" lines={bill.credits} />
          <AdjustmentsSection kind="debits" title="Debits" lines={bill.debits} />
        </SimpleGrid>
        <Section title="Leads" description="The leads sold on this bill. A row opens the lead.">
          <BillLeadsTable leads={bill.leads} isAdmin={isAdmin} />
        </Section>
      </Stack>
    </EditableForm>
  );
}

/** Bill Details: ID, Buyer, Created, and the invoice at the payment provider. */
function BillDetails({ bill, linkBuyer }: { bill: Bill; linkBuyer: boolean }) {
  return (
    <Section title="Bill Details">
      <Stack gap="xs">
        <Row label="ID">{bill._id}</Row>
        <Row label="Buyer">
          {linkBuyer ? (
            <Anchor component={Link} to={`/buyer/${bill.buyer}`} fz="sm">
              {bill.buyer_name}
            </Anchor>
          ) : (
            bill.buyer_name
          )}
        </Row>
        <Row label="Created">{formatTimestamp(bill.ts)}</Row>
        <Row label="Invoice">{bill.stripe?.invoice ? <InvoiceLink bill={bill} /> : 'No stripe invoice yet.'}</Row>
        {bill.status.invoiced && (
          <Row label="Payment">
            {bill.payment.paid ? (
              <Badge color="green" variant="light">
                Paid
              </Badge>
            ) : (
              <Text fz="sm" c={bill.payment.error ? 'red' : undefined}>
                {bill.payment.error ? `Unpaid: ${bill.payment.error}` : 'Unpaid'}
              </Text>
            )}
          </Row>
        )}
      </Stack>
    </Section>
  );
}

/** Billing Period: Start ('Initial Bill' for the first), End, and Grace Period unless the buyer bills on credit. */
function BillingPeriod({ bill }: { bill: Bill }) {
  return (
    <Section title="Billing Period">
      <SimpleGrid cols={{ base: 1, xs: bill.buyer_bill.pay === 'credit' ? 2 : 3 }}>
        <DisplayField label="Start" value={bill.start === 0 ? 'Initial Bill' : formatBillDate(bill.start)} />
        <DisplayField label="End" value={formatBillDate(bill.end)} />
        {bill.buyer_bill.pay !== 'credit' && (
          <DisplayField
            label="Grace Period"
            value={bill.buyer_bill.grace === 1 ? '1 day' : `${bill.buyer_bill.grace} days`}
          />
        )}
      </SimpleGrid>
    </Section>
  );
}

function Totals({ bill }: { bill: Bill }) {
  const { total } = bill;
  return (
    <Section title="Totals" description="Net = charges - returns - credits + debits.">
      <Stack gap="xs">
        <Row label="Charges">{formatMoney(total.charges)}</Row>
        <Row label="Returns">{formatDeduction(total.returns)}</Row>
        <Row label="Credits">{formatDeduction(total.credits)}</Row>
        <Row label="Debits">{formatMoney(total.debits)}</Row>
        <Row label="Net">
          <Text fw={700} fz="sm">
            {formatMoney(total.net)}
          </Text>
        </Row>
      </Stack>
    </Section>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md">
      <Text fz="sm" c="dimmed">
        {label}
      </Text>
      <Text fz="sm" component="div" ta="right" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

/** The credits or the debits: a list to read, or, in edit mode, rows to change, add and remove. */
function AdjustmentsSection({
  kind,
  title,
  lines,
}: {
  kind: 'credits' | 'debits';
  title: string;
  lines: BillAdjustment[];
}) {
  const editing = useEditing();
  const { fields, append, remove } = useFieldArray<AdjustmentValues>({ name: kind });
  const singular = kind === 'credits' ? 'credit' : 'debit';
  return (
    <Section
      title={title}
      actions={
        editing && (
          <Button
            variant="light"
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => append({ amount: '', description: '' })}
          >
            Add {singular}
          </Button>
        )
      }
    >
      {!editing ? (
        lines.length === 0 ? (
          <Text fz="sm" c="dimmed">
            No {kind}
          </Text>
        ) : (
          <Stack gap="xs">
            {lines.map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: read-only lines have no id, and their order is the bill's
              <Row key={i} label={line.description}>
                {formatMoney(line.amount)}
              </Row>
            ))}
          </Stack>
        )
      ) : (
        <Stack gap="sm">
          {fields.length === 0 && (
            <Text fz="sm" c="dimmed">
              No {kind}
            </Text>
          )}
          {fields.map((field, i) => (
            <Group key={field.id} align="flex-start" wrap="nowrap" gap="xs">
              <MoneyField
                name={`${kind}.${i}.amount`}
                aria-label={`${title} ${i + 1} amount`}
                placeholder="Amount"
                w={140}
              />
              <TextField
                name={`${kind}.${i}.description`}
                aria-label={`${title} ${i + 1} description`}
                placeholder="Description"
                style={{ flex: 1 }}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mt={6}
                aria-label={`Remove ${singular} ${i + 1}`}
                onClick={() => remove(i)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
      )}
    </Section>
  );
}

/** The return's badge; a request waiting for a decision tells its reason and comment on hover. */
function BillReturnBadge({ lead }: { lead: BillLead }) {
  const ret = lead.match[0]?.return;
  if (!ret) return null;
  const badge = <ReturnStatusBadge status={ret.status} viewer="admin" />;
  if (ret.status !== 'requested') return badge;
  const label = [ret.reason, ret.comment].filter(Boolean).join(': ');
  return (
    <Tooltip label={label || 'No reason given'} multiline maw={280} withArrow>
      {badge}
    </Tooltip>
  );
}

const leadColumns: DataTableColumn<BillLead>[] = [
  { accessor: 'ts', title: 'Timestamp', noWrap: true, render: (l) => formatTimestamp(l.match[0]?.ts) },
  { accessor: 'source_name', title: 'Source' },
  { accessor: 'zip', title: 'ZIP' },
  { accessor: 'service', title: 'Service' },
  { accessor: 'price', title: 'Price', textAlign: 'right', render: (l) => formatMoney(l.price) },
  { accessor: 'return', title: 'Return Status', render: (l) => <BillReturnBadge lead={l} /> },
];

/**
 * A bill's leads. The Source column shows only what the API sent: a buyer reads its leads' sources
 * only when an admin allows it (Show Lead Sources, issue 27).
 */
function BillLeadsTable({ leads, isAdmin }: { leads: BillLead[]; isAdmin: boolean }) {
  const navigate = useNavigate();
  const showSource = isAdmin || leads.some((l) => l.source_name !== undefined);
  return (
    <RecordsTable<BillLead>
      records={leads}
      columns={showSource ? leadColumns : leadColumns.filter((c) => c.accessor !== 'source_name')}
      noRecordsText="No leads on this bill yet"
      onRowClick={(lead) => navigate(`/lead/${lead._id}`)}
    />
  );
}

import type { BillSummary } from '@leadex/domain';
import { Anchor, Badge, Group, Text } from '@mantine/core';
import type { DataTableColumn } from 'mantine-datatable';
import { formatMoney } from '../../lib/format';
import { formatBillDate } from '../buyers/buyerFormat';

/** Date (the bill's end), with the Next Bill badge on the accruing bill. */
export const billDateColumn: DataTableColumn<BillSummary> = {
  accessor: 'end',
  title: 'Date',
  noWrap: true,
  render: (bill) =>
    bill.accruing ? (
      <Group gap="xs" wrap="nowrap">
        <Text fz="sm">{formatBillDate(bill.end)}</Text>
        <Badge variant="light" color="yellow">
          Next Bill
        </Badge>
      </Group>
    ) : (
      formatBillDate(bill.end)
    ),
};

/** The period: 'Initial Bill' for the buyer's first bill (start 0), else its first day, to its last day. */
export const billPeriodText = (bill: Pick<BillSummary, 'start' | 'end'>) =>
  `${bill.start === 0 ? 'Initial Bill' : formatBillDate(bill.start)} – ${formatBillDate(bill.end)}`;

/** Total (net), bold: what the buyer pays. */
export const billTotalColumn: DataTableColumn<BillSummary> = {
  accessor: 'total.net',
  title: 'Total',
  textAlign: 'right',
  render: (b) => (
    <Text fz="sm" fw={600}>
      {formatMoney(b.total.net)}
    </Text>
  ),
};

/** The invoice number at the payment provider, a link to the invoice when there is one. */
export function InvoiceLink({ bill }: { bill: Pick<BillSummary, 'stripe'> }) {
  const number = bill.stripe?.invoice_number ?? bill.stripe?.invoice;
  if (!number) return null;
  if (!bill.stripe?.invoice_url) return <>{number}</>;
  return (
    <Anchor
      href={bill.stripe.invoice_url}
      target="_blank"
      rel="noreferrer"
      fz="sm"
      onClick={(e) => e.stopPropagation()}
    >
      {number}
    </Anchor>
  );
}

/**
 * Returns and credits are taken off what the buyer pays: every screen shows them with a minus sign
 * (none on zero), the bills lists as the bill's Totals (docs/decisions.md, issue 27: one sign).
 */
export const formatDeduction = (dollars: number) => formatMoney(dollars === 0 ? 0 : -Math.abs(dollars));

/** Returns of a bill in a bills list, as a deduction. */
export const billReturnsColumn: DataTableColumn<BillSummary> = {
  accessor: 'total.returns',
  title: 'Returns',
  textAlign: 'right',
  render: (b) => formatDeduction(b.total.returns),
};

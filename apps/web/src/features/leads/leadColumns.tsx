import {
  type AdminLeadListItem,
  type BuyerLeadListItem,
  formatLeadPhone,
  NO_BUYER,
  type SourceLeadListItem,
} from '@leadex/domain';
import { Group, Text } from '@mantine/core';
import type { DataTableColumn } from '../../components/DataTable';
import { formatMoney, formatTimestamp } from '../../lib/format';
import { ReturnStatusBadge, TestBadge, YesNoBadge } from './LeadBadges';

/**
 * The columns of the leads lists per role (admin §2: 18; portals §2: the buyer's and the source's).
 * The accessors of the sortable columns are the API's sort names (`date`, `service`).
 */

type Row = { _id: string; ts: number; name?: string; service: string; zip: string; state?: string };

const dateColumn = <T extends Row>(): DataTableColumn<T> => ({
  accessor: 'date',
  title: 'Date',
  sortable: true,
  noWrap: true,
  render: (lead) => formatTimestamp(lead.ts),
});

const nameColumn = <T extends Row & { test?: boolean }>(): DataTableColumn<T> => ({
  accessor: 'name',
  title: 'Name',
  render: (lead) => (
    <Group gap={6} wrap="nowrap">
      <Text fz="sm" fw={500}>
        {lead.name ?? ''}
      </Text>
      {lead.test && <TestBadge />}
    </Group>
  ),
});

const serviceColumn = <T extends Row>(): DataTableColumn<T> => ({
  accessor: 'service',
  title: 'Service',
  sortable: true,
  noWrap: true,
});

const text = <T,>(accessor: keyof T & string, title: string): DataTableColumn<T> => ({ accessor, title, noWrap: true });

const money = <T extends { [K in A]: number }, A extends string>(accessor: A, title: string): DataTableColumn<T> => ({
  accessor,
  title,
  textAlign: 'right',
  noWrap: true,
  render: (lead) => formatMoney(lead[accessor]),
});

const yesNo = <T extends { [K in A]?: boolean }, A extends string>(accessor: A, title: string): DataTableColumn<T> => ({
  accessor,
  title,
  render: (lead) => <YesNoBadge value={lead[accessor]} />,
});

/** An email wraps after its @, so a narrow table breaks it where it still reads. */
const emailColumn = <T extends { email?: string }>(): DataTableColumn<T> => ({
  accessor: 'email',
  title: 'Email',
  render: (lead) => {
    const at = lead.email?.indexOf('@') ?? -1;
    if (!lead.email || at < 0) return lead.email ?? '';
    // After the @ first; a part too long for the column still breaks rather than widen the table.
    return (
      <span style={{ overflowWrap: 'anywhere' }}>
        {lead.email.slice(0, at + 1)}
        <wbr />
        {lead.email.slice(at + 1)}
      </span>
    );
  },
});

const phoneColumn = <T extends { phone?: string }>(): DataTableColumn<T> => ({
  accessor: 'phone',
  title: 'Phone',
  noWrap: true,
  render: (lead) => formatLeadPhone(lead.phone),
});

/** Admin §2: date, name, buyers, service, state, zip, cost, price, source, channel, sub id, pub id, TCPA
 * consent, trusted form, LeadiD token, phone, email, homeowner. */
export const ADMIN_LEAD_COLUMNS: DataTableColumn<AdminLeadListItem>[] = [
  dateColumn(),
  nameColumn(),
  {
    // Buyers, Source and Email may wrap, so a laptop's 1366 px fits the table (issue 27).
    accessor: 'buyers',
    title: 'Buyers',
    render: (lead) =>
      lead.buyers.length ? (
        lead.buyers.join(', ')
      ) : (
        <Text fz="sm" c="dimmed">
          No Buyer
        </Text>
      ),
  },
  serviceColumn(),
  text('state', 'State'),
  text('zip', 'Zip'),
  money('cost', 'Cost'),
  money('price', 'Price'),
  { accessor: 'source', title: 'Source', render: (lead) => lead.source.name },
  text('channel', 'Channel'),
  text('sub_id', 'Sub ID'),
  text('pub_id', 'Pub ID'),
  yesNo('tcpa_consent', 'TCPA Consent'),
  yesNo('trusted_form', 'Trusted Form'),
  yesNo('jornaya', 'LeadiD'),
  phoneColumn(),
  emailColumn(),
  yesNo('homeowner', 'Homeowner'),
];

/** Portals §2 buyer list: Date and Service sortable, Name, its own Price; where, how to reach, the return. */
export const BUYER_LEAD_COLUMNS: DataTableColumn<BuyerLeadListItem>[] = [
  dateColumn(),
  nameColumn(),
  serviceColumn(),
  money('price', 'Price'),
  text('zip', 'Zip'),
  text('state', 'State'),
  phoneColumn(),
  emailColumn(),
  text('type', 'Type'),
  {
    accessor: 'return_status',
    title: 'Return Status',
    noWrap: true,
    render: (lead) => (lead.return_status ? <ReturnStatusBadge status={lead.return_status} viewer="buyer" /> : null),
  },
];

/**
 * Portals §2 source list: Date, name, service, zip; whether each lead sold and what the source earned for
 * it (its payout: issue 27); never a buyer or a buyer's price.
 */
export const SOURCE_LEAD_COLUMNS: DataTableColumn<SourceLeadListItem>[] = [
  dateColumn(),
  nameColumn(),
  serviceColumn(),
  text('zip', 'Zip'),
  yesNo('sold', 'Sold'),
  money('cost', 'Payout'),
];

/** The admin's buyer filter: "No Buyer" first, then the buyers. */
export const NO_BUYER_OPTION = { value: NO_BUYER, label: 'No Buyer' };

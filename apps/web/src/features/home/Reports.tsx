import type { BuyerReportRow, ReportFigures, SourceReportRow } from '@leadex/domain';
import { BarChart } from '@mantine/charts';
import { Skeleton, Stack } from '@mantine/core';
import { useSearchParams } from 'react-router';
import type { DataTableColumn } from '../../components/DataTable';
import { ExportButton } from '../../components/ExportButton';
import { RecordsTable } from '../../components/RecordsTable';
import { Section } from '../../components/Section';
import { formatMoney } from '../../lib/format';
import { LeadDateRangeFilter } from '../leads/LeadDateRangeFilter';
import { type LeadRange, leadRangeOf, queryString } from '../leads/leadRange';
import { useDailyFigures, useReportRows } from './home.api';

const percent = (ratio: number | null) => (ratio === null ? '—' : `${(ratio * 100).toFixed(1)} %`);
const money = (dollars: number | null) => (dollars === null ? '—' : formatMoney(dollars));
const count = (n: number) => n.toLocaleString('en-US');

/** This month's revenue, cost and profit per day (GET /api/stats/daily). */
export function DailyChart() {
  const daily = useDailyFigures();
  return (
    <Section title="This Month by Day" description="Revenue, cost and profit of each day of the month, in New York.">
      {daily.data ? (
        <BarChart
          h={260}
          data={daily.data.map((d) => ({ ...d, label: d.day.slice(5).replace('-', '/') }))}
          dataKey="label"
          series={[
            { name: 'revenue', label: 'Revenue', color: 'blue.6' },
            { name: 'cost', label: 'Cost', color: 'orange.6' },
            { name: 'profit', label: 'Profit', color: 'teal.6' },
          ]}
          valueFormatter={(value) => formatMoney(value)}
          withLegend
          aria-label="Revenue, cost and profit per day"
        />
      ) : (
        <Skeleton height={260} />
      )}
    </Section>
  );
}

/** The columns both reports end with. */
const FIGURE_COLUMNS: DataTableColumn<ReportFigures>[] = [
  { accessor: 'average_price', title: 'Avg. price', textAlign: 'right', render: (r) => money(r.average_price) },
  { accessor: 'returns', title: 'Returns', textAlign: 'right', render: (r) => count(r.returns) },
  { accessor: 'return_rate', title: 'Return rate', textAlign: 'right', render: (r) => percent(r.return_rate) },
  { accessor: 'revenue', title: 'Revenue', textAlign: 'right', render: (r) => formatMoney(r.revenue) },
  { accessor: 'cost', title: 'Cost', textAlign: 'right', render: (r) => formatMoney(r.cost) },
  { accessor: 'profit', title: 'Profit', textAlign: 'right', render: (r) => formatMoney(r.profit) },
];

const SOURCE_COLUMNS = [
  { accessor: 'name', title: 'Source' },
  { accessor: 'pings', title: 'Pings', textAlign: 'right', render: (r) => count(r.pings) },
  { accessor: 'leads', title: 'Leads', textAlign: 'right', render: (r) => count(r.leads) },
  { accessor: 'ping_to_post', title: 'Ping to post', textAlign: 'right', render: (r) => percent(r.ping_to_post) },
  { accessor: 'sold', title: 'Sold', textAlign: 'right', render: (r) => count(r.sold) },
  ...FIGURE_COLUMNS,
] as DataTableColumn<SourceReportRow>[];

const BUYER_COLUMNS = [
  { accessor: 'name', title: 'Buyer' },
  { accessor: 'leads', title: 'Leads', textAlign: 'right', render: (r) => count(r.leads) },
  ...FIGURE_COLUMNS,
] as DataTableColumn<BuyerReportRow>[];

function ReportTable<T extends { _id: string }>({
  report,
  title,
  range,
  columns,
}: {
  report: 'sources' | 'buyers';
  title: string;
  range: LeadRange;
  columns: DataTableColumn<T>[];
}) {
  const query = { dateq: range.dateq, begin: range.begin, end: range.end };
  const rows = useReportRows<T>(report, query);
  const empty = rows.data?.length === 0;
  return (
    <Section
      title={title}
      actions={
        <ExportButton
          href={`/api/stats/${report}/export.csv?${queryString(query)}`}
          disabled={!rows.data || empty}
          emptyText="Nothing to export in this range"
          size="xs"
        />
      }
    >
      <RecordsTable<T> records={rows.data} columns={columns} noRecordsText="No results" />
    </Section>
  );
}

/** Per source and per buyer over a range the user picks (kept in the URL like the leads lists'). */
export function RangeReports() {
  const [params] = useSearchParams();
  const range = leadRangeOf(Object.fromEntries(params));
  return (
    <Stack gap="lg">
      <LeadDateRangeFilter />
      <ReportTable<SourceReportRow> report="sources" title="Sources" range={range} columns={SOURCE_COLUMNS} />
      <ReportTable<BuyerReportRow> report="buyers" title="Buyers" range={range} columns={BUYER_COLUMNS} />
    </Stack>
  );
}

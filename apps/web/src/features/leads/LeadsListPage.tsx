import { type LeadListItem, PAGE_SIZE } from '@leadex/domain';
import { Group, Paper, Stack } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { ExportButton } from '../../components/ExportButton';
import { UrlSearchInput, UrlServiceFilter, UrlZipFilter } from '../../components/ListPage';
import { PageHeader } from '../../components/PageHeader';
import { queryKeys } from '../../lib/queryKeys';
import { useClaims } from '../../lib/session';
import { LeadBuyerFilter } from './LeadBuyerFilter';
import { LeadColumnsChooser, useLeadColumns } from './LeadColumnsChooser';
import { LeadDateRangeFilter } from './LeadDateRangeFilter';
import { LeadFieldColumnsChooser, LeadFieldFilter, useLeadFieldColumns } from './LeadServiceFields';
import { ADMIN_LEAD_COLUMNS, BUYER_LEAD_COLUMNS, SOURCE_LEAD_COLUMNS } from './leadColumns';
import { LEAD_URL_FILTERS, leadExportUrl, leadListRequest, leadRangeOf } from './leadRange';
import { useLeadValues } from './leads.api';

const DEFAULT_SORT = { column: 'date', order: 'desc' } as const;

const COLUMNS = {
  admin: ADMIN_LEAD_COLUMNS,
  buyer: BUYER_LEAD_COLUMNS,
  source: SOURCE_LEAD_COLUMNS,
} as unknown as Record<'admin' | 'buyer' | 'source', DataTableColumn<LeadListItem>[]>;

const DESCRIPTIONS = {
  admin: 'Every lead the exchange received, sold or not.',
  buyer: 'The leads you bought.',
  source: 'The leads you sent.',
};

/**
 * /leads for the admin, the buyer and the source (admin §2 Leads list, portals §2 buyer and source
 * leads lists): one screen that takes the role into account. The range, the filters, the page and
 * the sort live in the URL, so a copied link opens the same view and Back and Forward work.
 */
export function LeadsListPage() {
  const claims = useClaims();
  // Only the three areas mount this screen.
  const role = claims.role === 'admin' || claims.role === 'buyer' ? claims.role : 'source';
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [hasRows, setHasRows] = useState(false);
  const onPage = useCallback((page: { data: unknown[] } | undefined) => setHasRows((page?.data.length ?? 0) > 0), []);
  const range = leadRangeOf({
    dateq: params.get('dateq'),
    dateRangeStart: params.get('dateRangeStart'),
    dateRangeEnd: params.get('dateRangeEnd'),
  });
  const services = useLeadValues('service', range);
  const zips = useLeadValues('zip', range);
  const service = params.get('service');
  const zip = params.get('zip');
  const serviceOptions = useMemo(() => withChosen(services.data, service), [services.data, service]);
  const zipOptions = useMemo(() => withChosen(zips.data, zip), [zips.data, zip]);
  // Issue 27: the user chooses the table's columns, kept per user, so a laptop shows Phone and Email.
  const columns = useLeadColumns(COLUMNS[role], { userId: claims.user_id, role });
  // Issue 33: the services' own fields as columns the user picks, and filters on several of them.
  const fieldColumns = useLeadFieldColumns<LeadListItem>({ userId: claims.user_id, role, service });
  const shownColumns = useMemo(
    () => [...columns.visible, ...fieldColumns.columns],
    [columns.visible, fieldColumns.columns],
  );

  return (
    <>
      <PageHeader
        title="Leads"
        description={DESCRIPTIONS[role]}
        actions={
          <Group gap="sm">
            <LeadColumnsChooser
              columns={COLUMNS[role]}
              hidden={columns.hidden}
              onToggle={columns.toggle}
              onReset={columns.reset}
            />
            <LeadFieldColumnsChooser
              fields={fieldColumns.fields}
              shown={fieldColumns.shown}
              onToggle={fieldColumns.toggle}
            />
            <ExportButton
              href={leadExportUrl(params, DEFAULT_SORT)}
              disabled={!hasRows}
              emptyText="No leads to export"
            />
          </Group>
        }
      />
      <Paper withBorder p={{ base: 'xs', xs: 'md' }} shadow="xs">
        <Stack gap="md">
          <LeadDateRangeFilter />
          <Group gap="sm" wrap="wrap">
            <UrlSearchInput param="name" label="Search by name" w={{ base: '100%', xs: 260 }} />
            {role === 'admin' && <LeadBuyerFilter w={{ base: '100%', xs: 240 }} />}
            <UrlServiceFilter data={serviceOptions} limit={50} w={{ base: '100%', xs: 220 }} />
            <UrlZipFilter data={zipOptions} limit={50} w={{ base: '100%', xs: 180 }} />
            <LeadFieldFilter fields={fieldColumns.fields} />
          </Group>
          <DataTable<LeadListItem>
            path="/api/lead/date"
            request={leadListRequest}
            queryKey={queryKeys.leads.all}
            columns={shownColumns}
            compact
            pageSize={PAGE_SIZE.leads}
            filterParams={LEAD_URL_FILTERS}
            defaultSort={DEFAULT_SORT}
            onRowClick={(lead) => navigate(`/lead/${lead._id}`)}
            onPage={onPage}
          />
        </Stack>
      </Paper>
    </>
  );
}

/** The values present, and the one a link chose even when the range holds none of it (so it shows). */
function withChosen(values: string[] | undefined, chosen: string | null): string[] {
  const list = values ?? [];
  return chosen && !list.includes(chosen) ? [chosen, ...list] : list;
}

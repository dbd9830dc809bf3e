import { SOURCE_DETAIL_LEADS, type SourceLead } from '@leadex/domain';
import { Badge, Group } from '@mantine/core';
import { useNavigate } from 'react-router';
import { RecordsTable } from '../../components/RecordsTable';
import { Section } from '../../components/Section';
import { formatMoney, formatTimestamp } from '../../lib/format';

/** The source's latest leads (include=leads): date, name, service, zip, cost, price, sold or not. */
export function SourceLeads({ leads }: { leads: SourceLead[] }) {
  const navigate = useNavigate();
  return (
    <Section title="Leads" description={`The latest ${SOURCE_DETAIL_LEADS} leads this source sent.`}>
      <RecordsTable<SourceLead>
        records={leads}
        onRowClick={(lead) => navigate(`/lead/${lead._id}`)}
        columns={[
          { accessor: 'ts', title: 'Date', noWrap: true, render: (lead) => formatTimestamp(lead.ts) },
          { accessor: 'name', title: 'Name' },
          { accessor: 'service', title: 'Service' },
          { accessor: 'zip', title: 'Zip' },
          { accessor: 'channel', title: 'Channel' },
          { accessor: 'cost', title: 'Cost', textAlign: 'right', render: (lead) => formatMoney(lead.cost) },
          {
            accessor: 'price',
            title: 'Price',
            textAlign: 'right',
            render: (lead) => (lead.price === undefined ? '' : formatMoney(lead.price)),
          },
          {
            accessor: 'sold',
            title: 'Status',
            render: (lead) => (
              <Group gap={4} wrap="nowrap">
                <Badge color={lead.sold ? 'green' : 'gray'} variant="light">
                  {lead.sold ? 'Sold' : 'Not sold'}
                </Badge>
                {lead.test && (
                  <Badge color="blue" variant="outline">
                    Test
                  </Badge>
                )}
              </Group>
            ),
          },
        ]}
      />
    </Section>
  );
}

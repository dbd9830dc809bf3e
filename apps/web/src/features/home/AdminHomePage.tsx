import { profitOf, queuePercent, type Stats } from '@leadex/domain';
import { Card, Group, Progress, SimpleGrid, Skeleton, Stack, Table, Text } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { ServiceName } from '../../components/ServiceName';
import { formatMoney } from '../../lib/format';
import { DeletionListWarning } from '../compliance/DeletionLists';
import { useStats } from './home.api';
import { DailyChart, RangeReports } from './Reports';

function Figure({ label, value, hint, color }: { label: string; value?: number; hint: string; color?: string }) {
  return (
    <Card withBorder p="lg" shadow="xs" role="group" aria-label={label}>
      <Text c="dimmed" fz="xs" tt="uppercase" fw={700}>
        {label}
      </Text>
      {value === undefined ? (
        <Skeleton height={30} mt={6} width="70%" />
      ) : (
        <Text fz={28} fw={700} c={color} mt={4}>
          {formatMoney(value)}
        </Text>
      )}
      <Text c="dimmed" fz="xs" mt={4}>
        {hint}
      </Text>
    </Card>
  );
}

function LeadQueue({ stats }: { stats?: Stats }) {
  if (!stats) return <Skeleton height={40} />;
  const percent = queuePercent(stats);
  return (
    <Stack gap={6}>
      <Group justify="space-between">
        <Text fw={600}>
          {stats.totalLeads.toLocaleString('en-US')} of {stats.totalQuota.toLocaleString('en-US')} leads
        </Text>
        <Text c="dimmed" fz="sm">
          {stats.totalQuota > 0 ? `${Math.round(percent)} %` : 'No monthly caps on live campaigns'}
        </Text>
      </Group>
      <Progress
        value={percent}
        size="xl"
        radius="sm"
        aria-label="Lead queue"
        color={percent >= 100 ? 'green' : 'blue'}
      />
    </Stack>
  );
}

function BuyerGaps({ stats }: { stats?: Stats }) {
  if (!stats) return <Skeleton height={120} />;
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table striped aria-label="Buyer Gaps">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>ZIP</Table.Th>
            <Table.Th>Service</Table.Th>
            <Table.Th ta="right">Missed</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {stats.topUnmatchedPings.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={3}>
                <Text c="dimmed" fz="sm" ta="center">
                  No results
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            stats.topUnmatchedPings.map((gap) => (
              <Table.Tr key={`${gap._id.zip}-${gap._id.service}`}>
                <Table.Td>{gap._id.zip}</Table.Td>
                <Table.Td>
                  <ServiceName name={gap._id.service} />
                </Table.Td>
                <Table.Td ta="right">{gap.count.toLocaleString('en-US')}</Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * '/' for the admin (admin spec §2 Home dashboard): this month's revenue target, revenue, cost and
 * profit, the lead queue bar (leads sold of the live campaigns' monthly caps) and the Buyer Gaps.
 */
export function AdminHomePage() {
  const { data: stats } = useStats();
  const profit = stats ? profitOf(stats) : undefined;
  return (
    <>
      <PageHeader title="Admin dashboard" description="This month on the exchange, in New York time." />
      <Stack gap="lg">
        <DeletionListWarning link />
        <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }}>
          <Figure
            label="Revenue target"
            value={stats?.totalQuotaValue}
            hint="Every live campaign's monthly cap at its price"
          />
          <Figure label="Revenue" value={stats?.leadRevenue} hint="Leads sold, less approved returns" />
          <Figure label="Cost" value={stats?.leadCost} hint="Paid to sources, less chargebacks, plus ad spend" />
          <Figure
            label="Profit"
            value={profit}
            hint="Revenue minus cost"
            color={profit === undefined ? undefined : profit < 0 ? 'red.8' : 'green.8'}
          />
        </SimpleGrid>
        <Section
          title="Lead queue"
          description="Leads received this month, sold or not, of the live campaigns' monthly caps."
        >
          <LeadQueue stats={stats} />
        </Section>
        <Section title="Buyer Gaps" description="ZIP codes and services sources offered this month that no buyer took.">
          <BuyerGaps stats={stats} />
        </Section>
        <DailyChart />
        <RangeReports />
      </Stack>
    </>
  );
}

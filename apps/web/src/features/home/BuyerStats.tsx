import type { BuyerStats as BuyerStatsFigures } from '@leadex/domain';
import { CompositeChart } from '@mantine/charts';
import { Group, Paper, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { TitledCard } from '../../components/TitledCard';
import { formatMoney } from '../../lib/format';
import { useBuyerStats } from '../buyers/buyerPortal.api';

const count = (n: number) => n.toLocaleString('en-US');

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Paper withBorder p="sm" radius="md">
      <Text c="dimmed" fz="xs" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="xl" fw={700}>
        {value}
      </Text>
    </Paper>
  );
}

interface TooltipEntry {
  name?: string;
  value?: number;
  color?: string;
}

/** The chart's tooltip: spend in dollars, leads as a count (one formatter cannot do both). */
function DayTooltip({ label, payload }: { label?: string; payload?: readonly TooltipEntry[] }) {
  if (!payload?.length) return null;
  return (
    <Paper withBorder shadow="md" p="xs" radius="md">
      <Text fz="sm" fw={600} mb={4}>
        {label}
      </Text>
      {payload.map((entry) => (
        <Group key={entry.name} justify="space-between" gap="lg" fz="sm">
          <Text fz="sm" c={entry.color}>
            {entry.name === 'spend' ? 'Spend' : 'Leads'}
          </Text>
          <Text fz="sm" fw={600}>
            {entry.name === 'spend' ? formatMoney(entry.value ?? 0) : count(entry.value ?? 0)}
          </Text>
        </Group>
      ))}
    </Paper>
  );
}

function StatsBody({ stats }: { stats: BuyerStatsFigures }) {
  const data = stats.days.map((d) => ({ ...d, label: d.day.slice(5).replace('-', '/') }));
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <Figure label="Leads this month" value={count(stats.month.leads)} />
        <Figure label="Spend this month" value={formatMoney(stats.month.spend)} />
        <Figure label="Returns this month" value={count(stats.month.returns)} />
      </SimpleGrid>
      <div>
        <Text fz="sm" fw={600}>
          Last 30 Days
        </Text>
        <Text c="dimmed" fz="xs" mb="xs">
          Leads bought and spend per day, in New York.
        </Text>
        <CompositeChart
          h={240}
          data={data}
          dataKey="label"
          series={[
            { name: 'spend', label: 'Spend', color: 'blue.6', type: 'bar' },
            { name: 'leads', label: 'Leads', color: 'orange.6', type: 'line', yAxisId: 'right' },
          ]}
          withRightYAxis
          yAxisProps={{ tickFormatter: (value: number) => `$${value}` }}
          rightYAxisProps={{ allowDecimals: false }}
          withLegend
          withDots={false}
          curveType="linear"
          tooltipProps={{
            content: ({ label, payload }) => (
              <DayTooltip label={String(label ?? '')} payload={payload as readonly TooltipEntry[] | undefined} />
            ),
          }}
          aria-label="Leads and spend per day over the last 30 days"
        />
      </div>
    </Stack>
  );
}

/** Stats (portals spec §2 buyer home): this month's leads, spend and returns, and the last 30 days. */
export function BuyerStats({ buyerId }: { buyerId: string }) {
  const stats = useBuyerStats(buyerId);
  return (
    <TitledCard title="Stats" description="Spend is what your leads cost, less the returns we approved.">
      {stats.data ? <StatsBody stats={stats.data} /> : <Skeleton height={320} />}
    </TitledCard>
  );
}

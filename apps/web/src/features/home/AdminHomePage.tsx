import { Card, Group, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { IconArrowRight, IconChartBar, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader';

/** '/' for the admin: the dashboard comes with the stats issue; until then, where to start. */
export function AdminHomePage() {
  return (
    <>
      <PageHeader title="Admin dashboard" description="Run the exchange: buyers, campaigns, sources and leads." />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card p="lg" shadow="xs">
          <Group gap="sm" mb="xs">
            <ThemeIcon variant="light" size="lg">
              <IconChartBar size={20} />
            </ThemeIcon>
            <Text fw={600}>Revenue and lead queue</Text>
          </Group>
          <Text c="dimmed" fz="sm">
            Revenue, cost, profit and the month's lead queue will show here once leads flow through the exchange.
          </Text>
        </Card>
        <Card p="lg" shadow="xs" component={Link} to="/buyers">
          <Group justify="space-between" mb="xs">
            <Group gap="sm">
              <ThemeIcon variant="light" size="lg">
                <IconUsers size={20} />
              </ThemeIcon>
              <Text fw={600}>Buyers</Text>
            </Group>
            <IconArrowRight size={18} />
          </Group>
          <Text c="dimmed" fz="sm">
            Create buyers, set up their billing and give their users access to the buyer portal.
          </Text>
        </Card>
      </SimpleGrid>
    </>
  );
}

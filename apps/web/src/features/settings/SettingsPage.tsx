import { Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconFlask, IconPlugConnected } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { useSystemInfo } from '../sim/sim.api';

/**
 * Admin §2 Settings. The integrations (a social-ads, a search-ads and a mail account by OAuth) are
 * still to come (issue 14); until then this says so. Outside production the simulator is reached from
 * here (the spec's menu has no entry of its own for it; Settings lights up on /sim).
 */
export function SettingsPage() {
  // GET /api/env exists only outside production: its answer says whether the simulator does.
  const env = useSystemInfo();
  return (
    <>
      <PageHeader title="Settings" description="The exchange's connections to other services, and its test tools." />
      <Stack gap="lg">
        <Paper withBorder p="xl" shadow="xs">
          <Stack align="center" gap="xs" py="md">
            <ThemeIcon size={48} radius="xl" variant="light">
              <IconPlugConnected size={26} />
            </ThemeIcon>
            <Title order={4}>Integrations are coming soon</Title>
            <Text c="dimmed" ta="center" maw={520}>
              Connecting a social-ads, a search-ads and a mail account is on its way. Until then, mail goes through
              SMTP_URL and internal sources have no imported ad spend.
            </Text>
          </Stack>
        </Paper>
        {env.data && (
          <Section
            title="Simulator"
            description="Test tools of this exchange: mock date, test leads, billing run, whitelist, reset."
          >
            <Group>
              <ThemeIcon variant="light" size="lg">
                <IconFlask size={20} />
              </ThemeIcon>
              <Text fz="sm" style={{ flex: 1 }}>
                This exchange runs outside production ({env.data.node_env}), so its simulator is available.
              </Text>
              <Button component={Link} to="/sim" rightSection={<IconArrowRight size={16} />}>
                Open Simulator
              </Button>
            </Group>
          </Section>
        )}
      </Stack>
    </>
  );
}

import { Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconArrowRight, IconFlask } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { DeletionListWarning } from '../compliance/DeletionLists';
import { useSystemInfo } from '../sim/sim.api';
import { AdSpendSection } from './AdSpendSection';
import { ConsentSection } from './ConsentSection';
import { IntegrationsSection } from './IntegrationsSection';
import { ServiceFieldsSection } from './ServiceFieldsSection';
import { TimeZoneSection } from './TimeZoneSection';

/**
 * Admin §2 Settings: the integrations (a social-ads, a search-ads and a mail account by OAuth), the
 * internal sources' ad spend, and outside production the way to the simulator (the spec's menu has no
 * entry of its own for it; Settings lights up on /sim).
 */
export function SettingsPage() {
  // GET /api/env exists only outside production: its answer says whether the simulator does.
  const env = useSystemInfo();
  return (
    <>
      <PageHeader title="Settings" description="The exchange's connections to other services, and its test tools." />
      <Stack gap="lg">
        <DeletionListWarning link />
        <IntegrationsSection />
        <AdSpendSection />
        <TimeZoneSection />
        <ServiceFieldsSection />
        <ConsentSection />
        <Section
          title="Compliance"
          description="Suppression lists and opt-outs; erasure requests, retention, the access log and California's deletion lists."
        >
          <Group>
            <Button component={Link} to="/suppression" variant="light" rightSection={<IconArrowRight size={16} />}>
              Open Suppression
            </Button>
            <Button component={Link} to="/compliance" variant="light" rightSection={<IconArrowRight size={16} />}>
              Open Compliance
            </Button>
          </Group>
        </Section>
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

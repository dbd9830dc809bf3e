import { INTEGRATION_INFO, INTEGRATION_NAMES, type IntegrationName } from '@leadex/domain';
import { SimpleGrid, Skeleton, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { Section } from '../../components/Section';
import { showError, showSuccess } from '../../lib/notify';
import { useWriteSearchParams } from '../../lib/searchParams';
import { IntegrationCard } from './IntegrationCard';
import { useIntegrations } from './settings.api';

/** The query parameters the server's OAuth callback comes back to /settings with. */
const RESULT_PARAMS = ['connected', 'integration', 'integrationError'] as const;

const labelOf = (name: string | null) =>
  name && Object.hasOwn(INTEGRATION_INFO, name) ? INTEGRATION_INFO[name as IntegrationName].label : name;

/**
 * After Connect, the server's callback sends the browser back here with `connected={name}` or
 * `integration={name}&integrationError={sentence}`: say so in a toast, once, then take them out of the
 * URL (replacing the entry, so Back and a reload do not say it again).
 */
function useConnectionResult() {
  const [params] = useSearchParams();
  const write = useWriteSearchParams();
  const connected = params.get('connected');
  const failure = params.get('integrationError');
  const integration = params.get('integration');
  // StrictMode runs the effect twice before the URL has changed: one toast per result.
  const told = useRef<string | null>(null);
  useEffect(() => {
    if (connected === null && failure === null) return;
    const result = `${connected}|${integration}|${failure}`;
    if (told.current !== result) {
      told.current = result;
      if (failure !== null) showError(failure || `${labelOf(integration) ?? 'The integration'} could not connect.`);
      else showSuccess(`${labelOf(connected)} connected.`);
    }
    write(Object.fromEntries(RESULT_PARAMS.map((name) => [name, null])), { replace: true });
  }, [connected, failure, integration, write]);
}

/** Admin §2 Settings: the social-ads, search-ads and mail integrations, each with its status and Connect. */
export function IntegrationsSection() {
  useConnectionResult();
  const integrations = useIntegrations();
  return (
    <Section
      title="Integrations"
      description="Accounts the exchange connects to by OAuth: the ad accounts' daily spend is the cost of an internal source; the mail account sends the exchange's mail."
    >
      {integrations.isPending ? (
        <SimpleGrid cols={{ base: 1, md: 3 }} aria-busy="true">
          {INTEGRATION_NAMES.map((name) => (
            <Skeleton key={name} height={260} radius="md" />
          ))}
        </SimpleGrid>
      ) : integrations.data ? (
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          {integrations.data.map((integration) => (
            <IntegrationCard key={integration.name} integration={integration} />
          ))}
        </SimpleGrid>
      ) : (
        <Text c="dimmed" fz="sm">
          The integrations could not be loaded.
        </Text>
      )}
    </Section>
  );
}

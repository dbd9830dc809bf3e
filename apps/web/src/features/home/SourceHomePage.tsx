import { Card, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { useClaims } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';

/**
 * /source (portals spec §2): the welcome page while the welcome claim is set, else the source's
 * details; /source?tab=profile (the Profile menu entry) always shows the details. Both bodies come
 * with the source portal issue: the API has no source routes yet.
 */
export function SourceHomePage() {
  const { welcome, role_id } = useClaims();
  const [params] = useSearchParams();
  const showWelcome = welcome && params.get('tab') !== 'profile';

  if (showWelcome) {
    return (
      <>
        <PageHeader title="Welcome to the Lead Delivery System!" description="Your source area with the exchange." />
        <Card p="lg" shadow="xs">
          <Text c="dimmed" fz="sm">
            Your API key, the ping and post endpoints and a test ping will show here.
          </Text>
        </Card>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Source details" description="Your source area with the exchange." />
      <Card p="lg" shadow="xs">
        <Title order={5} mb={4}>
          Source ID
        </Title>
        <Text fz="sm" ff="monospace">
          {role_id ?? 'Not linked to a source'}
        </Text>
        <Text c="dimmed" fz="sm" mt="sm">
          Your details, API keys, channels and users will show here.
        </Text>
      </Card>
    </>
  );
}

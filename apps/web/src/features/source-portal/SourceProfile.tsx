import { type Source, sourceUserSchema } from '@leadex/domain';
import { Badge, Code, Grid, Group, Stack, Text } from '@mantine/core';
import { DisplayField } from '../../components/FormFields';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { UsersSection } from '../../components/UsersSection';
import { formatPhone } from '../../lib/format';
import { ApiKeysTable } from '../sources/SourceApiKeys';
import { SellingBadge, SellingNotice } from './SellingStatus';

/**
 * Active, or On hold as of the hold's date (its time in the title), with the source's id (portals §2);
 * Awaiting approval or No payout set while its real leads cannot sell yet (issue 27).
 */
function StatusBlock({ source }: { source: Source }) {
  return (
    <Group gap="md" wrap="wrap">
      <SellingBadge source={source} size="lg" />
      <Group gap={6}>
        <Text fz="sm" c="dimmed">
          ID
        </Text>
        <Code fz="sm">{source._id}</Code>
      </Group>
    </Group>
  );
}

/** Widths on a large screen: three rows, the address and the email wide enough to read whole. */
const LG_SPANS: Record<string, number> = { Name: 4, Address: 5, State: 2, Zip: 2, Email: 5 };

/** The source's details page in its portal (portals §2): read-only; changes go through the provider. */
export function SourceProfile({ source }: { source: Source }) {
  const fields: [label: string, value: string | undefined][] = [
    ['Name', source.name],
    ['Address', source.address],
    ['City', source.city],
    ['State', source.state],
    ['Zip', source.zip],
    ['Phone', formatPhone(source.phone)],
    ['Email', source.email],
    ['Can Post Direct', source.canPostLead ? 'Yes' : 'No'],
  ];
  return (
    <Stack gap="lg">
      <PageHeader title="Source details" description={<StatusBlock source={source} />} />
      <SellingNotice source={source} />

      <Section title="Profile" description="To change it, contact your provider.">
        <Grid gap="md">
          {fields.map(([label, value]) => (
            <Grid.Col key={label} span={{ base: 12, sm: 6, lg: LG_SPANS[label] ?? 3 }}>
              <DisplayField label={label} value={value} />
            </Grid.Col>
          ))}
        </Grid>
      </Section>

      {source.channels.length > 0 && (
        <Section title="Channels" description="Your traffic channels: send one as the channel of a ping or lead.">
          <Group gap="xs">
            {source.channels.map((channel) => (
              <Badge key={channel.name} variant="outline" tt="none">
                {channel.name}
              </Badge>
            ))}
          </Group>
        </Section>
      )}

      <Section title="API Keys" description="Send a key as Authorization: Bearer with each ping, post and lead.">
        <ApiKeysTable keys={source.apikeys} />
      </Section>

      <UsersSection
        users={source.users ?? []}
        description="People who sign in to your portal; your provider adds and locks them."
        modalTitle="Source User Details"
        schema={sourceUserSchema}
      />
    </Stack>
  );
}

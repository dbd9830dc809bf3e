import { FIELD_ALIASES, GUIDED_PLATFORMS, type Platform, platformFieldNames, type Source } from '@leadex/domain';
import { Code, List, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Section } from '../../components/Section';

type GuidedPlatform = (typeof GUIDED_PLATFORMS)[number];

/** What to set in each platform (docs/api.md "Connect from …" says the same), and a post as it sends one. */
const GUIDES: Record<GuidedPlatform, { steps: ReactNode[]; example: (origin: string) => string }> = {
  LeadsPedia: {
    steps: [
      <>
        Ping URL <Code>/api/ping</Code>, post URL <Code>/api/post</Code> (direct post: <Code>/api/lead</Code>), POST,
        form-encoded or JSON.
      </>,
      <>
        Your API key in <Code>lp_campaign_key</Code> (or <Code>lp_key</Code>); the post sends the ping's{' '}
        <Code>ping_id</Code> as <Code>lp_ping_id</Code>.
      </>,
      <>
        Service: the exchange maps your <Code>lp_campaign_id</Code> to one, or sets your default service.
      </>,
      <>
        <Code>lp_test=1</Code> is a test: priced and explained, never sold, billed or paid.
      </>,
    ],
    example: (origin) =>
      `curl -s ${origin}/api/ping -d lp_campaign_id=13424 -d lp_campaign_key=$KEY -d zip_code=78701 -d state=TX\ncurl -s ${origin}/api/post -d lp_campaign_id=13424 -d lp_campaign_key=$KEY -d lp_ping_id=<ping_id> \\\n  -d first_name=Pat -d last_name=Lee -d phone_home=5125550142 -d email_address=pat@example.com -d zip_code=78701`,
  },
  boberdoo: {
    steps: [
      <>
        Full post (<Code>API_Action=pushLead</Code>, <Code>Mode=full</Code>) to <Code>/api/lead</Code>; ping/post:{' '}
        <Code>/api/ping</Code>, then <Code>/api/post</Code> with our <Code>ping_id</Code>.
      </>,
      <>
        Your API key in <Code>Key</Code> (body or query string).
      </>,
      <>
        Service: the exchange maps your <Code>TYPE</Code> (lead type id) to one, or sets your default service.
      </>,
      <>
        <Code>Test_Lead=1</Code> is a test: priced and explained, never sold, billed or paid.
      </>,
    ],
    example: (origin) =>
      `curl -s ${origin}/api/lead -d Key=$KEY -d API_Action=pushLead -d Mode=full -d TYPE=21 \\\n  -d First_Name=Sam -d Last_Name=Ray -d Primary_Phone=5125550143 -d Email=sam@example.com \\\n  -d Zip=78701 -d State=TX -d IP_Address=198.51.100.8 -d Homeowner=Yes -d TCPA_Consent=Yes`,
  },
  'Lead Prosper': {
    steps: [
      <>
        Direct post to <Code>/api/lead</Code>; ping/post: <Code>/api/ping</Code>, then <Code>/api/post</Code> with the
        ping's <Code>ping_id</Code> as <Code>lp_ping_id</Code>. POST, form-encoded or JSON.
      </>,
      <>
        Your API key in <Code>lp_key</Code>, or HTTP Basic with the key as password.
      </>,
      <>
        Service: the exchange maps your <Code>lp_campaign_id</Code> to one, or sets your default service.
      </>,
      <>
        <Code>lp_action=test</Code> is a test: priced and explained, never sold, billed or paid.
      </>,
    ],
    example: (origin) =>
      `curl -s ${origin}/api/lead -H 'Content-Type: application/json' -d '{\n  "lp_campaign_id": "13424", "lp_supplier_id": "27633", "lp_key": "'$KEY'",\n  "first_name": "Kim", "last_name": "Fox", "phone": "5125550144", "email": "kim@example.com",\n  "zip_code": "78701", "state": "TX", "ip_address": "198.51.100.9", "home_owner": "Yes" }'`,
  },
};

const code = (name: string) => <Code key={name}>{name}</Code>;

/** A signed-in source's own default service and campaign map, read-only (an admin sets them). */
function OwnServiceRouting({ source }: { source: Source }) {
  if (!source.default_service && source.campaign_services.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        Your exchange has set no default service or campaign ids for you yet: send <Code>service</Code>, or ask it to.
      </Text>
    );
  return (
    <Text fz="sm">
      Your default service: {source.default_service ? <Code>{source.default_service}</Code> : 'none'}.
      {source.campaign_services.length > 0 && (
        <>
          {' '}
          Your campaign ids:{' '}
          {source.campaign_services.map((c, i) => (
            <span key={c.campaign_id}>
              {i > 0 && ', '}
              <Code>{c.campaign_id}</Code> → <Code>{c.service}</Code>
            </span>
          ))}
          .
        </>
      )}
    </Text>
  );
}

/** What each field name `platform` documents becomes, from the table the server reads. */
export function PlatformFieldsTable({ platform }: { platform: Platform }) {
  return (
    <Table
      striped
      withTableBorder
      aria-label={`${platform} fields`}
      data={{
        head: [`${platform} field`, 'Becomes'],
        body: platformFieldNames(platform).map((f) => [code(f.name), f.isField ? code(f.becomes) : f.becomes]),
      }}
    />
  );
}

/**
 * The field aliases and the "Connect from" guides of LeadsPedia, boberdoo and Lead Prosper (issue 32),
 * from the same table the server reads (packages/domain source-api-aliases.ts).
 */
export function PlatformGuides({ origin, apiKey, source }: { origin: string; apiKey?: string; source?: Source }) {
  const withKey = (text: string) => (apiKey ? text.replaceAll('$KEY', apiKey) : text);
  return (
    <>
      <Section
        title="Field aliases"
        description="The platforms' field names, read as ours in any letter case. Our own name wins over an alias; the answer's warnings list each field read under another name or not read."
      >
        <Stack gap="xs">
          <Text fz="sm">
            On a post or a direct lead, a field the exchange does not read is kept in the lead's metadata (form keys{' '}
            <Code>metadata.x</Code> and <Code>metadata[x]</Code> as <Code>x</Code>); a ping ignores it, with a warning.
            Without <Code>service</Code>, a lead takes the one its platform campaign id is mapped to (
            <Code>lp_campaign_id</Code>, <Code>campaign_id</Code>, <Code>TYPE</Code>, <Code>Lead_Type</Code>), else your
            default service.
          </Text>
          {source && <OwnServiceRouting source={source} />}
          <Table
            striped
            withTableBorder
            aria-label="Field aliases"
            data={{
              head: ['Name sent', 'Read as', 'Platforms'],
              body: FIELD_ALIASES.map((a) => [code(a.alias), code(a.field), a.platforms.join(', ')]),
            }}
          />
        </Stack>
      </Section>
      {GUIDED_PLATFORMS.map((platform: Platform & GuidedPlatform) => (
        <Section key={platform} title={`Connect from ${platform}`}>
          <Stack gap="sm">
            <List size="sm" spacing={4}>
              {GUIDES[platform].steps.map((step, i) => (
                // The steps are fixed text: their order is their identity.
                // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
                <List.Item key={i}>{step}</List.Item>
              ))}
            </List>
            <Code block>{withKey(GUIDES[platform].example(origin))}</Code>
            <PlatformFieldsTable platform={platform} />
          </Stack>
        </Section>
      ))}
    </>
  );
}

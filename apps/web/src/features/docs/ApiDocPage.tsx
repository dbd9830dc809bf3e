import { fieldTypeHint, SOURCE_API_REASONS } from '@leadex/domain';
import { Badge, Code, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { Section } from '../../components/Section';
import { useSession } from '../../lib/session';
import { firstApiKey, sourceEndpoints } from '../source-portal/endpoints';
import { SellingNotice } from '../source-portal/SellingStatus';
import { useOwnSource } from '../source-portal/sourcePortal.api';
import { usePublicApiDocument } from './docs.api';
import { type DocumentServiceFields, documentServiceFields, documentServices } from './openapi';
import { PlatformFieldsTable, PlatformGuides } from './PlatformGuides';

/** The three calls in the order a source uses them, with what each answers. */
const ENDPOINTS: { path: string; answers: string[]; example: (origin: string) => string }[] = [
  {
    path: '/api/ping',
    answers: [
      '{ "ok": true, "ping_id": "eyJpZCI6…", "price": 18.00, "expires": 1795315300 }',
      '{ "ok": false, "reason": "no_match" }',
    ],
    example: (origin) =>
      `curl -s ${origin}/api/ping -H "Authorization: Bearer $KEY" \\\n  -H 'Content-Type: application/json' -d '{"service":"roofing","zip":"75201"}'`,
  },
  {
    path: '/api/post',
    answers: [
      '{ "ok": true, "lead_id": "lead_01…", "price": 18.00, "status": "sold" }',
      '{ "ok": false, "lead_id": "lead_01…", "reason": "no_match" }',
    ],
    example: (origin) =>
      `LEAD_KEY=$(uuidgen)  # a new key for every lead; resend it only to retry this same post\ncurl -s ${origin}/api/post -H "Authorization: Bearer $KEY" -H "Idempotency-Key: $LEAD_KEY" \\\n  -H 'Content-Type: application/json' \\\n  -d '{"ping_id":"<ping_id>","name":"Pat Lee","phone":"(214) 555-2142","tcpa_consent":true}'`,
  },
  {
    path: '/api/lead',
    answers: [
      '{ "ok": true, "lead_id": "lead_01…", "price": 18.00, "status": "sold" }',
      '{ "ok": false, "lead_id": "lead_01…", "reason": "no_match" }',
    ],
    example: (origin) =>
      `curl -s ${origin}/api/lead -H "Authorization: Bearer $KEY" \\\n  -d service=solar -d zip=85004 -d name='Pat Lee' -d phone=6025552177`,
  },
];

/**
 * The reason table from the shared list (the server's answers and docs/api.md use the same one), written
 * for people: a capital letter, a full stop, and code names without their Markdown backticks.
 */
const REASONS = SOURCE_API_REASONS.map(
  ({ status, reason, meaning }) =>
    [status, reason, `${meaning.charAt(0).toUpperCase()}${meaning.slice(1).replaceAll('`', '')}.`] as const,
);

/**
 * The public source API (ping, post, lead), rendered from its OpenAPI document (DESIGN.md §4). A signed-in
 * source (/doc) reads its own endpoints, with the direct lead call only when it may post direct, and
 * examples carrying its own API key.
 */
export default function ApiDocPage() {
  const doc = usePublicApiDocument();
  const origin = window.location.origin;
  const claims = useSession().data;
  const isSource = claims?.role === 'source';
  const own = useOwnSource(isSource ? claims.role_id : null);
  const key = own.data && firstApiKey(own.data.apikeys);
  const canPostLead = own.data?.canPostLead ?? claims?.canPostLead ?? false;
  const shown = isSource ? ENDPOINTS.filter(({ path }) => path !== '/api/lead' || canPostLead) : ENDPOINTS;
  return (
    <Stack gap="lg">
      <PageHeader
        title="API Documentation"
        description="Sell leads to the exchange: ping for a price, then post the lead — or both in one call."
      />
      {/* A source that cannot sell real leads yet reads why before its first example answers 403. */}
      {isSource && own.data && <SellingNotice source={own.data} />}
      <Section title="Authentication and formats">
        <Stack gap="xs">
          <Text>
            Send your API key in the <Code>Authorization: Bearer &lt;key&gt;</Code> header, as the password of HTTP
            Basic, or as an <Code>apikey</Code>, <Code>lp_key</Code>, <Code>lp_campaign_key</Code> or <Code>Key</Code>{' '}
            field or query parameter; no key or an unknown one answers 401 before the body is read. Bodies may be JSON,
            form-encoded or XML; answers are JSON, or XML with <Code>response_format=xml</Code> (or an{' '}
            <Code>Accept</Code> header preferring XML), or LeadConduit's <Code>outcome</Code>, <Code>reason</Code>,{' '}
            <Code>price</Code>, <Code>lead.id</Code> with <Code>response_format=leadconduit</Code>, or as XML with{' '}
            <Code>leadconduit_xml</Code> (the exchange can make one your default). <Code>POST /api/post</Code> and{' '}
            <Code>/api/lead</Code> honour an <Code>Idempotency-Key</Code> header for 24 hours: a retry of the same
            request with the same key gets the first answer, and posting the same <Code>ping_id</Code> twice returns the
            first answer without selling twice. A key names one request: make a new key (a UUID) for every lead and
            reuse it only to retry that lead; another lead under a used key is refused with{' '}
            <Code>idempotency_key_reused</Code> and not stored. Send <Code>"test": true</Code> to try the calls without
            selling (test pings use ZIP 99999); the platforms' flags <Code>lp_test</Code>, <Code>lp_action=test</Code>,{' '}
            <Code>Test_Lead</Code>, <Code>is_test</Code> and <Code>xxTest</Code> work too. A test is priced and
            explained, never sold, billed or paid. Send the consumer's <Code>ip</Code> and <Code>user_agent</Code>: your
            own request's are never taken for them.
          </Text>
        </Stack>
      </Section>
      {isSource && (
        <Section title="Your endpoints" description={own.data?.name}>
          <Table withTableBorder aria-label="Your endpoints">
            <Table.Tbody>
              {sourceEndpoints(origin, canPostLead).map((endpoint) => (
                <Table.Tr key={endpoint.path}>
                  <Table.Th w={160}>{endpoint.label}</Table.Th>
                  <Table.Td>
                    <Code>{endpoint.url}</Code>
                  </Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Th w={160}>API key</Table.Th>
                <Table.Td>{key ? <Code>{key.key}</Code> : <Text c="dimmed">No API key yet</Text>}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Section>
      )}
      <Section title="Services" description="The service field takes one of these names, as written here.">
        <ServiceList loading={doc.isPending} failed={doc.isError} services={documentServices(doc.data)} />
      </Section>
      <ServiceFieldsDoc services={documentServiceFields(doc.data)} />
      {shown.map(({ path, answers, example }) => {
        const operation = doc.data?.paths[path]?.post;
        const schema = operation?.requestBody?.content?.['application/json']?.schema;
        const required = new Set(schema?.required ?? []);
        return (
          <Section
            key={path}
            title={
              <Group gap="xs">
                <Badge variant="light">POST</Badge>
                <Code fz="md">{path}</Code>
              </Group>
            }
            description={operation?.summary}
          >
            <Stack gap="md">
              {schema?.properties && (
                <Table
                  striped
                  withTableBorder
                  data={{
                    head: ['Field', 'Type', 'Required', 'Description'],
                    body: Object.entries(schema.properties).map(([name, field]) => [
                      <Code key="name">{name}</Code>,
                      field.type ?? 'boolean',
                      required.has(name) ? 'Yes' : 'No',
                      field.description,
                    ]),
                  }}
                />
              )}
              <TitledCode title="Answers">{answers.join('\n')}</TitledCode>
              <TitledCode title="Example">
                {key ? example(origin).replaceAll('$KEY', key.key) : example(origin)}
              </TitledCode>
            </Stack>
          </Section>
        );
      })}
      <PlatformGuides origin={origin} apiKey={key?.key} source={own.data} />
      <ConnectFromLeadConduit origin={origin} apiKey={key?.key} />
      <Section title="Reason codes" description="Failures answer { ok: false, reason, message, errors? }.">
        <Table
          striped
          withTableBorder
          data={{
            head: ['HTTP', 'reason', 'Meaning'],
            body: REASONS.map(([status, reason, meaning]) => [status, <Code key="reason">{reason}</Code>, meaning]),
          }}
        />
      </Section>
    </Stack>
  );
}

/** The settings of a LeadConduit Custom step reading the LeadConduit-style answer, JSON or XML. */
const LEADCONDUIT_CUSTOM_SETTINGS: [string, string, string][] = [
  ['Outcome Search Term', 'success', 'success'],
  ['Outcome Search Path', 'outcome', '/response/outcome/text()'],
  ['Reason Path', 'reason', '/response/reason/text()'],
  ['Price Path', 'price', '/response/price/text()'],
  ['Reference Path', 'lead.id', '/response/lead/id/text()'],
];

/**
 * How a LeadConduit user sends leads here (issue 32 item 10): the Standard recipient with only a URL,
 * or a Custom step; the source's own key in the examples when it is signed in.
 */
function ConnectFromLeadConduit({ origin, apiKey = 'lx_yourkey' }: { origin: string; apiKey?: string }) {
  const standardUrl = `${origin}/api/lead?apikey=${apiKey}&response_format=leadconduit`;
  return (
    <Section
      title="Connect from LeadConduit"
      description="Its Standard recipient needs only a URL; a Custom step (JSON, Form or XML) maps the fields itself."
    >
      <Stack gap="md">
        <Text>
          <b>Standard recipient</b> (the LeadConduit integration, no answer settings): URL <Code>{standardUrl}</Code>,
          method <Code>POST</Code>, and a custom field <Code>service</Code> naming one of the services above (unless the
          exchange set your default service). It sends no key header, so the key goes in the URL. Its own field names (
          <Code>postal_code</Code>, <Code>phone_1</Code>, <Code>first_name</Code>, …) are taken as the fields they name
          (Field aliases above); fields the exchange does not know are kept in the lead's metadata. The answer is the{' '}
          <Code>outcome</Code>, <Code>reason</Code>, <Code>price</Code> and <Code>lead.id</Code> it reads as they are: a
          sale is a success at your payout, no match a failure with its reason, a test lead (<Code>is_test</Code>) a
          success that sells nothing, a wrong key an error.
        </Text>
        <Text fz="sm">
          What each LeadConduit field becomes (fields named as ours, such as <Code>first_name</Code>,{' '}
          <Code>last_name</Code>, <Code>email</Code>, <Code>city</Code>, <Code>state</Code>, <Code>user_agent</Code>,
          are read as they are; <Code>is_test</Code> true makes the lead a test; every other field, the{' '}
          <Code>price</Code> the Standard recipient always sends among them, is kept in the lead's metadata):
        </Text>
        <PlatformFieldsTable platform="LeadConduit" />
        <Text>
          <b>Custom step</b>: URL <Code>{`${origin}/api/lead?response_format=leadconduit`}</Code> (XML:{' '}
          <Code>response_format=leadconduit_xml</Code>), the header <Code>Authorization: Bearer {apiKey}</Code> (or HTTP
          Basic with the key as password), the fields mapped onto <Code>service</Code>, <Code>zip</Code>,{' '}
          <Code>first_name</Code>, <Code>last_name</Code>, <Code>phone</Code>, <Code>email</Code>, …, and these answer
          settings:
        </Text>
        <Table
          striped
          withTableBorder
          aria-label="LeadConduit Custom step answer settings"
          data={{
            head: ['Setting', 'JSON or Form', 'XML'],
            body: LEADCONDUIT_CUSTOM_SETTINGS.map(([setting, json, xml]) => [
              setting,
              <Code key="json">{json}</Code>,
              <Code key="xml">{xml}</Code>,
            ]),
          }}
        />
        <TitledCode title="Try it as the Standard recipient sends it">
          {`curl -s '${standardUrl}' \\\n  -d service=roofing -d first_name=Pat -d last_name=Lee -d email=pat@example.com \\\n  -d phone_1=5125550142 -d postal_code=78701 -d is_test=true\n# {"outcome":"success","lead":{"id":"lead_01…"},"price":20,"test":true}`}
        </TitledCode>
      </Stack>
    </Section>
  );
}

/**
 * Each service's own fields (issue 33), from the document: what each takes, when it is sent, and an
 * example ping and post generated from the definitions.
 */
function ServiceFieldsDoc({ services }: { services: DocumentServiceFields[] }) {
  if (services.length === 0) return null;
  return (
    <Section
      title="Service fields"
      description="Fields a service's leads carry beyond the standard ones. Send them by key or alias (any case), at the top level or in a fields object. A required field missing or unreadable is refused (400 naming it); an optional one that cannot be read is kept aside and flagged in the answer's warnings, and the lead still sells. Ping fields are read at the ping and kept for the post; personal and post fields are sent with the post."
    >
      <Stack gap="lg">
        {services.map(({ service, fields, examples }) => (
          <Stack key={service} gap="xs">
            <Title order={3} size="h5">
              <Code fz="md">{service}</Code>
            </Title>
            <Table withTableBorder striped aria-label={`Fields of ${service}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Field</Table.Th>
                  <Table.Th>Takes</Table.Th>
                  <Table.Th>Sent at</Table.Th>
                  <Table.Th>Required</Table.Th>
                  <Table.Th>Aliases</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {fields.map((f) => (
                  <Table.Tr key={f.key}>
                    <Table.Td>
                      <Code>{f.key}</Code>
                      <Text fz="xs" c="dimmed">
                        {f.label}
                        {f.help ? ` — ${f.help}` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td fz="sm">{fieldTypeHint(f).replaceAll('`', '')}</Table.Td>
                    <Table.Td fz="sm">
                      {f.stage === 'ping' && !f.personal ? 'ping' : 'post'}
                      {f.personal ? ' (personal)' : ''}
                    </Table.Td>
                    <Table.Td fz="sm">{f.required ? 'yes' : 'no'}</Table.Td>
                    <Table.Td fz="sm">
                      {f.aliases.map((a) => (
                        <Code key={a} mr={4}>
                          {a}
                        </Code>
                      ))}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              {EXAMPLE_STAGES.map((stage) => (
                <div key={stage}>
                  <Text fz="sm" fw={500}>
                    {`Example ${stage}`}
                  </Text>
                  <Code block>{JSON.stringify(examples[stage], null, 2)}</Code>
                </div>
              ))}
            </SimpleGrid>
          </Stack>
        ))}
      </Stack>
    </Section>
  );
}

/** A service's example requests, in the order a source sends them. */
const EXAMPLE_STAGES = ['ping', 'post'] as const;

/** A code block under its small bold title (a call's answers, an example). */
function TitledCode({ title, children }: { title: string; children: string }) {
  return (
    <div>
      <Text fw={600} fz="sm" mb={4}>
        {title}
      </Text>
      <Code block>{children}</Code>
    </div>
  );
}

/** The exchange's services from the document (`x-services`), or what stands for them meanwhile. */
function ServiceList({ loading, failed, services }: { loading: boolean; failed: boolean; services: string[] }) {
  if (loading)
    return (
      <Group gap="xs" role="status" aria-label="Loading services">
        <Loader size="sm" />
        <Text c="dimmed" fz="sm">
          Loading...
        </Text>
      </Group>
    );
  if (failed || services.length === 0)
    return (
      <Text c="dimmed" fz="sm">
        {failed ? 'The services could not be loaded: reload the page to try again.' : 'No services yet.'}
      </Text>
    );
  return (
    <Group gap="xs" component="ul" aria-label="Services" p={0} m={0} style={{ listStyle: 'none' }}>
      {services.map((service) => (
        <li key={service}>
          <Code fz="sm">{service}</Code>
        </li>
      ))}
    </Group>
  );
}

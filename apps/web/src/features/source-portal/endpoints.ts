import type { SourceApiKey } from '@leadex/domain';

/** One call of the public source API, as a source's own documentation and welcome page list it. */
export interface SourceEndpoint {
  /** What the call is for ('Ping', 'Post', 'Direct lead'). */
  label: string;
  path: '/api/ping' | '/api/post' | '/api/lead';
  /** The full URL on this exchange. */
  url: string;
}

/** Portals spec §7: the ZIP a test ping sends (it matches no real campaign). */
export const TEST_PING_ZIP = '99999';

/**
 * The endpoints a source calls at `origin`: ping and post for every source, the direct lead endpoint
 * only for one approved to post direct (canPostLead), as the spec's welcome page shows them.
 */
export function sourceEndpoints(origin: string, canPostLead: boolean): SourceEndpoint[] {
  const base = origin.replace(/\/+$/, '');
  const endpoints: SourceEndpoint[] = [
    { label: 'Ping', path: '/api/ping', url: `${base}/api/ping` },
    { label: 'Post', path: '/api/post', url: `${base}/api/post` },
  ];
  if (canPostLead) endpoints.push({ label: 'Direct lead', path: '/api/lead', url: `${base}/api/lead` });
  return endpoints;
}

/** Quotes a value for a POSIX shell: the key or service may hold characters the shell would read. */
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** The cURL command of a test ping with the source's own key and a service (portals §2, welcome page). */
export function curlExample(origin: string, apiKey: string, service: string): string {
  const body = JSON.stringify({ service, zip: TEST_PING_ZIP, test: true });
  return [
    `curl -s ${sourceEndpoints(origin, false)[0]?.url} \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${apiKey}`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(body)}`,
  ].join('\n');
}

/** The made-up consumer of the welcome page's test post: an address of its own each time (no re-post). */
export function testPostContact(tag = Math.random().toString(36).slice(2, 8)) {
  return { name: 'Test Lead', email: `test.lead.${tag}@example.com`, test: true };
}

/**
 * The header a source's example posts carry: a new Idempotency-Key each run, made by the shell. A key
 * names one request (issue 28): a fixed key copied from an example would refuse every lead after the first.
 */
export const FRESH_IDEMPOTENCY_KEY_HEADER = `-H "Idempotency-Key: $(uuidgen)"`;

/** The cURL command of a test post for a ping's `ping_id` (the welcome page's second step). */
export function curlPostExample(origin: string, apiKey: string, pingId: string): string {
  const body = JSON.stringify({ ping_id: pingId, ...testPostContact('example') });
  return [
    `curl -s ${sourceEndpoints(origin, false)[1]?.url} \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${apiKey}`)} \\`,
    `  ${FRESH_IDEMPOTENCY_KEY_HEADER} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(body)}`,
  ].join('\n');
}

/** The `ping_id` of a ping's raw answer, when it gave one. */
export function pingIdOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { ping_id?: unknown };
    return typeof parsed.ping_id === 'string' ? parsed.ping_id : undefined;
  } catch {
    return undefined;
  }
}

/** The key a source is shown first (welcome page, API doc): the first one that works, else the first one. */
export function firstApiKey(keys: readonly SourceApiKey[]): SourceApiKey | undefined {
  return keys.find((key) => key.status === 'Active') ?? keys[0];
}

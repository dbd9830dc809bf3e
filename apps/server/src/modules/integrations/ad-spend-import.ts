import type { AdIntegrationName } from '@leadex/domain';
import type { Config } from '../../config';

/** Versions of the providers' reporting APIs this import speaks. */
export const FACEBOOK_GRAPH_VERSION = 'v21.0';
export const GOOGLE_ADS_VERSION = 'v18';

const TIMEOUT_MS = 30_000;

/** A day's spend in cents, by YYYY-MM-DD. */
export type SpendByDay = Map<string, number>;

/** What a reporting API answered that the import cannot use: said in a sentence for the Settings page. */
export class ImportError extends Error {}

async function getJson(url: string, init: RequestInit, label: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new ImportError(`${label} could not be reached (${(error as Error).message}).`);
  }
  const text = await response.text();
  if (!response.ok) {
    let detail = text.slice(0, 200);
    try {
      const body = JSON.parse(text) as { error?: { message?: string } };
      detail = body.error?.message ?? detail;
    } catch {}
    throw new ImportError(`${label} answered ${response.status}: ${detail}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ImportError(`${label} answered something other than JSON.`);
  }
}

const add = (spend: SpendByDay, day: string, cents: number) => spend.set(day, (spend.get(day) ?? 0) + cents);

/**
 * Facebook Marketing API: the user's ad accounts (`GET /me/adaccounts`), then each account's spend per
 * day (`GET /act_{id}/insights?fields=spend&time_increment=1`), following `paging.next`. Spend is a
 * decimal text in the account's currency.
 */
async function facebookSpend(config: Config, token: string, from: string, to: string): Promise<SpendByDay> {
  const base = `${config.FACEBOOK_API_URL.replace(/\/$/, '')}/${FACEBOOK_GRAPH_VERSION}`;
  const init = { headers: { authorization: `Bearer ${token}` } };
  const spend: SpendByDay = new Map();
  const accounts: string[] = [];
  let next: string | undefined = `${base}/me/adaccounts?fields=account_id&limit=100`;
  while (next) {
    const page = (await getJson(next, init, 'Facebook')) as { data?: { id?: string }[]; paging?: { next?: string } };
    for (const account of page.data ?? []) if (account.id) accounts.push(account.id);
    next = page.paging?.next;
  }
  for (const account of accounts) {
    const query = new URLSearchParams({
      fields: 'spend',
      level: 'account',
      time_increment: '1',
      time_range: JSON.stringify({ since: from, until: to }),
      limit: '100',
    });
    let page: string | undefined = `${base}/${encodeURIComponent(account)}/insights?${query}`;
    while (page) {
      const body = (await getJson(page, init, 'Facebook')) as {
        data?: { spend?: string; date_start?: string }[];
        paging?: { next?: string };
      };
      for (const row of body.data ?? []) {
        const dollars = Number(row.spend);
        if (!row.date_start || !Number.isFinite(dollars))
          throw new ImportError('Facebook answered an insights row without a date or a spend.');
        add(spend, row.date_start, Math.round(dollars * 100));
      }
      page = body.paging?.next;
    }
  }
  return spend;
}

/**
 * Google Ads API: the accessible customers (`GET /customers:listAccessibleCustomers`), then each
 * customer's cost per day by GAQL (`POST /customers/{id}/googleAds:search`), following
 * `nextPageToken`. Cost is in micros of the account's currency.
 */
async function googleSpend(config: Config, token: string, from: string, to: string): Promise<SpendByDay> {
  if (!config.GOOGLE_ADS_DEVELOPER_TOKEN)
    throw new ImportError('Set GOOGLE_ADS_DEVELOPER_TOKEN on the server: Google Ads answers no call without it.');
  const base = `${config.GOOGLE_API_URL.replace(/\/$/, '')}/${GOOGLE_ADS_VERSION}`;
  const headers = {
    authorization: `Bearer ${token}`,
    'developer-token': config.GOOGLE_ADS_DEVELOPER_TOKEN,
    'content-type': 'application/json',
  };
  const spend: SpendByDay = new Map();
  const customers = (await getJson(`${base}/customers:listAccessibleCustomers`, { headers }, 'Google Ads')) as {
    resourceNames?: string[];
  };
  for (const resource of customers.resourceNames ?? []) {
    const id = resource.replace(/^customers\//, '');
    let pageToken: string | undefined;
    do {
      const body = (await getJson(
        `${base}/customers/${encodeURIComponent(id)}/googleAds:search`,
        {
          method: 'POST',
          headers: { ...headers, 'login-customer-id': id },
          body: JSON.stringify({
            query: `SELECT segments.date, metrics.cost_micros FROM customer WHERE segments.date BETWEEN '${from}' AND '${to}'`,
            ...(pageToken ? { pageToken } : {}),
          }),
        },
        'Google Ads',
      )) as { results?: { segments?: { date?: string }; metrics?: { costMicros?: string } }[]; nextPageToken?: string };
      for (const row of body.results ?? []) {
        const micros = Number(row.metrics?.costMicros ?? 0);
        if (!row.segments?.date || !Number.isFinite(micros))
          throw new ImportError('Google Ads answered a row without a date or a cost.');
        add(spend, row.segments.date, Math.round(micros / 10_000));
      }
      pageToken = body.nextPageToken || undefined;
    } while (pageToken);
  }
  return spend;
}

/** The spend per day from `from` to `to` (YYYY-MM-DD, both included) of every account the token reaches. */
export function fetchSpend(
  name: AdIntegrationName,
  config: Config,
  token: string,
  from: string,
  to: string,
): Promise<SpendByDay> {
  return name === 'facebook-ads' ? facebookSpend(config, token, from, to) : googleSpend(config, token, from, to);
}

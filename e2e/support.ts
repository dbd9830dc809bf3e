import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { E2E_ADMIN } from './global-setup';
import { toast } from './screen';

/** The sign-ins of the demo exchange the e2e server is seeded with (global-setup.ts). */
export const USERS = {
  admin: { username: 'admin', email: E2E_ADMIN.email, password: E2E_ADMIN.password },
  buyer: { username: 'summit-roofing', email: 'leads@summitroofing.example', password: 'demo-buyer-1' },
  /** welcome flag false, may post leads. */
  source: { username: 'apex-leads', password: 'demo-source-1' },
  /** welcome flag true: its home is the onboarding welcome page. */
  welcomeSource: { username: 'homequote', password: 'demo-source-1' },
} as const;

/** The seeded buyer the buyer sign-in belongs to. */
export const DEMO_BUYER_NAME = 'Summit Roofing Co.';

/** The menus of both specs' §2, in their order, Logout last. */
export const MENUS = {
  admin: [
    'Home',
    'Leads',
    'Returns',
    'Buyers',
    'Campaigns',
    'Sources',
    'Bills',
    'Settings',
    'Custom Deliveries',
    'Messages',
    'Logout',
  ],
  buyer: ['Home', 'Profile', 'Leads', 'Campaigns', 'Bills', 'Custom Deliveries', 'Logout'],
  source: ['Home', 'Profile', 'Leads', 'API Doc', 'Logout'],
};

/** A value no earlier run on the same server has used (usernames are lower-case, [a-z0-9_-]). */
export function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296)
    .toString(36)
    .padStart(2, '0')}`;
}

/** Fills and submits the /auth form; does not wait for the outcome. */
export async function submitSignIn(page: Page, identifier: string, password: string): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Email or username').fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through the /auth form and waits until the role's frame (its side navigation) is up. */
export async function signIn(page: Page, identifier: string, password: string): Promise<void> {
  await submitSignIn(page, identifier, password);
  await navigation(page).waitFor();
}

/**
 * Signs in through the API as the /auth form does (better-auth's sign-in, then the new
 * session's claims), then opens the role's home and waits for its frame. For tests about something
 * else: the form itself has its own tests (auth.e2e.ts), and skipping it saves each test a page load.
 */
export async function signInThroughApi(
  page: Page,
  baseURL: string,
  // `username`: what the form's "Email or username" takes (a user added with an email only gives it).
  { username: identifier, password }: { username: string; password: string },
): Promise<void> {
  // better-auth refuses a cookie-carrying POST without the Origin a browser would send.
  const { origin } = new URL(baseURL);
  // As the form: by email when the identifier has an '@', else by username.
  const signIn = identifier.includes('@')
    ? (['/api/auth/sign-in/email', { email: identifier, password }] as const)
    : (['/api/auth/sign-in/username', { username: identifier, password }] as const);
  for (const [path, data] of [signIn, ['/api/session/claims', {}] as const]) {
    const res = await page.request.post(path, { data, headers: { origin } });
    expect(res.ok(), `POST ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  }
  await page.goto('/');
  await navigation(page).waitFor();
}

/** The side navigation of the signed-in frame. */
export function navigation(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Main navigation' });
}

/** The texts of the side navigation's links, top to bottom. */
export async function menuTexts(page: Page): Promise<string[]> {
  return (await navigation(page).getByRole('link').allInnerTexts()).map((text) => text.trim());
}

/** The page's path (no origin, no query). */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Waits until the page has settled on `path` (the app's redirects are client-side). */
export async function expectPath(page: Page, path: string | RegExp): Promise<void> {
  if (typeof path === 'string') await expect.poll(() => pathOf(page)).toBe(path);
  else await expect.poll(() => pathOf(page)).toMatch(path);
}

/**
 * After saving a new record: waits until the page has moved to the record's own path (`path`, the
 * id last), headed by its `name`, with the "{name} created successfully" toast; answers the id.
 */
export async function expectCreated(page: Page, path: RegExp, name: string): Promise<string> {
  await expectPath(page, path);
  const id = pathOf(page).split('/').pop() as string;
  await page.getByRole('heading', { name }).waitFor();
  await toast(page, `${name} created successfully`).waitFor();
  return id;
}

/** Creates a buyer through the API with the page's (an admin's) session; answers its id. */
export async function createBuyerViaApi(page: Page, name: string, usernamePrefix = 'e2e'): Promise<string> {
  const suffix = unique();
  const response = await page.request.post('/api/buyer', {
    data: {
      username: `${usernamePrefix}-${suffix}`,
      name,
      email: `ops-${suffix}@example.com`,
      phone: '5125550142',
      bill: { pay: 'invoice' },
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { _id: string })._id;
}

/** A new API key (named `name`) of the seeded source Apex Lead Partners, allowed to post direct. */
export async function apexKey(api: APIRequestContext, name: string): Promise<string> {
  const sources = await apiCall<{ data: { _id: string; name: string }[] }>(api, 'get', '/api/source?name=Apex');
  const apex = sources.data.find((source) => source.name === 'Apex Lead Partners');
  expect(apex, 'the seeded source Apex Lead Partners').toBeDefined();
  const path = `/api/source/${apex?._id}/apikey/new`;
  return (await apiCall<{ key: string }>(api, 'put', path, { name, canPostLead: true })).key;
}

/** Creates a source named `name` through the API (with an admin's `api`); answers a new key of its. */
export async function createSourceKey(api: APIRequestContext, name: string): Promise<string> {
  const suffix = unique();
  const source = await apiCall<{ _id: string }>(api, 'post', '/api/source', {
    name,
    email: `source-${suffix}@example.com`,
    phone: '5125550190',
  });
  return (await apiCall<{ key: string }>(api, 'put', `/api/source/${source._id}/apikey/new`)).key;
}

/**
 * Creates a buyer named `${prefix} {unique}` through the API (see createBuyerViaApi) and opens its
 * detail page; answers its id and name.
 */
export async function openNewBuyer(page: Page, prefix: string, usernamePrefix?: string) {
  const name = `${prefix} ${unique()}`;
  const id = await createBuyerViaApi(page, name, usernamePrefix);
  await page.goto(`/buyer/${id}`);
  await page.getByRole('heading', { name }).waitFor();
  return { id, name };
}

/** Sends a JSON call with the page's session (page.request) and answers its body, failing on a non-2xx. */
export async function apiCall<T>(
  api: APIRequestContext,
  method: 'get' | 'post' | 'put',
  url: string,
  data?: object,
): Promise<T> {
  const res = await api[method](url, method === 'get' ? {} : { data: data ?? {} });
  expect(res.ok(), `${method.toUpperCase()} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** A live campaign buying one service in one ZIP, for tests that need leads to sell somewhere. */
export interface LiveCampaign {
  name: string;
  buyer: string;
  price: number;
  fixed_id: string;
  service: string;
  zip: string;
  /** Where its sales are announced: the emails, and a webhook URL. */
  email?: string[];
  webhook?: string;
}

/** Creates the campaign through the API (with an admin's `api`) and sets it live; answers it as created. */
export async function createLiveCampaign(
  api: APIRequestContext,
  campaign: LiveCampaign,
): Promise<{ _id: string; name: string }> {
  const { service, zip, email = [], webhook, ...fields } = campaign;
  const created = await apiCall<{ _id: string; name: string }>(api, 'post', '/api/match', {
    ...fields,
    services: [service],
    location: 'zip',
    zips: [zip],
    notify: { email, sms: [], ...(webhook ? { webhook } : {}), broadcast_webhooks: [] },
  });
  await apiCall(api, 'put', `/api/match/${created._id}`, { status: 'live' });
  return created;
}

/** Where the demo buyer's return tests sell: a live campaign of it (service `windows`) and a source key. */
export interface DemoBuyerMarket {
  /** The campaign's name and fixed id (a lead names it), its ZIP and the email its sales are announced to. */
  campaign: string;
  fixedId: string;
  zip: string;
  email: string;
  /** The name of the source whose key posts the leads. */
  source: string;
  /** Other fields set on the demo buyer with its auto-approve share. */
  buyerChanges?: object;
}

/**
 * With an admin's `api`: sets the demo buyer's auto-approve share to 0 (so that a return request waits
 * for the admin), gives it a live campaign and a source key that posts direct to it; answers the buyer's
 * id, the share it had (to restore after) and `sell`, which posts a lead to the campaign and answers
 * its id once sold.
 */
export async function demoBuyerMarket(api: APIRequestContext, market: DemoBuyerMarket) {
  const buyers = await apiCall<{ data: { _id: string; name: string }[] }>(api, 'get', '/api/buyer?name=Summit');
  const buyerId = buyers.data.find((b) => b.name === DEMO_BUYER_NAME)?._id ?? '';
  const buyer = await apiCall<{ autoApproveReturns: number }>(api, 'get', `/api/buyer/${buyerId}`);
  await apiCall(api, 'put', `/api/buyer/${buyerId}`, { autoApproveReturns: 0, ...market.buyerChanges });
  const { campaign, fixedId, zip, email, source } = market;
  await createLiveCampaign(api, {
    name: campaign,
    buyer: buyerId,
    price: 35,
    fixed_id: fixedId,
    service: 'windows',
    zip,
    email: [email],
  });
  const key = await apexKey(api, source);
  const sell = async (fields: Record<string, unknown>) => {
    const res = await api.post('/api/lead', {
      headers: { authorization: `Bearer ${key}` },
      data: { service: 'windows', zip, campaign: fixedId, tcpa_consent: true, ...fields },
    });
    const answer = (await res.json()) as { ok: boolean; status?: string; lead_id?: string };
    expect(answer, JSON.stringify(answer)).toMatchObject({ ok: true, status: 'sold' });
    return answer.lead_id as string;
  };
  return { buyerId, autoApproveBefore: buyer.autoApproveReturns, sell };
}

/**
 * Adds a user to a buyer or source (as the admin, with `admin`'s session) and sets its password through
 * the link of its welcome email (read from the outbox), as a new user does; answers the user's id.
 */
export async function addUserWithPassword(
  admin: APIRequestContext,
  owner: { kind: 'buyer' | 'source'; id: string },
  user: { name: string; email: string; password: string },
): Promise<string> {
  const base = `/api/${owner.kind}/${owner.id}`;
  const added = await apiCall<{ _id: string }>(admin, 'post', `${base}/user`, { name: user.name, email: user.email });
  await apiCall(admin, 'put', `${base}/welcome/${added._id}`);
  const outbox = await apiCall<{ data: { to: string; text: string }[] }>(admin, 'get', '/api/outbox?pageSize=50');
  const mail = outbox.data.find((m) => m.to.includes(user.email));
  const token = decodeURIComponent(/token=([^&\s]+)/.exec(mail?.text ?? '')?.[1] ?? '');
  expect(token, 'the welcome email carries a set-password link').not.toBe('');
  await apiCall(admin, 'post', '/api/auth/reset-password', { token, newPassword: user.password });
  return added._id;
}

/** A request a local receiver got. */
export interface ReceivedRequest {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What a local receiver answers a request: 200 and JSON unless told. */
export interface ReceiverAnswer {
  status?: number;
  contentType?: string;
  body: string;
}

/**
 * A buyer's system on a free local port: it keeps every request it gets, in order, and answers each
 * as `answer` says.
 */
export async function startReceiver(answer: (request: ReceivedRequest) => ReceiverAnswer) {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const request = { url: req.url ?? '/', headers: req.headers, body };
      received.push(request);
      const reply = answer(request);
      res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json' }).end(reply.body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    /** `http://127.0.0.1:{port}`. */
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** A local receiver (`startReceiver`). */
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A buyer's system that is down, on a free local port: every request answers 500 with `text`. */
export async function downReceiver(path: string, text: string) {
  const receiver = await startReceiver(() => ({ status: 500, contentType: 'text/plain', body: text }));
  return {
    url: `${receiver.base}${path}`,
    /** How many requests it has had. */
    received: () => receiver.received.length,
    close: receiver.close,
  };
}

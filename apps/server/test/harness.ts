import type { Role } from '@leadex/domain';
import { hashPassword } from 'better-auth/crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildApp } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import type { Database } from '../src/db/client';
import { seedReferenceData } from '../src/demo/seed';
import { type AppDeps, createDeps } from '../src/deps';
import { FixedClock } from '../src/lib/clock';
import type { Logger } from '../src/lib/logger';
import type { OutboundNetwork } from '../src/lib/outbound-http';
import { RESET_REQUEST_PATH } from '../src/modules/auth/auth-answers';
import { usersRepo } from '../src/modules/users/users.repo';
import { openTestDatabase } from './database';
import { createBuyerWithLogin, createSourceWithLogin } from './factories';
import { useFixture } from './fixtures';

export const ADMIN = { email: 'admin@test.leadex', password: 'admin-password-1' };

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  database: Database;
  clock: FixedClock;
  /** Sends a request; `as` signs it with a session cookie from `signIn`. */
  request(options: InjectOptions & { as?: string }): Promise<LightMyRequestResponse>;
  /** Calls the public source API (`/api/ping`, `/api/post`, `/api/lead`) with a source's key, as its systems do. */
  sourceApi(
    url: string,
    apiKey: string,
    payload: object | string,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  /** Signs in (by email, or by username when there is no @) and answers the session cookie. */
  signIn(login: string, password: string): Promise<string>;
  /** Gives an existing user a password, as following a welcome email would. */
  setPassword(userId: string, password: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the app on a fresh database of the test file's own, with a clock the test controls.
 * `network` scripts how outbound deliveries resolve names and where they connect (receivers.ts
 * `scriptedNetwork`), so a delivery test can keep the private-address guard on.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  { network, logger }: { network?: OutboundNetwork; logger?: Logger } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  const clock = new FixedClock(new Date());
  const config = {
    ...loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      PUBLIC_URL: 'http://leadex.test',
      // Every request of a test comes from one address; the per-address limits are tested on in
      // auth.rate-limit.test.ts.
      AUTH_SIGN_IN_PER_MINUTE: '0',
      AUTH_SIGN_UP_PER_MINUTE: '0',
      AUTH_PASSWORD_RESET_PER_MINUTE: '0',
      // A file's tests share one user for many Tests and messages; the per-user limits are tested on in
      // plugins/user-rate-limit.test.ts.
      DELIVERY_TEST_PER_MINUTE: '0',
      BUYER_MESSAGES_PER_HOUR: '0',
    }),
    ...overrides,
  };
  const deps = createDeps(config, database.db, clock, { network, ...(logger ? { logger } : {}) });
  await seedReferenceData(deps);
  await deps.services.users.ensureAdmin();
  const app = await buildApp(deps);
  await app.ready();

  const request = ({ as, headers, ...options }: InjectOptions & { as?: string }) =>
    app.inject({ ...options, headers: { origin: config.PUBLIC_URL, ...(as ? { cookie: as } : {}), ...headers } });

  return {
    app,
    deps,
    database,
    clock,
    request,
    sourceApi: (url, apiKey, payload, headers = {}) =>
      request({ method: 'POST', url, payload, headers: { authorization: `Bearer ${apiKey}`, ...headers } }),
    async signIn(login, password) {
      const byEmail = login.includes('@');
      const res = await request({
        method: 'POST',
        url: byEmail ? '/api/auth/sign-in/email' : '/api/auth/sign-in/username',
        payload: byEmail ? { email: login, password } : { username: login, password },
      });
      if (res.statusCode !== 200) throw new Error(`sign-in of ${login} answered ${res.statusCode}: ${res.body}`);
      return sessionCookie(res);
    },
    async setPassword(userId, password) {
      await usersRepo.insertPassword(database.db, userId, await hashPassword(password), clock.now());
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** How `useTestApp` builds the app: the outbound network (see `createTestApp`), and whether the job workers run. */
export interface TestAppOptions {
  network?: OutboundNetwork;
  /** Starts the job workers (pg-boss) once the app is built; `close` stops them with the app. */
  startJobs?: boolean;
}

/**
 * The app of one test file (a `useFixture`): built on the file's own database, closed after its
 * tests. `overrides` may be a function, read when the app is built: for settings known only then
 * (the URL of a receiver that `useReceivers`, declared before, has started).
 */
export function useTestApp(
  overrides: Partial<Config> | (() => Partial<Config>) = {},
  { startJobs = false, ...options }: TestAppOptions = {},
): TestApp {
  return useFixture(
    async () => {
      const app = await createTestApp(typeof overrides === 'function' ? overrides() : overrides, options);
      if (startJobs) await app.deps.jobs.start();
      return app;
    },
    (app) => app.close(),
  );
}

/** The seeded admin, signed in: its session cookie and its user id (the operator its changes record). */
export interface AdminSession {
  cookie: string;
  id: string;
}

/** The app of one test file (`useTestApp`) and its seeded admin, signed in once the app is built. */
export function useAdminTestApp(
  overrides: Partial<Config> | (() => Partial<Config>) = {},
  options: TestAppOptions = {},
): { t: TestApp; admin: AdminSession } {
  const t = useTestApp(overrides, options);
  return { t, admin: useAdminSession(t) };
}

/** The seeded admin signed in to the app of `useTestApp`, once for the file (a `useFixture`). */
function useAdminSession(t: TestApp): AdminSession {
  return useFixture(async () => {
    const cookie = await t.signIn(ADMIN.email, ADMIN.password);
    const admin = await usersRepo.findByEmail(t.database.db, ADMIN.email);
    return { cookie, id: admin?.id ?? '' };
  });
}

/**
 * A signed-in user of each role (the seeded admin, a new buyer's and a new source's user) for the
 * checks of who may call what: their session cookies, made once for the file (a `useFixture`).
 */
export function useRoleCookies(t: TestApp): Record<Role, string> {
  return useFixture(async () => ({
    admin: await t.signIn(ADMIN.email, ADMIN.password),
    buyer: (await createBuyerWithLogin(t)).cookie,
    source: (await createSourceWithLogin(t)).cookie,
  }));
}

/** Asks better-auth for a password reset link for `email`, as the Forgot password page does; answers the response. */
export function requestPasswordReset(t: TestApp, email: string): Promise<LightMyRequestResponse> {
  return t.request({ method: 'POST', url: RESET_REQUEST_PATH, payload: { email, redirectTo: '/reset-password' } });
}

/** The `name=value` of the session cookie a response set. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name.endsWith('session_token'));
  if (!cookie) throw new Error(`no session cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return `${cookie.name}=${cookie.value}`;
}

/** A request of a scoping check: its method, URL and body (sent as the signed-in caller). */
export type ScopedRequest = Pick<InjectOptions, 'method' | 'url' | 'payload'>;

/**
 * DESIGN.md §3 rule 3: another buyer's or source's record answers 404 on every route that names it,
 * with the answer an unknown id gets (`{What} not found`), so a caller cannot even learn it exists.
 * Sends each request as `as`; the caller checks afterwards that nothing changed.
 */
export async function expectScoped404(t: TestApp, as: string, what: string, requests: ScopedRequest[]) {
  for (const req of requests) {
    const res = await t.request({ ...req, as });
    expect(res.statusCode, `${req.method} ${req.url}`).toBe(404);
    expect(res.json(), `${req.method} ${req.url}`).toEqual({ ok: false, message: `${what} not found` });
  }
}

/**
 * Expects a 400 refusing one field and no other (a form's or a list query's); with `message`, the whole
 * error shape (DESIGN.md §3, convention 2), the field's message being the message.
 */
export function expectFieldRefused(res: LightMyRequestResponse, field: string, message?: string) {
  expect(res.statusCode).toBe(400);
  if (message === undefined) expect(Object.keys(res.json().errors)).toEqual([field]);
  else expect(res.json()).toEqual({ ok: false, message, errors: { [field]: message } });
}

/**
 * Expects a list searched by name (`path`, a GET with its `name=` query) to page and sort by name:
 * its second page holds `secondPage`, sorted by name descending, one a page, it starts with `last`,
 * and every page says `total`.
 */
export async function expectPagedByName(
  t: TestApp,
  as: string,
  path: string,
  { secondPage, last, total }: { secondPage: string[]; last: string; total: number },
) {
  const second = await t.request({ method: 'GET', url: `${path}&page=2`, as });
  expect(second.json().data.map((row: { name: string }) => row.name)).toEqual(secondPage);
  const descending = await t.request({ method: 'GET', url: `${path}&sort=name&order=desc&pageSize=1`, as });
  expect(descending.json().data[0].name).toBe(last);
  // Every page counts the whole filtered list, not its own rows (issue 30 area 6).
  expect([second.json().total, descending.json().total]).toEqual([total, total]);
}

/**
 * The requests of a resource's route tests (`base`: '/api/buyer', '/api/match', …): create, update by
 * id and read any URL, as the admin unless `as` names another session.
 */
export function resourceRequests(t: TestApp, admin: AdminSession, base: string) {
  return {
    post: (payload: object, as = admin.cookie) => t.request({ method: 'POST', url: base, as, payload }),
    put: (id: string, payload: object, as = admin.cookie) =>
      t.request({ method: 'PUT', url: `${base}/${id}`, as, payload }),
    get: (url: string, as = admin.cookie) => t.request({ method: 'GET', url, as }),
  };
}

import { hashPassword } from 'better-auth/crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { buildApp } from '../src/app';
import { type Config, loadConfig } from '../src/config';
import type { Database } from '../src/db/client';
import { seedReferenceData } from '../src/demo/seed';
import { type AppDeps, createDeps } from '../src/deps';
import { FixedClock } from '../src/lib/clock';
import type { OutboundNetwork } from '../src/lib/outbound-http';
import { usersRepo } from '../src/modules/users/users.repo';
import { openTestDatabase } from './database';

export const ADMIN = { email: 'admin@test.leadex', password: 'admin-password-1' };

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  database: Database;
  clock: FixedClock;
  /** Sends a request; `as` signs it with a session cookie from `signIn`. */
  request(options: InjectOptions & { as?: string }): Promise<LightMyRequestResponse>;
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
  { network }: { network?: OutboundNetwork } = {},
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
    }),
    ...overrides,
  };
  const deps = createDeps(config, database.db, clock, { network });
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

/**
 * The app of one test file: built in `beforeAll` on the file's own database, closed in `afterAll`.
 * The answer stands for the app (use it inside tests and hooks, not at the file's top level).
 */
export function useTestApp(overrides: Partial<Config> = {}, options: { network?: OutboundNetwork } = {}): TestApp {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp(overrides, options);
  });
  afterAll(async () => {
    await app?.close();
  });
  return new Proxy({} as TestApp, {
    get(_target, key) {
      if (!app) throw new Error('useTestApp: the app is built in beforeAll; use it inside tests and hooks');
      return Reflect.get(app, key);
    },
  });
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

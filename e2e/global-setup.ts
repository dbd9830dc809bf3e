import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';
import { SMTPServer } from 'smtp-server';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the built exchanges under test answer: one per Vitest worker (`VITEST_POOL_ID` 1, 2, …). */
    baseURLs: string[];
    /** The local OAuth 2 provider the exchange's Google integrations connect to. */
    oauthIssuer: string;
    /** Where the local SMTP server the exchange sends mail to keeps each message (`mailbox.ts`). */
    mailDir: string;
    /** Where the automatic accessibility checks mark the screens they have analysed (accessibility.ts). */
    screensCheckedDir: string;
  }
}

export const E2E_ADMIN = { email: 'admin@e2e.leadex', password: 'e2e-admin-pass-1' };

const root = resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/**
 * A local OAuth 2 provider standing in for Google: its /authorize sends the browser straight back with a
 * code (no sign-in screen) and its /token issues tokens, so Connect on the Settings screen goes all the
 * way round. Facebook is left unconfigured, so its card says what to set.
 */
async function startOAuthProvider(): Promise<{ provider: OAuth2Server; issuer: string }> {
  const provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  await provider.start(0, '127.0.0.1');
  const issuer = provider.issuer.url;
  if (!issuer) throw new Error('the OAuth 2 mock server started without an issuer URL');
  return { provider, issuer };
}

/** The exchange's Google settings pointing at the local provider (GOOGLE_API_URL too: no test reads it). */
function googleEnv(issuer: string): Record<string, string> {
  return {
    GOOGLE_OAUTH_CLIENT_ID: 'e2e-google',
    GOOGLE_OAUTH_CLIENT_SECRET: 'e2e-secret',
    GOOGLE_OAUTH_AUTHORIZE_URL: `${issuer}/authorize`,
    GOOGLE_OAUTH_TOKEN_URL: `${issuer}/token`,
    GOOGLE_API_URL: issuer,
  };
}

/**
 * A real local SMTP server for the exchange's mail (SMTP_URL): each message lands in `dir` as JSON
 * (`{ to, raw }`), where the tests read it (mailbox.ts).
 */
async function startMailbox(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  let n = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address);
        const raw = Buffer.concat(chunks).toString('utf8');
        writeFileSync(join(dir, `${Date.now()}-${++n}.json`), JSON.stringify({ to, raw }));
        callback();
      });
    },
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.server.address() as { port: number };
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}

/** Starts the built exchange on a port; answers the process once it has said it listens there and answers /api/health. */
async function startExchange(
  port: number,
  dataDir: string,
  issuer: string,
  smtpUrl: string,
  extraEnv: Record<string, string> = {},
): Promise<ChildProcess> {
  const baseURL = `http://127.0.0.1:${port}`;
  // The exchange under test always runs on its own embedded database, whatever the shell says.
  // Nor does it take OAuth providers from the shell: Google is the local one, Facebook is not configured.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => name !== 'DATABASE_URL' && !name.startsWith('GOOGLE_') && !name.startsWith('FACEBOOK_'),
    ),
  );
  const server: ChildProcess = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env: {
      ...inherited,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      LOG_LEVEL: 'warn',
      // The suite signs in dozens of times a minute from one address.
      AUTH_SIGN_IN_PER_MINUTE: '0',
      AUTH_PASSWORD_RESET_PER_MINUTE: '0',
      // The deliveries e2e tests deliver to a receiver on 127.0.0.1.
      ALLOW_PRIVATE_DELIVERY_TARGETS: 'true',
      // Mail goes to the local SMTP server (and is kept in the outbox as sent).
      SMTP_URL: smtpUrl,
      ...googleEnv(issuer),
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  server.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    process.stdout.write(chunk);
  });
  // Exchanges may start at once, each migrating and loading the ZIP table: minutes on a busy 2-core machine.
  const deadline = Date.now() + 240_000;
  while (true) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    // Its own line first: another process that took the port meanwhile could answer /api/health too.
    const listening = output.includes(`listening on ${baseURL}`);
    const up =
      listening &&
      (await fetch(`${baseURL}/api/health`).then(
        (r) => r.ok,
        () => false,
      ));
    if (up) return server;
    if (Date.now() > deadline) {
      server.kill('SIGKILL');
      throw new Error('the server did not answer /api/health within 240 s');
    }
    await new Promise((done) => setTimeout(done, 250));
  }
}

/**
 * One exchange on its own port and fresh data directory, retried on another port if that one was taken.
 * A file needing an exchange configured otherwise (`extraEnv`, e.g. Stripe's keys) starts its own.
 */
export async function startOwnExchange(
  issuer: string,
  smtpUrl: string,
  extraEnv: Record<string, string> = {},
): Promise<{ baseURL: string; stop: () => Promise<void> }> {
  // The port is free when chosen but may be taken before the server binds it: then try another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const dataDir = mkdtempSync(join(tmpdir(), 'leadex-e2e-'));
    try {
      const server = await startExchange(port, dataDir, issuer, smtpUrl, extraEnv);
      return {
        baseURL: `http://127.0.0.1:${port}`,
        async stop() {
          server.kill('SIGTERM');
          await new Promise((done) => server.once('exit', done));
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      rmSync(dataDir, { recursive: true, force: true });
      if (attempt >= 3) throw error;
    }
  }
}

/**
 * Builds the exchange and starts it on fresh embedded databases, as `npm start` does: one exchange per
 * Vitest worker. A file runs on the exchange of its worker (`VITEST_POOL_ID`, browser.ts), so two files
 * running at once never share an exchange: one moving the mock date or emptying a list cannot touch
 * the other's.
 */
export default async function setup(project: TestProject) {
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
  const { provider, issuer } = await startOAuthProvider();
  const mailDir = mkdtempSync(join(tmpdir(), 'leadex-e2e-mail-'));
  const mailbox = await startMailbox(mailDir);
  const screensCheckedDir = mkdtempSync(join(tmpdir(), 'leadex-e2e-screens-'));
  const workers = project.config.maxWorkers ?? project.vitest.config.maxWorkers ?? 1;
  const started = await Promise.allSettled(
    Array.from({ length: workers }, () => startOwnExchange(issuer, mailbox.url)),
  );
  const exchanges = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = async () => {
    await Promise.all(exchanges.map((exchange) => exchange.stop()));
    await provider.stop();
    await mailbox.close();
    rmSync(mailDir, { recursive: true, force: true });
    rmSync(screensCheckedDir, { recursive: true, force: true });
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  project.provide(
    'baseURLs',
    exchanges.map((exchange) => exchange.baseURL),
  );
  project.provide('oauthIssuer', issuer);
  project.provide('mailDir', mailDir);
  project.provide('screensCheckedDir', screensCheckedDir);
  return stopAll;
}

import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ADMIN } from './harness';

/** The repository's root, where `node --import tsx apps/server/src/main.ts` starts a process. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A Leadex process started by a test: an API server (its `url` once it listens) or a worker. */
export interface LeadexProcess {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
}

/**
 * Starts `apps/server/src/main.ts` as its own OS process on the test file's PostgreSQL database. A
 * server listens on a port it picks itself (PORT=0): a port chosen here and handed over could be
 * taken meanwhile by another test's server, which would then answer in its place. Every process
 * sharing a database must share `LEADEX_SECRET` (sessions and ping ids are signed by one, checked by
 * another) and the admin the test app already made.
 */
export function startLeadexProcess(name: string, databaseUrl: string, env: Record<string, string>): LeadexProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://127.0.0.1',
      SEED_DEMO: 'false',
      PUBLIC_API_RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return { name, url: '', child, output };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the server has said where it listens and answers GET /api/health there (or fails with what it printed). */
export async function waitHealthy(server: LeadexProcess, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null)
      throw new Error(`${server.name} exited with ${server.child.exitCode}:\n${server.output.join('')}`);
    server.url ||= /listening on (http:\/\/[^\s)]+)/.exec(server.output.join(''))?.[1] ?? '';
    if (server.url) {
      try {
        const res = await fetch(`${server.url}/api/health`);
        if (res.ok) return;
      } catch {
        // not answering yet
      }
    }
    await sleep(100);
  }
  throw new Error(`${server.name} did not answer /api/health within ${timeoutMs} ms:\n${server.output.join('')}`);
}

/**
 * Stops the process with `signal` (SIGTERM: it flushes and closes its pool; SIGKILL: a crash), and
 * SIGKILL if it hangs; resolves once it has exited.
 */
export async function stopLeadexProcess(
  server: LeadexProcess,
  signal: NodeJS.Signals = 'SIGTERM',
  graceMs = 5_000,
): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Stops every process (SIGTERM), together. */
export async function stopServers(servers: LeadexProcess[]): Promise<void> {
  await Promise.all(servers.map((s) => stopLeadexProcess(s)));
}

/**
 * Starts two server processes ('server 1' and 'server 2') on one database with `env` and waits until
 * both are healthy; stops them both if either is not.
 */
export async function startServers(databaseUrl: string, env: Record<string, string>): Promise<LeadexProcess[]> {
  const servers = [startLeadexProcess('server 1', databaseUrl, env), startLeadexProcess('server 2', databaseUrl, env)];
  try {
    await Promise.all(servers.map((s) => waitHealthy(s)));
  } catch (error) {
    await stopServers(servers);
    throw error;
  }
  return servers;
}

/** A source's answer through a process's API. */
export type Answer = { status: number; body: Record<string, unknown> };

/** POSTs `body` as JSON to a server process as the source of `apiKey`. */
export async function call(server: LeadexProcess, path: string, apiKey: string, body: object): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    // Say why the server did not answer: it exited (with what it printed last) or it is still up.
    const { exitCode, signalCode } = server.child;
    throw new Error(
      `${server.name} did not answer ${path} (exit code ${exitCode}, signal ${signalCode}): ${String(error)}\n` +
        server.output.join('').slice(-4000),
    );
  }
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * Makes a lead's contact data, each call's unique among the maker's: `name`, a phone counted up from
 * 512 + `firstPhone`, an email at `emailPrefix`.N@multiprocess.example.com, and consent.
 */
export function contactsOf(name: string, firstPhone: number, emailPrefix: string) {
  let counter = 0;
  return () => {
    counter += 1;
    return {
      name,
      phone: `512${String(firstPhone + counter).padStart(7, '0')}`,
      email: `${emailPrefix}.${counter}@multiprocess.example.com`,
      tcpa_consent: true,
    };
  };
}

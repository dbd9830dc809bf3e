import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseKind } from '../test/database';
import { type LeadexProcess, startLeadexProcess, stopLeadexProcess, waitHealthy } from '../test/processes';
import { DEVELOPMENT_SECRET } from './config';

/**
 * Issue 29 item 1: a production start (NODE_ENV=production, PostgreSQL) on an empty database refuses
 * without an admin password of its own, and refuses the documented development secret, each naming
 * the variable; the README's production command starts, and the admin signs in with its password.
 * Each start is its own OS process on a database of this file's own, created empty (not from the
 * migrated template): PostgreSQL only, skipped on PGlite by name.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ADMIN_EMAIL = 'owner@prod.leadex.test';

/** The exit code of a refused start, or 'started' as soon as the server says it runs (a start that should have been refused). */
function refusedOrStarted(server: LeadexProcess): Promise<number | 'started'> {
  const { child } = server;
  return new Promise((resolve) => {
    child.stdout?.on('data', () => {
      if (server.output.join('').includes('Leadex is running')) resolve('started');
    });
    child.once('exit', (code) => resolve(code ?? -1));
    if (child.exitCode !== null) resolve(child.exitCode);
  });
}

/** The README's "Running on PostgreSQL" commands, as a reader would paste them. */
function readmeProductionCommands(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('## Running on PostgreSQL')[1] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('README.md has no sh block under "Running on PostgreSQL"');
  return block;
}

// A first start on an empty database migrates it and loads the ZIP table: tens of seconds.
describe.skipIf(testDatabaseKind !== 'postgres')('a production start (PostgreSQL only)', { timeout: 180_000 }, () => {
  const name = `leadex_prod_${randomBytes(6).toString('hex')}`;
  let databaseUrl = '';
  const started: LeadexProcess[] = [];

  const admin = () => new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });

  beforeAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`create database ${name}`);
    await client.end();
    const url = new URL(process.env.TEST_DATABASE_URL as string);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  });

  afterAll(async () => {
    for (const server of started) await stopLeadexProcess(server);
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });

  const production = (env: Record<string, string>) => {
    const server = startLeadexProcess('production', databaseUrl, {
      NODE_ENV: 'production',
      ADMIN_EMAIL,
      ...env,
    });
    started.push(server);
    return server;
  };

  it('refuses the development secret as LEADEX_SECRET, naming it', async () => {
    const server = production({ LEADEX_SECRET: DEVELOPMENT_SECRET, ADMIN_PASSWORD: 'an-own-admin-pass-7' });
    expect(await refusedOrStarted(server)).toBeTypeOf('number');
    expect(server.child.exitCode).not.toBe(0);
    expect(server.output.join('')).toMatch(/LEADEX_SECRET: is the public development secret/);
    expect(server.output.join('')).not.toMatch(/Leadex is running/);
  });

  it('refuses the development admin password, naming ADMIN_PASSWORD', async () => {
    const server = production({ LEADEX_SECRET: randomBytes(32).toString('hex'), ADMIN_PASSWORD: 'leadex-admin-1' });
    expect(await refusedOrStarted(server)).toBeTypeOf('number');
    expect(server.child.exitCode).not.toBe(0);
    expect(server.output.join('')).toMatch(/ADMIN_PASSWORD: is the public development password/);
  });

  it('refuses to create the admin on an empty database without ADMIN_PASSWORD, naming it', async () => {
    // An empty ADMIN_PASSWORD is unset (config.ts), as in a compose file's `ADMIN_PASSWORD=`.
    const server = production({ LEADEX_SECRET: randomBytes(32).toString('hex'), ADMIN_PASSWORD: '' });
    expect(await refusedOrStarted(server), server.output.join('')).toBeTypeOf('number');
    expect(server.child.exitCode).not.toBe(0);
    const output = server.output.join('');
    expect(output).toMatch(/ADMIN_PASSWORD: is required in production/);
    expect(output).not.toMatch(/Leadex is running/);
  });

  it("starts with the README's command; the admin signs in with its own password, and no other", async () => {
    const password = 'readme-admin-pass-42';
    const commands = readmeProductionCommands();
    expect(commands).toMatch(/NODE_ENV=production/);
    expect(commands).toMatch(/ADMIN_PASSWORD='…'/);
    // The reader's own password in place of the placeholder; createdb has been done (our database),
    // and `npm start` (a build, then the bundle) is the same server started from its sources.
    const script = [
      'createdb() { :; }',
      `npm() { cd "$LEADEX_ROOT" && DATABASE_URL="$TEST_DATABASE" exec node --import tsx apps/server/src/main.ts; }`,
      commands.replace(`ADMIN_PASSWORD='…'`, `ADMIN_PASSWORD='${password}'`),
    ].join('\n');
    const cwd = mkdtempSync(join(tmpdir(), 'leadex-readme-'));
    const child = spawn('bash', ['-e', '-c', script], {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LEADEX_ROOT: ROOT,
        TEST_DATABASE: databaseUrl,
        PORT: '0',
        HOST: '127.0.0.1',
        PUBLIC_URL: 'http://127.0.0.1',
        ADMIN_EMAIL,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server: LeadexProcess = { name: 'readme', url: '', child, output: [] };
    child.stdout?.on('data', (chunk: Buffer) => server.output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => server.output.push(chunk.toString()));
    started.push(server);
    try {
      await waitHealthy(server, 90_000);
      // The password is not printed: it is not the development one.
      expect(server.output.join('')).toMatch(new RegExp(`admin: {2}${ADMIN_EMAIL} / \\(ADMIN_PASSWORD\\)`));
      const signIn = (pass: string) =>
        fetch(`${server.url}/api/auth/sign-in/email`, {
          method: 'POST',
          // Production trusts only PUBLIC_URL's origin for a sign-in (plugins/origins.ts).
          headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1' },
          body: JSON.stringify({ email: ADMIN_EMAIL, password: pass }),
        });
      expect((await signIn('leadex-admin-1')).status).toBe(401);
      expect((await signIn(password)).status).toBe(200);
    } finally {
      await stopLeadexProcess(server);
      rmSync(cwd, { recursive: true, force: true });
    }

    // The admin now exists: a later start needs no ADMIN_PASSWORD.
    const again = production({ LEADEX_SECRET: randomBytes(32).toString('hex'), ADMIN_PASSWORD: '' });
    await waitHealthy(again, 90_000);
  });
});

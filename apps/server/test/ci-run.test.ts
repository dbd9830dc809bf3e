import { spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 30 area 7: PGlite runs one statement at a time, so a CI run without PostgreSQL proves less
 * than it claims; `.ci/run` refuses it. This runs a copy of the real script in a directory of its own,
 * with a PATH holding only the tools it needs (no `pg_ctlcluster`, so it cannot start a server) and
 * stand-ins for `npm` and `apt-get` that log what they were asked. Its PostgreSQL check is pointed
 * at a closed port, then at a listening one (CI_POSTGRES_PORT).
 */

const SCRIPT = resolve(__dirname, '../../../.ci/run');
const TOOLS = ['dirname', 'ls', 'head', 'seq', 'sleep', 'mkdir', 'rm'];

const dir = mkdtempSync(join(tmpdir(), 'leadex-ci-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Where a tool is on this machine's PATH. */
function which(tool: string): string {
  for (const d of (process.env.PATH ?? '').split(delimiter)) if (existsSync(join(d, tool))) return join(d, tool);
  throw new Error(`${tool} is not on PATH`);
}

function workspace(name: string) {
  const root = join(dir, name);
  const bin = join(root, 'bin');
  mkdirSync(join(root, '.ci'), { recursive: true });
  mkdirSync(bin);
  copyFileSync(SCRIPT, join(root, '.ci', 'run'));
  for (const tool of TOOLS) symlinkSync(which(tool), join(bin, tool));
  symlinkSync(process.execPath, join(bin, 'node'));
  const log = join(root, 'calls.log');
  for (const tool of ['npm', 'apt-get']) {
    const stub = join(bin, tool);
    writeFileSync(stub, `#!/bin/bash\necho "${tool} $* TEST_DATABASE_URL=\${TEST_DATABASE_URL:-}" >> "${log}"\n`);
    chmodSync(stub, 0o755);
  }
  return { root, bin, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
}

function runCi(root: string, bin: string, port: number) {
  const env: NodeJS.ProcessEnv = { PATH: bin, HOME: root, CI_POSTGRES_PORT: String(port) };
  return new Promise<{ code: number | null; out: string }>((done, fail) => {
    const child = spawn('/bin/bash', [join(root, '.ci', 'run')], { cwd: root, env });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('error', fail);
    child.on('close', (code) => done({ code, out }));
  });
}

const listen = () =>
  new Promise<Server>((done) => {
    const server = createServer((socket) => socket.end());
    server.listen(0, '127.0.0.1', () => done(server));
  });
const portOf = (server: Server) => (server.address() as { port: number }).port;

describe('.ci/run without PostgreSQL', () => {
  it('refuses: fails with "0 passed, 1 failed" and never runs the tests', async () => {
    // A port nothing listens on: bound once, then closed.
    const server = await listen();
    const port = portOf(server);
    await new Promise((done) => server.close(done));
    const { root, bin, calls } = workspace('closed');
    const { code, out } = await runCi(root, bin, port);
    expect(out).toContain(`No PostgreSQL on 127.0.0.1:${port}: the concurrency tests cannot run`);
    expect(out.trim().split('\n').at(-1)).toBe('0 passed, 1 failed');
    expect(code).toBe(1);
    expect(calls().filter((c) => c.startsWith('npm test'))).toEqual([]);
  });

  it('with PostgreSQL answering, runs the tests with TEST_DATABASE_URL set to it', async () => {
    const server = await listen();
    try {
      const port = portOf(server);
      const { root, bin, calls } = workspace('open');
      const { code, out } = await runCi(root, bin, port);
      expect(out).toContain(`PostgreSQL answers on 127.0.0.1:${port}`);
      expect(code).toBe(0);
      expect(calls().filter((c) => c.startsWith('npm test'))).toEqual([
        expect.stringMatching(new RegExp(`TEST_DATABASE_URL=postgres://postgres@127\\.0\\.0\\.1:${port}/test$`)),
      ]);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

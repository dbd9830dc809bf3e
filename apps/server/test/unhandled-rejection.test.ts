import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Issue 28: an unhandled rejection anywhere fails the run. Vitest reports a rejection nobody handled
 * as an error of the file it happened in and exits non-zero, even when every test passed; this proves
 * it on a fixture file run by a Vitest of its own, with the server projects' settings (isolate: false).
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CONFIG = fileURLToPath(new URL('./unhandled/vitest.config.ts', import.meta.url));

function runVitest(file: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    ['node_modules/vitest/vitest.mjs', 'run', '--config', CONFIG, file, '--reporter', 'default'],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output: output.join('') })));
}

describe('an unhandled rejection in a test file', () => {
  it('fails the run although every test passed, naming the file', async () => {
    const { code, output } = await runVitest('rejects.fixture.ts');
    expect(output).toContain('1 passed');
    expect(output).toMatch(/Unhandled Rejection/i);
    expect(output).toContain('fixture: a rejection nobody handles');
    expect(output).toContain('rejects.fixture.ts');
    expect(code, output).not.toBe(0);
  });

  it('is what fails it: the same run without one passes', async () => {
    const { code, output } = await runVitest('passes.fixture.ts');
    expect(code, output).toBe(0);
  });
});

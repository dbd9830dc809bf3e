import { defineConfig } from 'vitest/config';

/** The server's integration tests, on PGlite always and on PostgreSQL when TEST_DATABASE_URL is set. */
const serverProject = (name: string, database: 'pglite' | 'postgres') => ({
  test: {
    name,
    root: 'apps/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    env: { LEADEX_TEST_DB: database },
    // A worker runs its files one after another in one module graph instead of importing the whole
    // server afresh for each (about a quarter of the server tests' time). Every file builds its own app
    // on its own database (test/harness.ts); the server keeps no state in its modules.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    // Two files at a time (Vitest's default is one fewer than the cores: one on a 2-core CI machine).
    // The tests mostly wait on PostgreSQL, PGlite or Chromium. The e2e files run one at a time
    // (fileParallelism: false below), after the rest: two at once, each on its worker's own exchange
    // (e2e/global-setup.ts), beside the server tests, was faster on a 2-core machine but made screens
    // slow enough to bring out timing races in the tests (docs/decisions.md).
    maxWorkers: 2,
    projects: [
      { test: { name: 'domain', root: 'packages/domain', include: ['src/**/*.test.ts'] } },
      { test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.ts'] } },
      serverProject('server-pglite', 'pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-postgres', 'postgres')] : []),
      {
        test: {
          name: 'e2e',
          root: 'e2e',
          include: ['**/*.e2e.ts'],
          globalSetup: ['global-setup.ts'],
          fileParallelism: false,
          // Each screen a test meets is also checked with axe-core (e2e/accessibility.ts): a few seconds more.
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // A screen on a busy CI machine takes more than expect.poll's default second to load: a
          // poll gives up only after 15 s, so a slow machine waits longer, never fails sooner.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
});

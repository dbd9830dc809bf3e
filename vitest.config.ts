import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest's order (project by project, by name; then larger files first) would start the simulated
 * month on PostgreSQL, the run's longest file by far, among the last: the other worker then sat idle
 * for its last minutes. It goes first, then the one on PGlite; the rest keep Vitest's order.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) =>
      !file.moduleId.endsWith('simulated-month.test.ts') ? 2 : file.project.name === 'server-postgres' ? 0 : 1;
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b)); // stable: ties keep Vitest's order
  }
}

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
    // The tests mostly wait on PostgreSQL, PGlite or Chromium. e2e files run beside the others, each on
    // its worker's own exchange (e2e/global-setup.ts); with fileParallelism: false they ran one at a
    // time after everything else, and CI took twice as long (docs/decisions.md).
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
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

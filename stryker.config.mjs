// @ts-check
/**
 * Mutation testing of the pure engine files and the domain rules: `npm run test:mutation`.
 * Not part of `npm test` or CI (too slow); see docs/testing.md, "Mutation testing".
 * It runs only the fast, database-free unit tests listed in vitest.mutation.config.ts.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts' },
  coverageAnalysis: 'perTest',
  // Static mutants (module-level code such as the Zod schemas' constants) need every test re-run
  // in a fresh module graph each: about 230 of them, which would take most of an hour on two
  // cores. They are skipped by default; `npm run test:mutation -- --ignoreStatic false` runs them.
  ignoreStatic: true,
  mutate: [
    'apps/server/src/distribution/auction.ts',
    'apps/server/src/distribution/caps.ts',
    'apps/server/src/distribution/eligibility.ts',
    'apps/server/src/distribution/normalize.ts',
    'apps/server/src/distribution/ping-token.ts',
    'apps/server/src/lib/time.ts',
    'apps/server/src/modules/bills/money.ts',
    'packages/domain/src/campaign.ts',
    'packages/domain/src/zip.ts',
  ],
  // The sandbox needs only the server and domain sources (and the root configs).
  ignorePatterns: ['apps/web', 'e2e', 'docs', 'bench', 'data', 'coverage', 'reports', '.test-results', 'test-results'],
  // A shared two-core machine: never more than two test workers.
  concurrency: 2,
  timeoutMS: 10_000,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: null },
};

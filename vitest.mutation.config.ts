import { defineConfig } from 'vitest/config';

/**
 * The fast, database-free unit tests that cover the files Stryker mutates (stryker.config.mjs).
 * No global setup: nothing here opens PGlite or PostgreSQL, so each mutant's run takes milliseconds.
 */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'domain', root: 'packages/domain', include: ['src/**/*.test.ts'] } },
      {
        test: {
          name: 'server-unit',
          root: 'apps/server',
          include: [
            'src/distribution/auction.test.ts',
            'src/distribution/caps.test.ts',
            'src/distribution/eligibility.test.ts',
            'src/distribution/normalize.test.ts',
            'src/distribution/ping-token.test.ts',
            'src/lib/time.test.ts',
            'src/modules/bills/money.test.ts',
          ],
        },
      },
    ],
  },
});

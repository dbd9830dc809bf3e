import { defineConfig } from 'vitest/config';

/**
 * The fixture run of unhandled-rejection.test.ts: a file of the server's own settings (isolate: false,
 * as the server projects in vitest.config.ts) whose test passes but leaves a promise rejected.
 */
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.fixture.ts'],
    isolate: false,
    testTimeout: 30_000,
  },
});

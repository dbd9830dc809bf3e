import { expect, it } from 'vitest';

// Run only by unhandled-rejection.test.ts (a spawned Vitest): the test passes, yet a promise nobody
// awaits rejects while the file runs, as pg-boss's unawaited job outcome did (issue 28).
it('passes, but leaves a rejected promise behind', async () => {
  void (async () => {
    await new Promise((resolve) => setImmediate(resolve));
    throw new Error('fixture: a rejection nobody handles');
  })();
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(true).toBe(true);
});

import { afterAll, beforeAll } from 'vitest';

/**
 * A value the test file's tests share, made once in `beforeAll` (in the order the file declares its
 * fixtures and hooks) and disposed of in `afterAll` (in the reverse order). The answer stands for
 * the value: use it inside tests and hooks, not at the file's top level.
 */
export function useFixture<T extends object>(make: () => Promise<T>, dispose?: (value: T) => Promise<void>): T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await make();
  });
  afterAll(async () => {
    if (value && dispose) await dispose(value);
  });
  const made = (): T => {
    if (!value) throw new Error('a fixture is made in beforeAll; use it inside tests and hooks');
    return value;
  };
  return new Proxy({} as T, {
    get: (_target, key) => Reflect.get(made(), key),
    set: (_target, key, value) => Reflect.set(made(), key, value),
    has: (_target, key) => Reflect.has(made(), key),
    ownKeys: () => Reflect.ownKeys(made()),
    getOwnPropertyDescriptor: (_target, key) => Reflect.getOwnPropertyDescriptor(made(), key),
  });
}

import { isResponseSerializationError } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler } from './answers';

/** The serializer of the routes' answer schemas (issue 31): checks, strips, never reorders. */
const serialize = (schema: z.ZodType, data: unknown) =>
  serializerCompiler({ schema, method: 'GET', url: '/x', httpStatus: '200' } as never)(data);

describe('the answer serializer', () => {
  const answer = z.object({
    id: z.string(),
    ts: z.number(),
    nested: z.object({ a: z.number(), b: z.number() }),
    list: z.array(z.object({ x: z.number(), y: z.number() })),
    open: z.record(z.string(), z.unknown()),
  });

  it('keeps the keys in the order the service wrote them, not the schema’s', () => {
    const data = { ts: 1, list: [{ y: 2, x: 1 }], nested: { b: 2, a: 1 }, open: { z: 1, a: 2 }, id: 'i' };
    expect(serialize(answer, data)).toBe(JSON.stringify(data));
  });

  it('drops what the schema does not name, at any depth', () => {
    const data = { id: 'i', secret: 's', ts: 1, nested: { a: 1, b: 2, c: 3 }, list: [{ x: 1, y: 2, z: 3 }], open: {} };
    expect(JSON.parse(serialize(answer, data))).toEqual({
      id: 'i',
      ts: 1,
      nested: { a: 1, b: 2 },
      list: [{ x: 1, y: 2 }],
      open: {},
    });
  });

  it('refuses an answer that does not match its schema (a 500, never a wrong answer)', () => {
    let thrown: unknown;
    try {
      serialize(answer, { id: 1 });
    } catch (error) {
      thrown = error;
    }
    expect(isResponseSerializationError(thrown)).toBe(true);
  });

  it('writes dates as ISO strings, as JSON.stringify does', () => {
    const at = new Date('2026-01-02T03:04:05.000Z');
    expect(serialize(z.object({ at: z.date() }), { at })).toBe(JSON.stringify({ at }));
  });
});

import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler } from './errors';
import { hasMoreBrackets, MAX_DEPTH, registerInputHygiene } from './input-hygiene';

/** `{"a":{"a":…{"a":1}…}}`: an object nested `depth` levels, as text, with `filler` beside its first field. */
const nested = (depth: number, filler = '') => `{${filler}"a":`.repeat(depth).concat('1', '}'.repeat(depth));

let app: FastifyInstance;
beforeAll(async () => {
  app = Fastify();
  registerErrorHandler(app);
  registerInputHygiene(app);
  app.post('/echo', async () => ({ ok: true }));
  await app.ready();
});
afterAll(() => app?.close());

const send = (payload: string) =>
  app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload });

// Issue 36: a JSON body with no more brackets than MAX_DEPTH is not scanned; the limit is the same.
describe('the JSON parser', () => {
  it(`takes a body nested ${MAX_DEPTH} levels and refuses ${MAX_DEPTH + 1}, long or short`, async () => {
    const filler = '"text":"a long value to pass the length at which bodies are scanned",';
    for (const padding of ['', filler]) {
      expect((await send(nested(MAX_DEPTH, padding))).statusCode).toBe(200);
      const deep = await send(nested(MAX_DEPTH + 1, padding));
      expect(deep.statusCode).toBe(400);
      expect(deep.body).toContain(`nested more than ${MAX_DEPTH} levels`);
    }
  });

  it('scans only a text with more opening brackets than the limit, both kinds counted together', () => {
    expect(hasMoreBrackets('{"a":[1]}', 2)).toBe(false);
    expect(hasMoreBrackets('{"a":[{}]}', 2)).toBe(true);
    expect(hasMoreBrackets('[[[', 3)).toBe(false);
    expect(hasMoreBrackets('{"a":"[{"}', 2)).toBe(true);
    expect(hasMoreBrackets(nested(MAX_DEPTH), MAX_DEPTH)).toBe(false);
    expect(hasMoreBrackets(nested(MAX_DEPTH + 1), MAX_DEPTH)).toBe(true);
  });

  it('takes a flat body whose strings hold more brackets than the limit', async () => {
    const brackets = '{['.repeat(MAX_DEPTH);
    expect((await send(JSON.stringify({ note: brackets, zip: '75201' }))).statusCode).toBe(200);
  });
});

import { pingAnswerSchema, sourceApiResponses } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { serializerCompiler } from '../../plugins/answers';
import { isCommonPingAnswer, pingSerializerCompiler } from './ping-answer';

const schema = sourceApiResponses(pingAnswerSchema)[200].content['application/json'].schema as unknown as ZodType;
const route = { schema, method: 'POST', url: '/api/ping', httpStatus: '200', contentType: 'application/json' };
const fast = pingSerializerCompiler(route);
const checked = serializerCompiler(route);

const QUOTE = { ok: true, ping_id: 'tok.en', price: 12.5, expires: 1_767_225_600 };

/** What each serializer writes, or the error it throws. */
const written = (serialize: (data: unknown) => string, data: unknown) => {
  try {
    return serialize(data);
  } catch (error) {
    return `threw ${(error as Error).name}`;
  }
};

// Issue 36: the ping's common answers skip the schema's encoding, and are written as it would write them.
describe("the ping's answer serializer", () => {
  it.each([
    ['a quote', QUOTE],
    ['a test quote with warnings, keys in the service order', { ...QUOTE, test: true, warnings: ['w'] }],
    ['a quote, keys in another order', { expires: 1, price: 0, ping_id: '', ok: true }],
    ['a quote with conditions', { ...QUOTE, conditions: [{ field: 'battery', message: 'm' }] }],
    ['no_match', { ok: false, reason: 'no_match' }],
    ['suppressed with a warning', { ok: false, reason: 'suppressed', warnings: ['metadata was not stored'] }],
  ])('takes %s as common and writes it as the schema does', (_name, answer) => {
    expect(isCommonPingAnswer(answer)).toBe(true);
    expect(fast(answer)).toBe(checked(answer));
    expect(JSON.parse(fast(answer))).toEqual(answer);
  });

  it.each([
    ['a key no schema names', { ...QUOTE, secret: 'x' }],
    ['a condition with a key no schema names', { ...QUOTE, conditions: [{ field: 'f', message: 'm', x: 1 }] }],
    ['a condition without its message', { ...QUOTE, conditions: [{ field: 'f' }] }],
    ['a condition that is no object', { ...QUOTE, conditions: ['f'] }],
    ['conditions on a refusal', { ok: false, reason: 'no_match', conditions: [] }],
    ['a reason beside a quote', { ...QUOTE, reason: 'no_match' }],
    ['a quote without its expiry', { ok: true, ping_id: 'tok.en', price: 1 }],
    ['a refusal with a message', { ok: false, reason: 'no_match', message: 'm' }],
    ['another refusal', { ok: false, reason: 'duplicate' }],
    ['a price as text', { ...QUOTE, price: '12.50' }],
    ['an infinite price', { ...QUOTE, price: Number.POSITIVE_INFINITY }],
    ['a fractional expiry', { ...QUOTE, expires: 1.5 }],
    ['test: false', { ...QUOTE, test: false }],
    ['a warning that is no text', { ...QUOTE, warnings: [1] }],
    ['a present but undefined key', { ...QUOTE, test: undefined }],
    ['a LeadConduit answer', { outcome: 'success', price: 1 }],
    ['a list', [QUOTE]],
    ['null', null],
  ])('leaves %s to the schema, which writes or refuses it as before', (_name, answer) => {
    expect(isCommonPingAnswer(answer)).toBe(false);
    expect(written(fast, answer)).toBe(written(checked, answer));
  });

  it('leaves every status but 200 to the schema', () => {
    const failureSchema = sourceApiResponses(pingAnswerSchema)[400] as unknown as ZodType;
    const failureRoute = { ...route, schema: failureSchema, httpStatus: '400' };
    // A quote is no failure's shape: the schema refuses it (a 500), even at a status that never carries one.
    expect(written(pingSerializerCompiler(failureRoute), QUOTE)).toMatch(/^threw /);
    const refusal = { ok: false, reason: 'invalid', errors: { zip: 'zip must be a 5-digit ZIP code' } };
    expect(pingSerializerCompiler(failureRoute)(refusal)).toBe(serializerCompiler(failureRoute)(refusal));
  });
});

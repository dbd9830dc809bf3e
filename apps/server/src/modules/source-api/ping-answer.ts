import type { FastifySerializerCompiler } from 'fastify/types/schema';
import type { ZodType } from 'zod';
import { isPlainObject, serializerCompiler } from '../../plugins/answers';

const isTextList = (value: unknown): boolean => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** `[{ field, message }]`: the fields a quote depends on, each with both texts and nothing else. */
const isConditionList = (value: unknown): boolean =>
  Array.isArray(value) &&
  value.every(
    (item) =>
      isPlainObject(item) &&
      typeof item.field === 'string' &&
      typeof item.message === 'string' &&
      Object.keys(item).length === 2,
  );

/** The refusals a ping answers with 200 (the engine's outcomes). */
const PING_REFUSALS: ReadonlySet<unknown> = new Set(['no_match', 'suppressed']);

/**
 * Whether an answer is one of the two a ping gives almost always, each value of the type its schema
 * (`pingQuoteSchema`, `sourceApiFailureSchema` in @leadex/domain) asks, and nothing the schemas do not
 * name: `{ ok: true, ping_id, price, expires, test?, conditions?, warnings? }` or `{ ok: false, reason:
 * no_match | suppressed, warnings? }`. Anything else (a message, errors, a key it does not know) is not.
 */
export function isCommonPingAnswer(data: unknown): boolean {
  if (!isPlainObject(data)) return false;
  const quoted = data.ok === true;
  if (!quoted && (data.ok !== false || !PING_REFUSALS.has(data.reason))) return false;
  for (const key in data) {
    const value = data[key];
    switch (key) {
      case 'ok':
        break;
      case 'warnings':
        if (!isTextList(value)) return false;
        break;
      case 'reason':
        if (quoted) return false;
        break;
      case 'ping_id':
        if (!quoted || typeof value !== 'string') return false;
        break;
      case 'price':
        if (!quoted || !Number.isFinite(value)) return false;
        break;
      case 'expires':
        if (!quoted || !Number.isSafeInteger(value)) return false;
        break;
      case 'test':
        if (!quoted || value !== true) return false;
        break;
      case 'conditions':
        if (!quoted || !isConditionList(value)) return false;
        break;
      default:
        return false;
    }
  }
  return !quoted || ('ping_id' in data && 'price' in data && 'expires' in data);
}

/**
 * The serializer of POST /api/ping's answers (issue 36): the answer a ping gives almost always is
 * checked by `isCommonPingAnswer` and written as it is, which is what the schema's check would let
 * through unchanged (every key named, every value of its type, none transformed, in the service's
 * order); any other answer, and every other status, goes through the schema as every route's does.
 */
export const pingSerializerCompiler: FastifySerializerCompiler<ZodType> = (route) => {
  const checked = serializerCompiler(route);
  if (String(route.httpStatus) !== '200') return checked;
  return (data) => (isCommonPingAnswer(data) ? JSON.stringify(data) : checked(data));
};

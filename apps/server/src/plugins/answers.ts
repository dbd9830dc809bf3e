import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { safeEncode, type ZodType } from 'zod';

/** A JSON object (not an array, a date or a class instance). */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * `checked` (what the schema let through) with its keys in the order `original` has them: a schema
 * drops what it does not name but never reorders an answer (issue 31: no answer changed bytes when the
 * routes got their schemas; Zod writes an object's keys in its schema's order).
 */
export function inOriginalOrder(original: unknown, checked: unknown): unknown {
  if (Array.isArray(checked))
    return checked.map((item, i) => inOriginalOrder(Array.isArray(original) ? original[i] : undefined, item));
  if (!isPlainObject(checked) || !isPlainObject(original)) return checked;
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(original))
    if (key in checked) ordered[key] = inOriginalOrder(original[key], checked[key]);
  for (const key of Object.keys(checked)) if (!(key in ordered)) ordered[key] = checked[key];
  return ordered;
}

/**
 * The serializer of every route's answer schema (DESIGN.md §4, issue 31): the answer is checked against
 * the route's schema for its status (a mismatch is a 500, never a wrong answer), what the schema does not
 * name is dropped (what a role must not see), and the rest keeps the order the service wrote it in.
 */
export const serializerCompiler: FastifySerializerCompiler<ZodType> =
  ({ schema, method, url }) =>
  (data) => {
    const result = safeEncode(schema, data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(inOriginalOrder(data, result.data));
  };

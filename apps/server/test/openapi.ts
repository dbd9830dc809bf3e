import type { FastifyInstance } from 'fastify';

/**
 * The routes of the app's OpenAPI document, for the tests that walk the whole API (who may call what,
 * what malformed input does): each route's method, path, a URL with made-up ids, and its operation.
 */

export interface JsonSchema {
  type?: string | string[];
  format?: string;
  pattern?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}
export interface Operation {
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  /** The answers by status (`200`, `4XX`, …), each with its schema per content type. */
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
}
type Paths = Record<string, Record<string, Operation>>;

export interface DocumentedRoute {
  method: string;
  path: string;
  /** The path with every parameter `x` (or what `params` gives for its name). */
  url: string;
  operation: Operation;
}

/** Every route of the app's OpenAPI document; path parameters named in `params` take that value. */
export function documentedRoutes(app: FastifyInstance, params: Record<string, string> = {}): DocumentedRoute[] {
  const paths = (app.swagger() as { paths: Paths }).paths;
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      // A made-up id: guards answer before any record is looked up.
      url: path.replace(/\{([^}]+)\}/g, (_, name: string) => params[name] ?? 'x'),
      operation,
    })),
  );
}

/** The JSON schema of a route's JSON body, if it has one. */
export const jsonBodySchema = (route: DocumentedRoute): JsonSchema | undefined =>
  route.operation.requestBody?.content?.['application/json']?.schema;

const typesOf = (schema: JsonSchema) => [schema.type ?? []].flat();

/** A free-form value (`true`, `{}`): it may be text, so it counts as a string field. */
const isAny = (schema: JsonSchema | true) =>
  schema === true || (!schema.type && !schema.anyOf && !schema.oneOf && !schema.allOf && !schema.properties);

/** Every field of a JSON schema that `matches`, as dotted paths (array items as `.0`, free-form objects as `.key`). */
export function fieldsWhere(
  schema: JsonSchema | undefined,
  matches: (schema: JsonSchema, path: string) => boolean,
  path = '',
): string[] {
  if (!schema) return [];
  const found: string[] = [];
  if (matches(schema, path)) found.push(path);
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
    found.push(...fieldsWhere(branch, matches, path));
  for (const [key, child] of Object.entries(schema.properties ?? {}))
    found.push(...fieldsWhere(child, matches, path ? `${path}.${key}` : key));
  if (schema.items) found.push(...fieldsWhere(schema.items, matches, `${path}.0`));
  if (schema.additionalProperties) {
    const free = isAny(schema.additionalProperties) ? { type: 'string' } : (schema.additionalProperties as JsonSchema);
    found.push(...fieldsWhere(free, matches, path ? `${path}.key` : 'key'));
  }
  return [...new Set(found)].filter(Boolean);
}

/** Every string field of a JSON schema (see `fieldsWhere`). */
export const stringFields = (schema: JsonSchema | undefined): string[] =>
  fieldsWhere(schema, (s) => typesOf(s).includes('string'));

/** Every field a string may be sent in: the string fields and those that take any value (the lenient ones). */
export const textFields = (schema: JsonSchema | undefined): string[] =>
  fieldsWhere(schema, (s) => typesOf(s).includes('string') || (typesOf(s).length === 0 && isAny(s)));

/** A body with `value` at a dotted path. */
export function bodyWith(path: string, value: unknown, base: Record<string, unknown> = {}): Record<string, unknown> {
  const body = structuredClone(base);
  const parts = path.split('.');
  let node: Record<string, unknown> | unknown[] = body;
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    const next = parts[i + 1];
    const key = /^\d+$/.test(part) ? Number(part) : part;
    const holder = node as Record<string | number, unknown>;
    if (last) holder[key] = value;
    else {
      if (typeof holder[key] !== 'object' || holder[key] === null) holder[key] = next && /^\d+$/.test(next) ? [] : {};
      node = holder[key] as Record<string, unknown>;
    }
  }
  return body;
}

import { fieldLabel } from '@leadex/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';

/**
 * Text PostgreSQL cannot store: the NUL character (in text columns and in jsonb alike). It arrives as
 * `\u0000` in JSON, `%00` in forms and query strings, or `&#0;` in XML.
 */
const NUL = '\u0000';

/** The public source API keeps every lead it is sent, so it drops NULs instead of refusing the lead. */
const STRIPPED_PATHS = new Set(['/api/ping', '/api/post', '/api/lead']);

/** The dotted path of the first string (value or key) holding a NUL, or null. */
export function findNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = findNul(item, path ? `${path}.${i}` : String(i));
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key.replaceAll(NUL, '')}` : key.replaceAll(NUL, '');
      if (key.includes(NUL)) return at;
      const found = findNul(item, at);
      if (found !== null) return found;
    }
  }
  return null;
}

/** The same value with every NUL removed from its strings and keys. */
export function stripNul<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll(NUL, '') as T;
  if (Array.isArray(value)) return value.map(stripNul) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replaceAll(NUL, ''), stripNul(v)])) as T;
  }
  return value;
}

function refuse(field: string): never {
  const path = field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  throw AppError.field(field, `${fieldLabel(path)} contains a character that cannot be stored (NUL); remove it.`);
}

/**
 * One rule for the whole API, after authentication and before validation (DESIGN.md §11 "Input
 * hygiene"): a NUL in the path, query or body answers 400 naming the field, except on the public
 * source API, which strips it so the lead is kept.
 */
export function registerInputHygiene(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    const path = request.url.split('?')[0] ?? '';
    if (STRIPPED_PATHS.has(path)) {
      if (findNul(request.body) !== null) request.body = stripNul(request.body);
      if (findNul(request.query) !== null) request.query = stripNul(request.query);
      return;
    }
    for (const part of [request.params, request.query, request.body]) {
      const field = findNul(part);
      if (field !== null) refuse(field);
    }
  });
}

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as domain from './index';
import { VALID_BUYER } from './test-support';

// DESIGN.md §11 "Input hygiene": every message reads as a sentence a person understands, never the
// schema library's wording. This walks every exported schema and every field in it (nested objects
// and list entries too), sends each field wrong types and an over-long text, and reads the answers.

type Schema = z.core.$ZodType;
type Path = (string | number)[];

const ZOD_PREFIXES = ['Invalid input', 'Too big', 'Too small', 'Invalid option', 'Invalid string', 'Unrecognized key'];
const zodEnglish = z.locales.en().localeError;
const OVER_LONG = 'x'.repeat(100_000);
const WRONG_TYPES: unknown[] = [12345, true, { a: 1 }, [1], null, 'not a number', '', OVER_LONG];

const schemas = Object.entries(domain as Record<string, unknown>).filter(
  (entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType,
);

/** The schema under the wrappers that do not change the shape (optional, default, preprocess, …). */
function core(schema: Schema, depth = 0): Schema {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  if (depth > 20) return schema;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return core(def.innerType as Schema, depth + 1);
    case 'pipe': {
      // z.preprocess(fn, s) is pipe(transform, s); s.transform(fn) is pipe(s, transform).
      const input = def.in as Schema;
      return core(input._zod.def.type === 'transform' ? (def.out as Schema) : input, depth + 1);
    }
    case 'lazy':
      return core((def.getter as () => Schema)(), depth + 1);
    default:
      return schema;
  }
}

/** Every field path of a schema, with the field's schema: object keys, list entries (index 0), record values. */
function fields(schema: Schema, path: Path = [], depth = 0): [Path, Schema][] {
  if (depth > 8) return [];
  const inner = core(schema);
  const def = inner._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const out: [Path, Schema][] = [];
  const visit = (key: string | number, child: Schema) => {
    out.push([[...path, key], child]);
    out.push(...fields(child, [...path, key], depth + 1));
  };
  if (def.type === 'object')
    for (const [key, child] of Object.entries(def.shape as Record<string, Schema>)) visit(key, child);
  else if (def.type === 'array') visit(0, def.element as Schema);
  else if (def.type === 'record') visit('some_field', def.valueType as Schema);
  else if (def.type === 'union')
    for (const option of def.options as Schema[]) out.push(...fields(option, path, depth + 1));
  return out;
}

/** An input holding `value` at `path` (objects for keys, lists for indexes). */
function inputAt(path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const child = inputAt(rest, value);
  return typeof head === 'number' ? [child] : { [head as string]: child };
}

/** The largest length a field's text may have, when the field is a text with a maximum. */
function maxLength(schema: Schema): number | undefined {
  const inner = core(schema);
  return inner._zod.def.type === 'string' ? (inner._zod.bag as { maximum?: number }).maximum : undefined;
}

const samePath = (a: readonly PropertyKey[], b: Path) => a.length === b.length && a.every((k, i) => k === b[i]);

function zodWorded(issue: z.core.$ZodIssue & { input?: unknown }): boolean {
  const english = zodEnglish(issue as never);
  const englishText = typeof english === 'string' ? english : english?.message;
  return issue.message === englishText || ZOD_PREFIXES.some((prefix) => issue.message.startsWith(prefix));
}

describe('schema messages (DESIGN.md §11 Input hygiene)', () => {
  it('finds the exported schemas and their fields', () => {
    expect(schemas.length).toBeGreaterThan(30);
    expect(schemas.flatMap(([, schema]) => fields(schema)).length).toBeGreaterThan(200);
  });

  describe.each(schemas)('%s', (_name, schema) => {
    const probes: [Path, Schema][] = [[[], schema], ...fields(schema)];

    it('answers every wrong type and over-long text in sentences, never in Zod’s words', () => {
      const bad: string[] = [];
      for (const [path] of probes) {
        for (const value of WRONG_TYPES) {
          const result = schema.safeParse(inputAt(path, value), { reportInput: true });
          if (result.success) continue;
          for (const issue of result.error.issues)
            if (zodWorded(issue))
              bad.push(
                `${path.join('.') || '(root)'} = ${describeValue(value)}: [${issue.path.join('.')}] ${issue.message}`,
              );
        }
      }
      expect(bad).toEqual([]);
    });

    it('says an over-long text is too long, never that it is required', () => {
      const bad: string[] = [];
      for (const [path, field] of probes) {
        const result = schema.safeParse(inputAt(path, OVER_LONG));
        if (result.success) continue;
        const here = result.error.issues.filter((issue) => samePath(issue.path, path));
        // "is required", not the word alone: a yes/no field may be named Required.
        for (const issue of here)
          if (/\bis required\b/i.test(issue.message)) bad.push(`${path.join('.') || '(root)'}: ${issue.message}`);
        const max = maxLength(field);
        if (max !== undefined && !here.some((issue) => issue.message.includes(`at most ${max} characters`)))
          bad.push(
            `${path.join('.') || '(root)'}: no "at most ${max} characters" in ${JSON.stringify(here.map((i) => i.message))}`,
          );
      }
      expect(bad).toEqual([]);
    });

    it('does not call a value of the wrong type missing', () => {
      const bad: string[] = [];
      for (const [path] of probes) {
        for (const value of [12345, true, { a: 1 }, [1]]) {
          const result = schema.safeParse(inputAt(path, value));
          if (result.success) continue;
          for (const issue of result.error.issues)
            if (samePath(issue.path, path) && /\bis required\b/.test(issue.message))
              bad.push(`${path.join('.') || '(root)'} = ${describeValue(value)}: ${issue.message}`);
        }
      }
      expect(bad).toEqual([]);
    });
  });
});

describe('the error map', () => {
  const first = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;

  it('names the field and says what is wrong', () => {
    expect(first(domain.buyerCreateSchema, { ...VALID_BUYER, name: 'x'.repeat(201) })).toBe(
      'Name must be at most 200 characters',
    );
    expect(first(domain.buyerCreateSchema, { ...VALID_BUYER, name: 12 })).toBe('Name must be text');
    expect(first(domain.buyerCreateSchema, { ...VALID_BUYER, name: '' })).toBe('Name is required');
    expect(first(domain.buyerCreateSchema, { ...VALID_BUYER, state: 'ZZ' })).toBe('State must be a US state');
    expect(first(domain.campaignSourceFilterSchema, { source: 's', pct: 1, price: 'abc' })).toBe(
      'Price must be a number',
    );
  });

  it('words the schemas made outside this package too (one Zod configuration per process)', () => {
    const lead = z.object({ tcpa_language: z.string().max(5000), metadata: z.record(z.string(), z.unknown()) });
    expect(first(lead, { tcpa_language: 'x'.repeat(5001), metadata: {} })).toBe(
      'TCPA language must be at most 5000 characters',
    );
    expect(first(lead, { tcpa_language: 'ok', metadata: 'x' })).toBe('Metadata must be an object of fields');
    expect(first(z.object({ max: z.object({ hourly: z.number() }) }), { max: { hourly: 'x' } })).toBe(
      'Hourly limit must be a number',
    );
    expect(first(z.object({ contactName: z.string() }), {})).toBe('Contact name is required');
  });
});

function describeValue(value: unknown): string {
  if (typeof value === 'string') return value.length > 20 ? `"${value.slice(0, 5)}…" (${value.length})` : `"${value}"`;
  return JSON.stringify(value);
}

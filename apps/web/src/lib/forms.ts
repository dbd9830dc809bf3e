import { zodResolver } from '@hookform/resolvers/zod';
import {
  type FieldError,
  type FieldValues,
  get,
  type Path,
  type RegisterOptions,
  type Resolver,
  type UseFormReturn,
  type UseFormSetError,
} from 'react-hook-form';
import type { z } from 'zod';
import { ApiRequestError } from './api';

/**
 * A React Hook Form resolver from a shared Zod schema. The form holds what the inputs hold (strings,
 * '' for empty), which is the schema's input; the server parses the same schema, so the form only
 * needs the messages and sends its raw values.
 */
export function schemaResolver<TValues extends FieldValues>(schema: z.ZodType): Resolver<TValues> {
  // The schema's inferred input types are wider than the form's (coercions take `unknown`).
  return zodResolver(schema as never) as unknown as Resolver<TValues>;
}

/**
 * A Mantine input's props for the field `name` of a React Hook Form form: its registration and the
 * message of its error, so that an input never shows another field's error.
 */
export function inputProps<TValues extends FieldValues>(
  form: Pick<UseFormReturn<TValues>, 'register' | 'formState'>,
  name: Path<TValues>,
  options?: RegisterOptions<TValues, Path<TValues>>,
) {
  const error: FieldError | undefined = get(form.formState.errors, name);
  return { ...form.register(name, options), error: error?.message };
}

/**
 * Spec §8: a 400 naming form fields (`errors: { 'bill.pay': message }`) marks those fields. Returns
 * true when at least one field was marked. The toast has already been raised by the api client.
 */
export function applyFieldErrors<TValues extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<TValues>,
  fields?: readonly string[],
): boolean {
  if (!(error instanceof ApiRequestError) || error.status !== 400) return false;
  let marked = false;
  for (const [field, message] of Object.entries(error.errors)) {
    if (fields && !fields.some((f) => field === f || field.startsWith(`${f}.`))) continue;
    setError(field as Path<TValues>, { type: 'server', message }, { shouldFocus: !marked });
    marked = true;
  }
  return marked;
}

/**
 * Spec §8: the message a failed call's 400 gives `field` (`errors: { reason: message }`), for an input
 * outside a react-hook-form form; undefined when there is no failure or it does not name the field.
 */
export function fieldError(error: unknown, field: string): string | undefined {
  return (error as { errors?: Record<string, string> } | null | undefined)?.errors?.[field];
}

/**
 * The fields of `current` that differ from `original`, for updates that send only changed fields.
 * Nested objects are compared field by field and give a partial object (`bill: { grace }`); arrays are
 * compared and sent whole; the top-level keys in `whole` are sent whole when any part changed (objects
 * the API replaces rather than merges, such as `notify`).
 */
export function changedFields<T extends Record<string, unknown>>(
  original: Partial<T> | undefined,
  current: T,
  whole: readonly (keyof T)[] = [],
): Partial<T> {
  const changes: Record<string, unknown> = {};
  for (const key of Object.keys(current)) {
    const before = original?.[key];
    const after = current[key];
    if (isEqual(before, after)) continue;
    if (isPlainObject(after) && isPlainObject(before) && !whole.includes(key)) {
      changes[key] = changedFields(before, after);
    } else {
      changes[key] = after;
    }
  }
  return changes as Partial<T>;
}

/** Deep equality of form values (plain objects, arrays, primitives); '' and absent count as equal. */
export function isEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isBlank(a) && isBlank(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => isEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) if (!isEqual(a[key], b[key])) return false;
    return true;
  }
  // A number input may hold 5 where the record had '5' (or the reverse).
  if ((typeof a === 'number' || typeof b === 'number') && String(a) === String(b)) return true;
  return false;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A postal address as its inputs hold it: '' where the record has none (buyers and sources). */
export interface AddressFormValues {
  address: string;
  city: string;
  state: string;
  zip: string;
}

export const NO_ADDRESS: AddressFormValues = { address: '', city: '', state: '', zip: '' };

/** A record's address as form values. */
export function addressFormValues(record: {
  address?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
}): AddressFormValues {
  return { address: record.address ?? '', city: record.city ?? '', state: record.state ?? '', zip: record.zip ?? '' };
}

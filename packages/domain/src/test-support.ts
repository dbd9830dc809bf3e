import { expect, it } from 'vitest';
import type { z } from 'zod';

/**
 * The first message for each field of `input` that `schema` refuses, as a form shows it: keyed by
 * the field's dotted path (`(root)` for the input as a whole); empty when the input is valid.
 */
export function messages(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) out[issue.path.join('.') || '(root)'] ??= issue.message;
  return out;
}

/** A valid buyer form (admin spec §5), as a person fills it in. */
export const VALID_BUYER = {
  username: 'acme-roofing',
  name: 'Acme Roofing',
  email: 'ops@acme.example',
  phone: '(555) 010-2000',
  bill: { pay: 'invoice' },
};

/** The contact fields a buyer's and a source's form both require, each missing or blank (admin spec §5). */
export function itRequiresContactFields(schema: z.ZodType, valid: Record<string, unknown>) {
  it.each([
    ['name', 'Name is required'],
    ['email', 'Email is required'],
    ['phone', 'Phone is required'],
  ])('requires %s', (field, message) => {
    expect(messages(schema, { ...valid, [field]: undefined })[field]).toBe(message);
    expect(messages(schema, { ...valid, [field]: '  ' })[field]).toBe(message);
  });
}

/** A user form (Buyer or Source User Details) requires a name and an email, and takes `valid`. */
export function itRequiresNameAndEmail(schema: z.ZodType, valid: { name: string; email: string }) {
  it('requires a name and an email', () => {
    expect(messages(schema, {})).toEqual({ name: 'Name is required', email: 'Email is required' });
    expect(messages(schema, valid)).toEqual({});
  });
}

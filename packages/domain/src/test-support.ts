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

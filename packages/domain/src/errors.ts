import { z } from 'zod';

/** The one failure shape every API route answers (DESIGN.md §4). */
export const apiErrorSchema = z.object({
  ok: z.literal(false),
  message: z.string(),
  /** Per-field messages, keyed by the field's dotted path (`bill.pay`). */
  errors: z.record(z.string(), z.string()).optional(),
  /** A code for machines: always on the public source API (SOURCE_API_REASONS), elsewhere when it says more. */
  reason: z.string().optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

/** Paged list answer. */
export const pageSchema = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), total: z.number() });
export type Page<T> = { data: T[]; total: number };

/** A page of a list whose total is counted only up to a limit: `more` says the count stopped there and there are more. */
export const countedPageSchema = <T extends z.ZodType>(item: T) =>
  pageSchema(item).extend({ more: z.boolean().optional() });
export type CountedPage<T> = Page<T> & { more?: boolean };

/**
 * The response schemas of a route (issue 31): its success answer under its status (200, or 201 for
 * a creation), every failure in the one error shape. The serializer checks each answer against its
 * schema and drops what the schema does not name.
 */
export function apiResponses<T extends z.ZodType>(
  ok: T,
): { 200: T; '4xx': typeof apiErrorSchema; '5xx': typeof apiErrorSchema };
export function apiResponses<T extends z.ZodType>(
  ok: T,
  status: 201,
): { 201: T; '4xx': typeof apiErrorSchema; '5xx': typeof apiErrorSchema };
export function apiResponses<T extends z.ZodType>(ok: T, status: 200 | 201 = 200) {
  return { [status]: ok, '4xx': apiErrorSchema, '5xx': apiErrorSchema };
}

/** `{ ok: true }`: an action that answers nothing more. */
export const okSchema = z.object({ ok: z.boolean() });
export type OkAnswer = z.infer<typeof okSchema>;

/** The response schemas of a route that answers a file or a stream of another type (CSV, NDJSON). */
// Typed loosely on purpose: a route sends such a body itself (a string, a stream, a redirect), so the
// type provider leaves its handler's return type alone.
export const fileResponses = (contentType: string, description: string): Record<string, unknown> => ({
  200: { description, content: { [contentType]: { schema: z.string() } } },
  '4xx': apiErrorSchema,
  '5xx': apiErrorSchema,
});

/** A CSV export (`text/csv`, streamed or whole). */
export const csvResponse = fileResponses('text/csv', 'The rows as CSV');

/** The response schemas of a route that sends the browser elsewhere (302, no body). */
export const redirectResponse: Record<string, unknown> = {
  302: z.null().describe('Redirects the browser (Location header)'),
  '4xx': apiErrorSchema,
  '5xx': apiErrorSchema,
};

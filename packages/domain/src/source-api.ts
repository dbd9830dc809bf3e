import { z } from 'zod';

/**
 * The public source API's reason codes (DESIGN.md §4): machines branch on `reason`, people read
 * `message`. One list for the server's answers, the OpenAPI document (`x-reasons`), the API doc
 * page and docs/api.md (a test keeps its table equal to this list).
 */
export const SOURCE_API_REASONS = [
  { status: 200, reason: 'no_match', meaning: 'no buyer takes this lead now (service, location, hours, caps, price)' },
  { status: 200, reason: 'duplicate', meaning: 'you sent the same phone or email within the last 5 minutes' },
  {
    status: 200,
    reason: 'suppressed',
    meaning: "the consumer's phone, email or ZIP is on the exchange's suppression list: the lead is not sold",
  },
  {
    status: 400,
    reason: 'invalid',
    meaning: 'a field is missing or malformed: `errors` names each field; a tampered or foreign `ping_id` too',
  },
  { status: 400, reason: 'expired', meaning: 'the `ping_id` has expired: ping again' },
  { status: 401, reason: 'unauthorized', meaning: 'no API key, or an unknown one' },
  { status: 403, reason: 'held', meaning: 'the API key or the source is on hold' },
  { status: 403, reason: 'expired', meaning: 'the API key has expired' },
  { status: 403, reason: 'forbidden', meaning: '`/api/lead` by a source not approved to post directly' },
  { status: 403, reason: 'not_approved', meaning: 'a new source may send test leads only until an admin approves it' },
  {
    status: 403,
    reason: 'no_payout',
    meaning: 'the exchange has not set what it pays you per lead (for this channel): test leads only until it does',
  },
  { status: 409, reason: 'conflict', meaning: 'a request with the same `Idempotency-Key` is still being processed' },
  {
    status: 422,
    reason: 'idempotency_key_reused',
    meaning:
      'the `Idempotency-Key` was used in the last 24 hours for a different request (another lead or route): nothing was stored; send each new lead with a new key',
  },
  { status: 429, reason: 'rate_limited', meaning: 'too many requests for this key; see `Retry-After`' },
  { status: 500, reason: 'error', meaning: 'something went wrong on our side: `message` names the request; retry' },
  {
    status: 503,
    reason: 'unavailable',
    meaning: 'the exchange is briefly unavailable (a database restart or failover): retry after `Retry-After` seconds',
  },
] as const;

export const sourceApiReasonSchema = z.enum([
  'no_match',
  'duplicate',
  'suppressed',
  'invalid',
  'expired',
  'unauthorized',
  'held',
  'forbidden',
  'not_approved',
  'no_payout',
  'not_found',
  'conflict',
  'idempotency_key_reused',
  'rate_limited',
  'error',
  'unavailable',
]);
export type SourceApiReason = z.infer<typeof sourceApiReasonSchema>;

/**
 * What the exchange changed in what it was sent rather than refuse it (a `metadata` it could not store,
 * dropped; a field read under another name or ignored, issue 32): one sentence each. Absent when nothing
 * was changed.
 */
const warnings = z.array(z.string()).optional();

/** Any refusal: a 200 for a lead nobody takes, or the status of the failure. */
export const sourceApiFailureSchema = z.object({
  ok: z.literal(false),
  reason: sourceApiReasonSchema,
  message: z.string().optional(),
  errors: z.record(z.string(), z.string()).optional(),
  /** The lead is kept even when it does not sell (post and lead). */
  lead_id: z.string().optional(),
  /** `duplicate`: the lead this one repeats. */
  duplicate_of: z.string().optional(),
  warnings,
});
export type SourceApiFailure = z.infer<typeof sourceApiFailureSchema>;

/** POST /api/ping: a price and the ping_id to post with, valid until `expires` (epoch seconds). */
export const pingQuoteSchema = z.object({
  ok: z.literal(true),
  ping_id: z.string(),
  price: z.number(),
  expires: z.number().int(),
  test: z.literal(true).optional(),
  warnings,
});

/** POST /api/post and /api/lead: the lead sold at `price` (the source's payout). */
export const leadSoldSchema = z.object({
  ok: z.literal(true),
  lead_id: z.string(),
  price: z.number(),
  status: z.literal('sold'),
  test: z.literal(true).optional(),
  warnings,
});

export const pingAnswerSchema = z.union([pingQuoteSchema, sourceApiFailureSchema]);
export const saleAnswerSchema = z.union([leadSoldSchema, sourceApiFailureSchema]);
export type PingAnswer = z.infer<typeof pingAnswerSchema>;
export type SaleAnswer = z.infer<typeof saleAnswerSchema>;

/**
 * How the public API answers (issue 32 item 7), chosen by the request's `response_format` parameter or
 * an `Accept` header preferring XML: `json` (the default, unchanged), `xml` (the same content as XML),
 * `leadconduit` (LeadConduit's `outcome`/`reason`/`price`/`lead.id`, which its Standard recipient reads
 * with no answer settings) and `leadconduit_xml` (that, as XML).
 */
export const SOURCE_API_ANSWER_FORMATS = ['json', 'xml', 'leadconduit', 'leadconduit_xml'] as const;
export const sourceApiAnswerFormatSchema = z.enum(SOURCE_API_ANSWER_FORMATS);
export type SourceApiAnswerFormat = z.infer<typeof sourceApiAnswerFormatSchema>;

/** The public routes' query: the answer's format (keys and test flags may travel there too: docs/api.md). */
export const sourceApiQuerySchema = z.looseObject({
  response_format: z
    .string()
    .optional()
    .describe(
      "The answer's format: json (the default), xml, leadconduit (LeadConduit's outcome, reason, price, lead.id) or leadconduit_xml. An Accept header preferring XML gives the XML form",
    ),
});

/**
 * LeadConduit's outcomes: `success` (sold, or a test that would have sold), `failure` (this lead is
 * refused: no buyer, a duplicate, a field) and `error` (not the lead's fault: the key, the source's
 * standing, a limit or the exchange; sending again later may work).
 */
export const leadConduitOutcomeSchema = z.enum(['success', 'failure', 'error']);

/**
 * An answer in LeadConduit's shape (`response_format=leadconduit`), as its Standard recipient
 * (`leadconduit-default`) reads it: `outcome`, a `reason` on failure and error, the `price` the source
 * is paid, the exchange's lead id as `lead.id`. The exchange's own `code` (the reason code), `ping_id`,
 * `expires`, `test` and `warnings` come along for whoever maps them.
 */
export const leadConduitAnswerSchema = z.object({
  outcome: leadConduitOutcomeSchema,
  reason: z.string().optional(),
  price: z.number().optional(),
  lead: z.object({ id: z.string() }).optional(),
  /** The exchange's reason code (`no_match`, `invalid`, …) of a failure or error. */
  code: sourceApiReasonSchema.optional(),
  ping_id: z.string().optional(),
  expires: z.number().int().optional(),
  test: z.literal(true).optional(),
  errors: z.record(z.string(), z.string()).optional(),
  duplicate_of: z.string().optional(),
  warnings,
});
export type LeadConduitAnswer = z.infer<typeof leadConduitAnswerSchema>;

/** The XML answers' content, documented as the JSON it mirrors (an element per field under `<response>`). */
const XML_NOTE =
  'The same content as XML (`response_format=xml` or `leadconduit_xml`, or an Accept header preferring XML): an element per field under the root `<response>`; `errors` as `<error field="…">message</error>`, each warning a `<warning>`.';

/** The response schemas of a public route by status: 200 answers, every failure status refuses. */
export function sourceApiResponses<T extends z.ZodType>(ok: T) {
  const answers = z.union([ok, leadConduitAnswerSchema]);
  return {
    200: {
      description: 'The answer: JSON by default, LeadConduit-style with `response_format=leadconduit`',
      content: {
        'application/json': { schema: answers },
        'application/xml': { schema: answers.describe(XML_NOTE) },
      },
    },
    400: sourceApiFailureSchema,
    401: sourceApiFailureSchema,
    403: sourceApiFailureSchema,
    404: sourceApiFailureSchema,
    409: sourceApiFailureSchema,
    413: sourceApiFailureSchema,
    415: sourceApiFailureSchema,
    422: sourceApiFailureSchema,
    429: sourceApiFailureSchema,
    500: sourceApiFailureSchema,
    503: sourceApiFailureSchema,
  };
}

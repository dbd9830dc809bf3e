import { negotiate } from '@fastify/accept-negotiator';
import {
  type LeadConduitAnswer,
  leadConduitAnswerSchema,
  SOURCE_API_ANSWER_FORMATS,
  SOURCE_API_REASONS,
  type SourceApiAnswerFormat,
  type SourceApiReason,
} from '@leadex/domain';
import { XMLBuilder } from 'fast-xml-parser';
import type { FastifyRequest } from 'fastify';

/** The query parameter that names the answer's format (docs/api.md "Answers"). */
export const ANSWER_FORMAT_PARAMETER = 'response_format';

/**
 * The format a request asked for, the XML media type it accepts (for an XML format), or why the format
 * could not be read (a 400 once the key is checked).
 */
export type AnswerFormatChoice = {
  format: SourceApiAnswerFormat;
  xmlType?: string;
  error?: string;
  /** The request named its format (`response_format`): the source's own setting does not apply. */
  asked?: boolean;
};

/** JSON first: a client that takes both, or anything (`*\/*`), keeps today's JSON answer. */
const MEDIA_TYPES = ['application/json', 'application/xml', 'text/xml'];

/** The XML media type `accept` prefers to JSON, if any (only a header naming XML is parsed at all). */
function preferredXml(accept: string | undefined): string | undefined {
  if (!accept?.toLowerCase().includes('xml')) return undefined;
  const mediaType = negotiate(accept, MEDIA_TYPES);
  return mediaType && mediaType !== 'application/json' ? mediaType : undefined;
}

/**
 * The answer format of a request: its `response_format` query parameter (the name matched whatever
 * its case), else the source's own setting (`sourceFormat`, once the caller is known), else JSON; an
 * Accept header preferring XML turns either JSON form into its XML form (`json` into `xml`,
 * `leadconduit` into `leadconduit_xml`). An unknown format answers JSON and carries the message the
 * route refuses it with.
 */
export function answerFormatOf(
  request: FastifyRequest,
  sourceFormat?: SourceApiAnswerFormat | null,
): AnswerFormatChoice {
  const query = request.query && typeof request.query === 'object' ? (request.query as Record<string, unknown>) : {};
  const name = Object.keys(query).find((key) => key.toLowerCase() === ANSWER_FORMAT_PARAMETER);
  const raw = name === undefined ? undefined : query[name];
  const asked = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
  if (raw !== undefined && !SOURCE_API_ANSWER_FORMATS.includes(asked as SourceApiAnswerFormat))
    return {
      format: 'json',
      error: `${ANSWER_FORMAT_PARAMETER} must be one of ${SOURCE_API_ANSWER_FORMATS.join(', ')}`,
    };
  const format = (asked || sourceFormat || 'json') as SourceApiAnswerFormat;
  const named = asked ? { asked: true } : {};
  const xmlType = preferredXml(request.headers.accept);
  if (format === 'xml' || format === 'leadconduit_xml')
    return { format, xmlType: xmlType ?? 'application/xml', ...named };
  if (xmlType) return { format: format === 'json' ? 'xml' : 'leadconduit_xml', xmlType, ...named };
  return { format, ...named };
}

/** What each reason code means, for a LeadConduit `reason` when the exchange wrote no message. */
const MEANING = new Map<string, string>(SOURCE_API_REASONS.map(({ reason, meaning }) => [reason, meaning]));

/**
 * The reasons that refuse this lead for what it is (LeadConduit's `failure`: sending it again will not
 * sell it); every other reason is the key's, the source's, a limit's or the exchange's (`error`).
 */
const FAILURES: ReadonlySet<SourceApiReason> = new Set([
  'no_match',
  'duplicate',
  'suppressed',
  'invalid',
  'expired',
  'not_found',
]);

type LeadexAnswer = Record<string, unknown>;

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1).replaceAll('`', '')}`;

/**
 * A Leadex answer (already checked against its route's schema) in LeadConduit's shape: a sale or a
 * quote is a `success` with its `price`; a refusal is a `failure` or an `error` with a `reason` a
 * person reads (the message, else what the code means) and the code itself as `code`.
 */
export function toLeadConduit(answer: LeadexAnswer): LeadConduitAnswer {
  const { ok, reason, message, lead_id, status: _status, ...rest } = answer;
  const common = {
    ...(typeof lead_id === 'string' ? { lead: { id: lead_id } } : {}),
    ...rest,
  };
  if (ok === true) return leadConduitAnswerSchema.parse({ outcome: 'success', ...common });
  const code = (typeof reason === 'string' ? reason : 'error') as SourceApiReason;
  // The exchange's own message as it wrote it (it names the field as sent); else what the code means.
  const text = typeof message === 'string' && message ? message : sentence(MEANING.get(code) ?? code);
  return leadConduitAnswerSchema.parse({
    outcome: FAILURES.has(code) ? 'failure' : 'error',
    reason: text,
    code,
    ...common,
  });
}

const xml = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@', suppressEmptyNode: true });

/**
 * An answer as XML under `<response>`: an element per field; `errors` as `<error field="…">` elements
 * (field names are not always valid element names) and each warning a `<warning>`.
 */
export function toXml(answer: LeadexAnswer | LeadConduitAnswer): string {
  const { errors, warnings, ...fields } = answer as LeadexAnswer;
  const response: Record<string, unknown> = { ...fields };
  if (errors && typeof errors === 'object')
    response.errors = {
      error: Object.entries(errors as Record<string, string>).map(([field, text]) => ({
        '@field': field,
        '#text': text,
      })),
    };
  if (Array.isArray(warnings)) response.warnings = { warning: warnings };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${xml.build({ response })}`;
}

/**
 * The answer the client asked for, from the JSON the route's schema checked: the payload and its
 * content type. `json` keeps the payload as it is (not even parsed again).
 */
export function renderAnswer(
  { format, xmlType = 'application/xml' }: AnswerFormatChoice,
  json: string,
): { payload: string; contentType: string } {
  if (format === 'json') return { payload: json, contentType: 'application/json; charset=utf-8' };
  const answer = JSON.parse(json) as LeadexAnswer;
  const shaped = format === 'leadconduit' || format === 'leadconduit_xml' ? toLeadConduit(answer) : answer;
  if (format === 'leadconduit')
    return { payload: JSON.stringify(shaped), contentType: 'application/json; charset=utf-8' };
  return { payload: toXml(shaped), contentType: `${xmlType}; charset=utf-8` };
}

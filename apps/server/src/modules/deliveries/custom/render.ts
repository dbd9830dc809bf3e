import {
  type CONSENT_EVIDENCE_FIELD_NAMES,
  type ContentType,
  DELIVERY_FIELDS,
  type FieldValue,
  type FieldValueRow,
  fieldsAtStage,
  fieldValueForAnswer,
  SERVICE_FIELD_MAP_PREFIX,
  type ServiceField,
  trustedFormCertificateUrl,
} from '@leadex/domain';
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import type { ConsentEvidenceRecord, DeliverableLead, DeliveryTarget } from '../../../distribution/ports';
import { callingWindowOf } from '../../../lib/calling-window';
import { toEpochSeconds } from '../../../lib/clock';
import { centsToDollars } from '../../../lib/money';
import {
  DEFAULT_OUTBOUND_TIMEOUT_MS,
  messageOf,
  OutboundError,
  type OutboundErrorCode,
  type OutboundNetwork,
  type OutboundResponse,
  outboundRequest,
} from '../../../lib/outbound-http';
import { signWebhook } from '../../../lib/webhook-signature';

type Scalar = string | number | boolean | null;
type ConsentEvidenceField = (typeof CONSENT_EVIDENCE_FIELD_NAMES)[number];

/** A lead as a delivery sees it: the template fields (DELIVERY_FIELDS) by name. */
export type DeliveryLead = Record<string, Scalar | undefined>;

/** The service's own fields as a delivery reads them: `fields.<key>`, money in dollars (stored in cents). */
export function serviceFieldsForDelivery(
  stored: Record<string, FieldValue> | null | undefined,
  definitions: readonly Pick<ServiceField, 'key' | 'type'>[],
): DeliveryLead {
  const out: DeliveryLead = {};
  for (const [key, value] of Object.entries(stored ?? {}))
    out[`${SERVICE_FIELD_MAP_PREFIX}${key}`] = fieldValueForAnswer(
      definitions.find((d) => d.key === key),
      value,
    );
  return out;
}

/**
 * A lead as the mapping reads it; `priceCents` is what this buyer pays (its match's price);
 * `definitions` are the lead's service's own fields (their types: money is sent in dollars).
 */
export function leadForDelivery(
  row: DeliverableLead,
  priceCents = row.priceCents,
  definitions: readonly Pick<ServiceField, 'key' | 'type'>[] = [],
  /** The exchange's public address (PUBLIC_URL): the evidence's download links start with it. */
  publicUrl = '',
): DeliveryLead {
  return {
    ...serviceFieldsForDelivery(row.fields, definitions),
    lead_id: row.id,
    ts: toEpochSeconds(row.createdAt),
    service: row.service,
    name: row.name,
    first_name: row.firstName,
    last_name: row.lastName,
    phone: row.phone,
    email: row.email,
    address: row.address,
    city: row.city,
    state: row.state,
    zip: row.zip,
    homeowner: row.homeowner,
    tcpa_consent: row.tcpaConsent,
    tcpa_language: row.tcpaLanguage,
    // Only a certificate on TrustedForm's host: a buyer claims it with its API key (a lead stored before
    // the check may hold anything a source typed).
    trusted_form: trustedFormCertificateUrl(row.trustedForm),
    trusted_form_ping_url: row.trustedFormPingUrl,
    jornaya: row.jornaya,
    ip: row.ip,
    user_agent: row.userAgent,
    pub_id: row.pubId,
    sub_id: row.subId,
    channel: row.channel,
    price: centsToDollars(priceCents),
    test: row.test,
    consent_page_url: row.consentPageUrl ?? null,
    ...consentEvidenceFields(row.id, row.consentEvidence ?? null, publicUrl),
    ...callingWindowFields(row),
  };
}

const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The lead's consent evidence as a delivery maps it (issue 34 item 3): the record's own values, not
 * the lead's (an edit never changes them), its hash, and where the buyer downloads it. A lead without
 * evidence sends them all empty: never a failed delivery.
 */
export function consentEvidenceFields(
  leadId: string,
  evidence: ConsentEvidenceRecord | null,
  publicUrl: string,
): Record<ConsentEvidenceField, Scalar> {
  const consumer = (evidence?.record.consumer ?? {}) as Record<string, unknown>;
  const covered = evidence?.record.legal_names_covered;
  const link = (format: 'json' | 'pdf') =>
    evidence && publicUrl ? `${publicUrl}/api/lead/${encodeURIComponent(leadId)}/consent-evidence.${format}` : null;
  return {
    consent_evidence_hash: evidence?.hash ?? null,
    consent_evidence_url: link('json'),
    consent_evidence_pdf_url: link('pdf'),
    consent_at: textOf(evidence?.record.recorded_at),
    consent_language: textOf(evidence?.record.consent_language),
    consent_ip: textOf(consumer.ip),
    consent_user_agent: textOf(consumer.user_agent),
    consent_trusted_form: textOf(evidence?.record.trusted_form),
    consent_jornaya: textOf(evidence?.record.jornaya),
    consent_legal_names: Array.isArray(covered) && covered.length > 0 ? covered.map(String).join('; ') : null,
  };
}

/**
 * The consumer's calling window at the lead's arrival (issue 34 item 5): its zone, the state's rule in
 * a sentence, and the frequency cap; empty when neither the ZIP nor the phone tells the zone.
 */
export function callingWindowFields(
  row: Pick<DeliverableLead, 'zip' | 'phone' | 'state' | 'createdAt'>,
): Record<'consumer_time_zone' | 'calling_window' | 'calling_window_max_per_24h', Scalar> {
  const window = callingWindowOf(row, row.createdAt);
  return {
    consumer_time_zone: window?.zone ?? null,
    calling_window: window?.text ?? null,
    calling_window_max_per_24h: window?.rule.maxPer24h ?? null,
  };
}

const BOOLEAN_FIELDS = new Set(['homeowner', 'tcpa_consent', 'test']);
const NUMBER_FIELDS = new Set(['price', 'ts']);

/** A sample value of a service's field of this type, for the template and the Test modal. */
export function serviceFieldSample(field: Pick<ServiceField, 'type' | 'options'>): string {
  const samples: Record<ServiceField['type'], string> = {
    text: 'sample text',
    number: '3',
    money: '150.00',
    boolean: 'true',
    choice: field.options[0] ?? '',
    date: '2026-01-15',
    phone: '5125550100',
    email: 'jane.doe@example.com',
    zip: '78701',
  };
  return samples[field.type];
}

/**
 * What a ping carries of the service's own fields (issue 33): the values of its non-personal ping-stage
 * fields, whatever else `stored` holds (a post's personal or post-only fields never travel in a ping).
 */
export function pingServiceFields(
  stored: Record<string, FieldValue> | null | undefined,
  definitions: readonly ServiceField[],
): DeliveryLead {
  const pingKeys = new Set(fieldsAtStage(definitions, 'ping').map((f) => f.key));
  const sendable = Object.entries(stored ?? {}).filter(([key]) => pingKeys.has(key));
  return serviceFieldsForDelivery(Object.fromEntries(sendable), definitions);
}

/** The `fields.<key>` names a ping's mapping may send: each non-personal ping field of some service, once. */
export function pingDeliveryFields(services: Iterable<readonly ServiceField[]>): string[] {
  const names = new Set<string>();
  for (const fields of services)
    for (const f of fieldsAtStage(fields, 'ping')) names.add(`${SERVICE_FIELD_MAP_PREFIX}${f.key}`);
  return [...names];
}

/**
 * The services' own fields a mapping may send (issue 33): `fields.<key>` for each live field of every
 * service, once per key (the first service's definition), each with its sample.
 */
export function serviceDeliveryFields(
  services: Iterable<readonly ServiceField[]>,
): { field: string; sample: string; definition: ServiceField }[] {
  const seen = new Map<string, { field: string; sample: string; definition: ServiceField }>();
  for (const fields of services)
    for (const f of fields)
      if (!f.removed && !seen.has(f.key))
        seen.set(f.key, { field: `${SERVICE_FIELD_MAP_PREFIX}${f.key}`, sample: serviceFieldSample(f), definition: f });
  return [...seen.values()];
}

/**
 * The Test modal's lead (POST /api/webhook/{id}/test): the template's samples, with the values typed
 * for `test_<field>`, typed as a real lead's would be (booleans, numbers); `services` gives the
 * services' own fields (`fields.<key>`) their samples and types.
 */
export function testLead(
  values: Record<string, unknown>,
  services: Iterable<readonly ServiceField[]> = [],
): DeliveryLead {
  const lead: DeliveryLead = {};
  for (const { field, sample } of DELIVERY_FIELDS) lead[field] = sample;
  const own = serviceDeliveryFields(services);
  for (const { field, sample } of own) lead[field] = sample;
  for (const [name, value] of Object.entries(values)) {
    if (!name.startsWith('test_')) continue;
    lead[name.slice('test_'.length)] = value === null || value === undefined ? null : (value as Scalar);
  }
  for (const [field, value] of Object.entries(lead)) {
    if (typeof value !== 'string') continue;
    const text = value.trim().toLowerCase();
    if (BOOLEAN_FIELDS.has(field) && (text === 'true' || text === 'false')) lead[field] = text === 'true';
    if (NUMBER_FIELDS.has(field) && /^-?\d+(\.\d+)?$/.test(text)) lead[field] = Number(text);
  }
  // A service's number, money or yes/no field is sent as a real lead's would be.
  for (const { field, definition } of own) {
    const value = lead[field];
    if (typeof value !== 'string') continue;
    const text = value.trim().toLowerCase();
    if (definition.type === 'boolean' && (text === 'true' || text === 'false')) lead[field] = text === 'true';
    if ((definition.type === 'number' || definition.type === 'money') && /^-?\d+(\.\d+)?$/.test(text))
      lead[field] = Number(text);
  }
  return lead;
}

/** A request as it will be sent (and as the Test modal and the delivery logs show it). */
export interface RenderedRequest {
  url: string;
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string;
}

const CONTENT_TYPE_HEADER: Record<ContentType, string> = {
  json: 'application/json',
  xml: 'application/xml',
  form: 'application/x-www-form-urlencoded',
};
const ACCEPT_HEADER: Record<ContentType, string> = {
  json: 'application/json',
  xml: 'application/xml, text/xml',
  form: 'application/x-www-form-urlencoded',
};

const xmlBuilder = new XMLBuilder({ format: false });
const xmlParser = new XMLParser({
  ignoreDeclaration: true,
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
});

/**
 * The fields sent, in order: each mapping row sends the lead's `field` under the buyer's name
 * (`value`), each hardcoded row sends `value` under `field`, then the credentials (key and secret
 * under their names, `key` and `secret` by default). A later row of the same name wins.
 */
export function renderFields(target: DeliveryTarget, lead: DeliveryLead): Record<string, Scalar> {
  const fields: Record<string, Scalar> = {};
  for (const row of target.map) fields[row.value] = lead[row.field] ?? null;
  for (const row of target.static) fields[row.field] = row.value;
  if (target.key) fields[target.keyname || 'key'] = target.key;
  if (target.secret) fields[target.secretname || 'secret'] = target.secret;
  return fields;
}

const asText = (value: Scalar) => (value === null ? '' : String(value));

/** The body in the send content type; the wrap key wraps the fields (root element in XML). */
export function renderBody(target: DeliveryTarget, fields: Record<string, Scalar>): string {
  const wrap = target.wrap_key?.trim() || undefined;
  switch (target.send_content_type) {
    case 'xml': {
      const text = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, asText(v)]));
      return `<?xml version="1.0" encoding="UTF-8"?>${xmlBuilder.build({ [wrap ?? 'lead']: text })}`;
    }
    case 'form': {
      const params = new URLSearchParams();
      for (const [name, value] of Object.entries(fields))
        params.append(wrap ? `${wrap}[${name}]` : name, asText(value));
      return params.toString();
    }
    default:
      return JSON.stringify(wrap ? { [wrap]: fields } : fields);
  }
}

/** Renders the whole request: URL, method, headers (the rows win over the defaults) and body. */
export function renderRequest(
  target: DeliveryTarget,
  lead: DeliveryLead,
  options: { messageId?: string } = {},
): RenderedRequest {
  const headers: Record<string, string> = {
    'Content-Type': CONTENT_TYPE_HEADER[target.send_content_type],
    Accept: ACCEPT_HEADER[target.return_content_type],
    'User-Agent': 'Leadex-Delivery/1.0',
    // Lets the buyer drop a retried delivery it already has (DESIGN.md §6).
    ...(options.messageId ? { 'webhook-id': options.messageId } : {}),
  };
  for (const row of target.headers) {
    for (const name of Object.keys(headers)) if (name.toLowerCase() === row.header.toLowerCase()) delete headers[name];
    headers[row.header] = row.value;
  }
  return {
    url: target.url,
    method: target.method,
    headers,
    body: renderBody(target, renderFields(target, lead)),
  };
}

/** The response body read as the return content type says; text when it is not that. */
export function parseResponse(text: string, type: ContentType): unknown {
  if (text.trim() === '') return '';
  try {
    if (type === 'json') return JSON.parse(text);
    if (type === 'xml') {
      if (!text.trimStart().startsWith('<')) return text;
      return xmlParser.parse(text);
    }
    return Object.fromEntries(new URLSearchParams(text.trim()));
  } catch {
    return text;
  }
}

/**
 * A field of the response by dotted path (`result.status`, `errors.0.code`). An XML answer's root
 * element may be left out: `status` finds `<response><status>` too.
 */
export function responseField(data: unknown, path: string): unknown {
  const walk = (from: unknown): unknown => {
    let at = from;
    for (const part of path.split('.')) {
      if (at === null || typeof at !== 'object') return undefined;
      at = (at as Record<string, unknown>)[part];
    }
    return at;
  };
  const found = walk(data);
  if (found !== undefined) return found;
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const keys = Object.keys(data);
    const only = keys.length === 1 ? (data as Record<string, unknown>)[keys[0] as string] : undefined;
    if (only && typeof only === 'object') return walk(only);
  }
  return undefined;
}

const scalarText = (value: unknown): string | undefined =>
  value === null || value === undefined || typeof value === 'object' ? undefined : String(value).trim();

/**
 * Accepted when the answer is a 2xx and every accept rule's field holds its value (compared as text).
 * Without rules, any 2xx is accepted.
 */
export function isAccepted(status: number, data: unknown, accept: readonly FieldValueRow[]): boolean {
  if (status < 200 || status >= 300) return false;
  return accept.every((rule) => scalarText(responseField(data, rule.field)) === rule.value.trim());
}

/** The buyer's id of the lead: the response field named by `return_id`. */
export function returnIdOf(data: unknown, returnId: string | undefined): string | undefined {
  if (!returnId) return undefined;
  const value = scalarText(responseField(data, returnId));
  return value === '' ? undefined : value;
}

/** The most of a buyer's reason kept: enough for a sentence, never a whole error page. */
export const REASON_MAX_LENGTH = 300;

/**
 * The buyer's reason for not accepting: the response field named by `reason_field`, as one line of
 * text. A list of reasons (LeadConduit's `reason` may be one) is joined with commas.
 */
export function reasonOf(data: unknown, reasonField: string | undefined): string | undefined {
  if (!reasonField) return undefined;
  const found = responseField(data, reasonField);
  const parts = (Array.isArray(found) ? found : [found]).map(scalarText).filter((p): p is string => Boolean(p));
  const text = parts.join(', ').replace(/\s+/g, ' ').trim();
  return text === '' ? undefined : text.slice(0, REASON_MAX_LENGTH);
}

/**
 * Whether a 2xx answer says "try again" (e.g. LeadConduit's `outcome` = `error`): every retry rule
 * holds. Without rules, never: a Not Accepted answer then refuses the lead as before.
 */
export function isRetryAnswer(status: number, data: unknown, retry: readonly FieldValueRow[] | undefined): boolean {
  if (!retry || retry.length === 0 || status < 200 || status >= 300) return false;
  return retry.every((rule) => scalarText(responseField(data, rule.field)) === rule.value.trim());
}

/** What one delivery attempt did; the Test modal, the sale and the delivery logs read it. */
export interface DeliveryResult {
  accepted: boolean;
  /** The HTTP status; 0 when no answer came. */
  status: number;
  url: string;
  reqHeaders: Record<string, string>;
  reqBody: string;
  /** The response, parsed per the return content type, or its text. */
  data: unknown;
  /** The response text (at most 256 KB). */
  responseBody: string;
  /** The buyer's id of the lead (`return_id`), when the answer has one. */
  returnId?: string;
  /** The buyer's reason for not accepting (`reason_field`), when the answer is no and has one. */
  reason?: string;
  /** The answer is Not Accepted but says "try again" (the delivery's retry rules): retried, not refused. */
  retryAnswer?: boolean;
  durationMs: number;
  /** Why no answer came (refused target, timeout, network, a request that could not be made). */
  error?: string;
  errorCode?: DeliveryErrorCode;
}

/** Why a delivery got no answer: the outbound call's reason, or `failed` when rendering or sending threw. */
export type DeliveryErrorCode = OutboundErrorCode | 'failed';

/**
 * A delivery that got no answer, as every caller reads one: `status: 0` with why. `sent` is as much of
 * the request as was rendered before it failed.
 */
export function unanswered(
  sent: Pick<DeliveryResult, 'url' | 'reqHeaders' | 'reqBody'>,
  error: unknown,
  durationMs: number,
): DeliveryResult {
  const outbound = error instanceof OutboundError;
  return {
    ...sent,
    accepted: false,
    status: 0,
    data: null,
    responseBody: '',
    durationMs,
    error: outbound ? error.message : `The delivery could not be sent: ${messageOf(error)}`,
    errorCode: outbound ? error.code : 'failed',
  };
}

export interface DeliverOptions extends OutboundNetwork {
  /** 10 s by default; the sale's inline deliveries use 3 s (DESIGN.md §6). */
  timeoutMs?: number;
  /** `ALLOW_PRIVATE_DELIVERY_TARGETS`: development and tests only. */
  allowPrivate?: boolean;
  /** Ends the call as a timeout when it aborts (a ping's own limit). */
  signal?: AbortSignal;
  /** Sent as `webhook-id`, the same on every retry, so the buyer can drop duplicates. */
  messageId?: string;
  /**
   * Signs the request with the Standard Webhooks headers (`webhook-timestamp`, `webhook-signature`
   * over `messageId`, the time and the body), as the notify webhooks are: the pings of Ping/Post
   * deliveries are. Needs `messageId`.
   */
  sign?: { secret: string; at: Date };
  /** Keeps the connection for the next call (pings; see `OutboundRequest.reuseConnection`). */
  reuseConnection?: boolean;
}

/**
 * Renders the lead through the delivery and sends it: the one call the Test modal, the sale's
 * inline deliveries and the retry jobs make. Never throws: whatever goes wrong in rendering or
 * sending is this buyer's failure (DESIGN.md §12), not the sale's. A refused target, a timeout, a
 * network error, a header Node will not send, or anything else thrown (a stored row the rules never
 * saw) answer `status: 0` with `error`.
 */
export async function deliverCustom(
  target: DeliveryTarget,
  lead: DeliveryLead,
  options: DeliverOptions = {},
): Promise<DeliveryResult> {
  let sent: Pick<DeliveryResult, 'url' | 'reqHeaders' | 'reqBody'> = {
    url: String(target.url),
    reqHeaders: {},
    reqBody: '',
  };
  const started = performance.now();
  let response: OutboundResponse;
  try {
    const request = renderRequest(target, lead, { messageId: options.messageId });
    if (options.sign && options.messageId)
      Object.assign(
        request.headers,
        signWebhook(options.sign.secret, { id: options.messageId, timestamp: options.sign.at, payload: request.body }),
      );
    sent = { url: request.url, reqHeaders: request.headers, reqBody: request.body };
    response = await outboundRequest({
      ...request,
      timeoutMs: options.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS,
      allowPrivate: options.allowPrivate ?? false,
      resolve: options.resolve,
      dial: options.dial,
      signal: options.signal,
      reuseConnection: options.reuseConnection,
    });
  } catch (error) {
    return unanswered(sent, error, Math.round(performance.now() - started));
  }
  const answered = { ...sent, status: response.status, responseBody: response.body, durationMs: response.durationMs };
  try {
    const data = parseResponse(response.body, target.return_content_type);
    const accepted = isAccepted(response.status, data, target.accept);
    const reason = accepted ? undefined : reasonOf(data, target.reason_field);
    return {
      ...answered,
      accepted,
      data,
      returnId: returnIdOf(data, target.return_id),
      ...(reason !== undefined ? { reason } : {}),
      ...(!accepted && isRetryAnswer(response.status, data, target.retry) ? { retryAnswer: true } : {}),
    };
  } catch (error) {
    // The buyer answered, but its answer rules could not be applied: not accepted, and no retry will change it.
    return {
      ...answered,
      accepted: false,
      data: null,
      error: `The answer could not be read: ${messageOf(error)}`,
      errorCode: 'failed',
    };
  }
}

/**
 * Whether a failed attempt is worth retrying as a job (DESIGN.md §6): no answer (timeout, network),
 * a 5xx, a 429, or an answer the delivery's retry rules read as "try again". A refused target, a 4xx
 * or any other Not Accepted answer will not change by retrying.
 */
export function isRetryable(
  result: Pick<DeliveryResult, 'accepted' | 'status' | 'errorCode' | 'retryAnswer'>,
): boolean {
  if (result.accepted) return false;
  if (result.retryAnswer) return true;
  if (result.errorCode) return result.errorCode === 'timeout' || result.errorCode === 'network';
  return result.status >= 500 || result.status === 429;
}

import { z } from 'zod';
import { CAMPAIGN_STATUS_LABELS, CAMPAIGN_STATUSES, type CampaignStatusValue, statusFlags } from './campaign';
import { valuesOf } from './choices';
import { numericText, optionalText, pageQuery, requiredText, tagList } from './common';
import { PAGE_SIZE } from './constants';
import { SAMPLE_JORNAYA_TOKEN, SAMPLE_TRUSTEDFORM_CERT_URL, SAMPLE_TRUSTEDFORM_PING_URL } from './evidence';
import { whenMissing } from './messages';
import { SERVICE_FIELD_KEY, type ServiceField } from './service-fields';

// Custom deliveries (the `webhook` entity, admin §3 Delivery, portals §3): a buyer's outbound
// HTTP call that pushes each lead sold to it into the buyer's own system.

/** The spec's validation messages (admin §5 Delivery, portals §5 Delivery form), word for word. */
export const WEBHOOK_MESSAGES = {
  name: 'Name is required',
  buyer: 'Buyer is required',
  url: 'URL is required',
  header: 'Header is required',
  value: 'Value is required',
  field: 'Field is required',
  /** Ours: the spec gives no text for a malformed URL. */
  urlInvalid: 'URL must be a valid http:// or https:// address',
  /** Ours (Ping/Post): the spec has no ping yet. */
  type: 'Type must be no_ping (Direct) or ping_post (Ping/Post)',
  ping: 'A Ping/Post delivery needs its ping: URL and bid price field',
  pingUrl: 'Ping URL is required',
  pingUrlInvalid: 'Ping URL must be a valid http:// or https:// address',
  priceField: 'Bid price field is required',
  pingTimeout: 'Ping timeout must be a whole number of milliseconds from 1 to 3000',
  pingField:
    'A ping sends only these lead fields: service, zip, state, channel, pub_id, sub_id, ts, test, trusted_form_ping_url, and the services’ non-personal ping fields (fields.<key>)',
} as const;

/** Why a ping's mapping may not send the service field `fields.<key>` (issue 33), by what the services define. */
export const PING_SERVICE_FIELD_MESSAGES = {
  unknown: (key: string) => `No service has a field “${key}”`,
  personal: (key: string) =>
    `'fields.${key}' is personal: a ping never sends personal fields, only the winner receives them in the post`,
  postOnly: (key: string) => `'fields.${key}' is sent with the post only: a ping does not carry it`,
} as const;

/** How a delivery's mapping names a service's own field (issue 33): `fields.` and its key. */
export const SERVICE_FIELD_MAP_PREFIX = 'fields.';

/** The message for a ping mapping row naming a contact field. */
export const contactInPingMessage = (field: string) =>
  `'${field}' is contact data: a ping never sends name, phone, email, address or other contact fields`;

/**
 * Delivery status (admin §4): draft, live or pause, as a campaign's, with the same labels on the
 * status radio while editing (admin §2 Delivery detail); a new delivery starts as draft.
 */
export const WEBHOOK_STATUSES = CAMPAIGN_STATUSES;
export type WebhookStatusValue = CampaignStatusValue;
export const WEBHOOK_STATUS_LABELS = CAMPAIGN_STATUS_LABELS;

/** Delivery methods and content types (admin §9). */
export const WEBHOOK_METHODS = ['POST', 'PUT'] as const;
export type WebhookMethod = (typeof WEBHOOK_METHODS)[number];
export const CONTENT_TYPES = ['json', 'xml', 'form'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** A custom delivery of type Direct: the lead is posted to the buyer once sold. */
export const DIRECT_DELIVERY = 'no_ping';
/**
 * A custom delivery of type Ping/Post: the buyer's system bids on each lead (the ping, without
 * contact data) before it is sold, and the winner gets the lead (the post). The spec reads any
 * `ping_id` other than `no_ping` as Ping/Post; this is the one value the API takes for it.
 */
export const PING_POST_DELIVERY = 'ping_post';
export const DELIVERY_TYPES = [DIRECT_DELIVERY, PING_POST_DELIVERY] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];
/** The spec's type flag: `no_ping` is Direct, anything else Ping/Post. */
export const isPingPost = (pingId: string): boolean => pingId !== DIRECT_DELIVERY;

/**
 * The template field list: the lead fields a mapping row can send (GET /api/webhook/new), each with
 * the sample the Test modal starts from. The buyer's system never learns the lead's source.
 */
export const DELIVERY_FIELDS = [
  { field: 'lead_id', sample: 'lead_01test' },
  { field: 'ts', sample: '1767225600' },
  { field: 'service', sample: 'roofing' },
  { field: 'name', sample: 'Jane Doe' },
  { field: 'first_name', sample: 'Jane' },
  { field: 'last_name', sample: 'Doe' },
  { field: 'phone', sample: '5125550100' },
  { field: 'email', sample: 'jane.doe@example.com' },
  { field: 'address', sample: '100 Congress Ave' },
  { field: 'city', sample: 'Austin' },
  { field: 'state', sample: 'TX' },
  { field: 'zip', sample: '78701' },
  { field: 'homeowner', sample: 'true' },
  { field: 'tcpa_consent', sample: 'true' },
  { field: 'tcpa_language', sample: 'By clicking Submit I agree to be contacted.' },
  // Evidence of the right shape (evidence.ts): a buyer's system that checks it sees it pass.
  { field: 'trusted_form', sample: SAMPLE_TRUSTEDFORM_CERT_URL },
  /** A TrustedForm ping URL: no personal data, so pings may send it (issue 32 item 8). */
  { field: 'trusted_form_ping_url', sample: SAMPLE_TRUSTEDFORM_PING_URL },
  { field: 'jornaya', sample: SAMPLE_JORNAYA_TOKEN },
  { field: 'ip', sample: '203.0.113.10' },
  { field: 'user_agent', sample: 'Mozilla/5.0' },
  { field: 'pub_id', sample: 'pub-1' },
  { field: 'sub_id', sample: 'sub-1' },
  { field: 'channel', sample: 'web' },
  { field: 'price', sample: '45.00' },
  { field: 'test', sample: 'true' },
  /** The page where the consumer consented (issue 34 item 3). */
  { field: 'consent_page_url', sample: 'https://quotes.example.com/roofing' },
  // The lead's consent evidence (issue 34 item 3), as recorded at the sale: empty when the lead has none.
  /** The SHA-256 (hex) of the evidence record's canonical text (docs/compliance.md). */
  { field: 'consent_evidence_hash', sample: 'd2c1f9b36b5a1e0e7f1d5c1b8a4f0c3e9a7b6d5c4e3f2a1b0c9d8e7f6a5b4c3d' },
  /** Where the buyer downloads the evidence, signed in: JSON (the record, its text and hash). */
  { field: 'consent_evidence_url', sample: 'https://leads.example.com/api/lead/lead_01test/consent-evidence.json' },
  /** The same evidence as a PDF. */
  { field: 'consent_evidence_pdf_url', sample: 'https://leads.example.com/api/lead/lead_01test/consent-evidence.pdf' },
  /** When the consumer consented: the lead's arrival, ISO 8601 in UTC. */
  { field: 'consent_at', sample: '2026-01-01T00:00:00.000Z' },
  /** The consent language as the source sent it. */
  { field: 'consent_language', sample: 'By clicking Submit I agree to be contacted by Summit Roofing LLC.' },
  /** The consumer's IP address and user agent, as recorded. */
  { field: 'consent_ip', sample: '203.0.113.10' },
  { field: 'consent_user_agent', sample: 'Mozilla/5.0' },
  /** The TrustedForm certificate and Jornaya token as checked on arrival. */
  { field: 'consent_trusted_form', sample: SAMPLE_TRUSTEDFORM_CERT_URL },
  { field: 'consent_jornaya', sample: SAMPLE_JORNAYA_TOKEN },
  /** The buyers' legal names the consent language covers, separated by "; ". */
  { field: 'consent_legal_names', sample: 'Summit Roofing LLC' },
  /** The consumer's IANA time zone, from the ZIP (else the phone's area code) (issue 34 item 5). */
  { field: 'consumer_time_zone', sample: 'America/Chicago' },
  /** The consumer's calling window in a sentence: the state's hours, Sundays, holidays. */
  { field: 'calling_window', sample: 'May call 9am-9pm CT, Sundays 12pm-9pm' },
  /** The state's cap of calls or texts per 24 hours on one subject; empty when none. */
  { field: 'calling_window_max_per_24h', sample: '3' },
  /** Ping/Post: the buyer's own id of its bid (the ping answer's `ping_id_field`), echoed in the post. */
  { field: 'buyer_ping_id', sample: 'bid-0001' },
] as const;
export type DeliveryField = (typeof DELIVERY_FIELDS)[number]['field'];
export const DELIVERY_FIELD_NAMES: readonly string[] = DELIVERY_FIELDS.map((f) => f.field);

/** The Test modal's input for a mapped field is named `test_` plus the field (admin §7). */
export const TEST_FIELD_PREFIX = 'test_';

/**
 * The lead fields a ping may send (DESIGN.md §6): what the exchange knows of a lead before it is
 * sold, none of which identifies the consumer. The ping of POST /api/ping carries no contact data,
 * and the one of POST /api/lead sends no more than it would. Their samples are the template's.
 */
export const PING_FIELD_NAMES: readonly string[] = [
  'service',
  'zip',
  'state',
  'channel',
  'pub_id',
  'sub_id',
  'ts',
  'test',
  // Points at TrustedForm's copy of the certificate, not at the consumer: a buyer checks it at the ping.
  'trusted_form_ping_url',
] satisfies DeliveryField[];

/** The delivery fields read from the lead's consent evidence (issue 34 item 3): a sale reads the record only for them. */
export const CONSENT_EVIDENCE_FIELD_NAMES = [
  'consent_evidence_hash',
  'consent_evidence_url',
  'consent_evidence_pdf_url',
  'consent_at',
  'consent_language',
  'consent_ip',
  'consent_user_agent',
  'consent_trusted_form',
  'consent_jornaya',
  'consent_legal_names',
] as const satisfies readonly DeliveryField[];

/** The lead fields that identify or reach the consumer: never sent in a ping, whatever the mapping says. */
export const CONTACT_FIELDS = [
  'name',
  'first_name',
  'last_name',
  'phone',
  'email',
  'address',
  'city',
  'ip',
  'user_agent',
  'trusted_form',
  'jornaya',
  'tcpa_consent',
  'tcpa_language',
  'consent_page_url',
  ...CONSENT_EVIDENCE_FIELD_NAMES,
] as const;

/** A ping's timeout in milliseconds (DESIGN.md §6): 1,000 unless set, never more than 3,000. */
export const PING_TIMEOUT_MS = { default: 1000, min: 1, max: 3000 } as const;

// ---------------------------------------------------------------------------------------------
// Field rules

const isBlank = (value: unknown) => value === undefined || value === null || String(value).trim() === '';

const isHttpUrl = (text: string) => {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/**
 * What Node's HTTP client sends (`validateHeaderName` and `validateHeaderValue` of node:http), mirrored
 * here so the form shows it on the row: anything else makes `http.request` throw instead of sending.
 * A name is an RFC 7230 token; a value holds tab, printable ASCII and Latin-1 (0x80-0xFF) only, so a
 * control character, DEL or anything past Latin-1 (`€`, an emoji) cannot be sent.
 */
const HEADER_NAME_REFUSED = /[^!#$%&'*+.^_`|~0-9A-Za-z-]/u;
const HEADER_VALUE_REFUSED = /[^\t\x20-\x7e\x80-\xff]/u;

/** A character as a message shows it: itself when it can be read, else its code point (`U+007F`). */
export function describeChar(char: string): string {
  if (char === ' ') return 'a space';
  if (/^[\p{L}\p{N}\p{P}\p{S}]$/u.test(char)) return char;
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why Node would refuse this header name, naming the first character it refuses; null when it sends it. */
export function headerNameProblem(name: string, label = 'Header'): string | null {
  if (name === '') return `${label} name is required`;
  const refused = HEADER_NAME_REFUSED.exec(name)?.[0];
  if (refused === undefined) return null;
  return `${label} name contains a character that cannot be sent (${describeChar(refused)})`;
}

/** Why Node would refuse this header value, naming the header and the first character it refuses; null when it sends it. */
export function headerValueProblem(name: string, value: string, label = 'Header'): string | null {
  const refused = HEADER_VALUE_REFUSED.exec(value)?.[0];
  if (refused === undefined) return null;
  const whose = headerNameProblem(name) === null ? `${label} ${name}'s value` : `${label}'s value`;
  return `${whose} contains a character that cannot be sent (${describeChar(refused)})`;
}

/** Headers the exchange sets itself: overriding them would break the request. */
const RESERVED_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);

/** An http(s) URL, labelled `label` in its messages (the post's URL, or the ping's). */
const httpUrl = (label: string, required: string, invalid: string) =>
  z
    .string({ error: whenMissing(required) })
    .trim()
    .min(1, required)
    .max(2000, `${label} must be at most 2000 characters`)
    .refine(isHttpUrl, invalid);

const url = httpUrl('URL', WEBHOOK_MESSAGES.url, WEBHOOK_MESSAGES.urlInvalid);

/** A row's text; a missing value (or null) gets the row's required message. */
const rowText = (message: string, max: number) =>
  z.preprocess((v) => (v === null ? undefined : v), requiredText(message, max));

/** A header row of the post (`Header`) or of the ping (`Ping header`), checked as Node will send it. */
const headerRow = (label: string) =>
  z
    .object({
      header: rowText(WEBHOOK_MESSAGES.header, 200)
        .superRefine((h, ctx) => {
          const problem = headerNameProblem(h, label);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        })
        .refine((h) => !RESERVED_HEADERS.has(h.toLowerCase()), 'This header is set by the exchange'),
      value: rowText(WEBHOOK_MESSAGES.value, 4000).refine((v) => !/[\r\n]/.test(v), 'Value must be on one line'),
    })
    .superRefine((row, ctx) => {
      // A line break has its own message above; every other character Node refuses is named here.
      if (/[\r\n]/.test(row.value)) return;
      const problem = headerValueProblem(row.header, row.value, label);
      if (problem) ctx.addIssue({ code: 'custom', path: ['value'], message: problem });
    });

export const webhookHeaderSchema = headerRow('Header');

/** An accept, map or static row: both field and value are required. */
export const fieldValueSchema = z.object({
  field: rowText(WEBHOOK_MESSAGES.field, 200),
  value: rowText(WEBHOOK_MESSAGES.value, 4000),
});
export type FieldValueRow = z.infer<typeof fieldValueSchema>;
export type HeaderRow = z.infer<typeof webhookHeaderSchema>;

const upper = (v: unknown) => (typeof v === 'string' ? v.trim().toUpperCase() : v);
const lower = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : v);

const method = z.preprocess(upper, z.enum(WEBHOOK_METHODS, { error: 'Method must be POST or PUT' }));
const contentType = (label: string) =>
  z.preprocess(lower, z.enum(CONTENT_TYPES, { error: `${label} must be json, xml or form` }));

/** Status as a word (`live`, `paused`) or the flags `{ live, draft, pause }` with one set. */
const statusInput = z.preprocess(
  (v) => {
    if (typeof v === 'string') {
      const word = v.trim().toLowerCase();
      return word === 'paused' ? 'pause' : word;
    }
    if (v && typeof v === 'object') {
      const flags = v as Record<string, unknown>;
      const set = WEBHOOK_STATUSES.filter((s) => flags[s] === true);
      return set.length === 1 ? set[0] : 'invalid';
    }
    return v;
  },
  z.enum(WEBHOOK_STATUSES, { error: 'Status must be Live, Draft or Paused' }),
);

/** A nullable optional text: null or '' clears it. */
const clearable = (max: number) => z.preprocess((v) => (v === null ? undefined : v), optionalText(max));

const pingUrl = httpUrl('Ping URL', WEBHOOK_MESSAGES.pingUrl, WEBHOOK_MESSAGES.pingUrlInvalid);

/** Why a ping's mapping may not send this lead field, or null when it may. */
export function pingFieldProblem(field: string): string | null {
  const name = field.trim();
  if ((CONTACT_FIELDS as readonly string[]).includes(name)) return contactInPingMessage(name);
  // A service's field: the server checks it is a non-personal ping field of some service (pingServiceFieldProblem).
  if (name.startsWith(SERVICE_FIELD_MAP_PREFIX) && SERVICE_FIELD_KEY.test(name.slice(SERVICE_FIELD_MAP_PREFIX.length)))
    return null;
  return PING_FIELD_NAMES.includes(name) ? null : WEBHOOK_MESSAGES.pingField;
}

/**
 * Why a ping may not send the service field `key`, given every service's definitions; null when some
 * service sends it at the ping and not as personal data (a ping of another service's lead leaves it out).
 */
export function pingServiceFieldProblem(
  key: string,
  services: Iterable<readonly Pick<ServiceField, 'key' | 'stage' | 'personal' | 'removed'>[]>,
): string | null {
  const found = [...services].flatMap((fields) => fields.filter((f) => f.key === key && !f.removed));
  if (found.length === 0) return PING_SERVICE_FIELD_MESSAGES.unknown(key);
  if (found.some((f) => f.stage === 'ping' && !f.personal)) return null;
  return found.some((f) => f.personal)
    ? PING_SERVICE_FIELD_MESSAGES.personal(key)
    : PING_SERVICE_FIELD_MESSAGES.postOnly(key);
}

/** A ping mapping row: a lead field a ping may send, under the buyer's name for it. */
const pingMapRow = fieldValueSchema.superRefine((row, ctx) => {
  const problem = pingFieldProblem(row.field);
  if (problem) ctx.addIssue({ code: 'custom', path: ['field'], message: problem });
});

const pingTimeout = z.preprocess(
  (v) => (isBlank(v) ? undefined : numericText(v)),
  z
    .number({ error: WEBHOOK_MESSAGES.pingTimeout })
    .int(WEBHOOK_MESSAGES.pingTimeout)
    .min(PING_TIMEOUT_MS.min, WEBHOOK_MESSAGES.pingTimeout)
    .max(PING_TIMEOUT_MS.max, WEBHOOK_MESSAGES.pingTimeout)
    .default(PING_TIMEOUT_MS.default),
);

/**
 * The ping of a Ping/Post delivery (DESIGN.md §6): where and how the buyer's system is asked for a
 * bid, with the lead's non-personal fields only, and where its answer holds the price and the
 * buyer's own id of the bid. The delivery's key and secret are sent with the ping as with the post.
 */
export const webhookPingSchema = z.object({
  url: pingUrl,
  method: method.default('POST'),
  headers: z.array(headerRow('Ping header')).max(50, 'At most 50 headers').default([]),
  send_content_type: contentType('Ping send content type').default('json'),
  return_content_type: contentType('Ping return content type').default('json'),
  wrap_key: z.preprocess((v) => (v === null ? undefined : v), optionalText(200)),
  map: z.array(pingMapRow).max(50, 'At most 50 mapping rows').default([]),
  static: z.array(fieldValueSchema).max(200, 'At most 200 hardcoded values').default([]),
  accept: z.array(fieldValueSchema).max(50, 'At most 50 accept rules').default([]),
  price_field: rowText(WEBHOOK_MESSAGES.priceField, 200),
  ping_id_field: z.preprocess((v) => (v === null ? undefined : v), optionalText(200)),
  timeout_ms: pingTimeout,
});
export type WebhookPingInput = z.input<typeof webhookPingSchema>;

/** `no_ping` (Direct) or `ping_post` (Ping/Post), in any case. */
const deliveryType = z.preprocess(lower, z.enum(DELIVERY_TYPES, { error: WEBHOOK_MESSAGES.type }));

const webhookFields = {
  name: requiredText(WEBHOOK_MESSAGES.name, 200),
  buyer: z.preprocess((v) => (v === null ? undefined : v), requiredText(WEBHOOK_MESSAGES.buyer, 100)),
  url,
  method,
  headers: z.array(webhookHeaderSchema).max(50, 'At most 50 headers'),
  accept: z.array(fieldValueSchema).max(50, 'At most 50 accept rules'),
  key: clearable(2000),
  keyname: clearable(200),
  secret: clearable(2000),
  secretname: clearable(200),
  return_id: clearable(200),
  reason_field: clearable(200),
  retry: z.array(fieldValueSchema).max(50, 'At most 50 retry rules'),
  send_content_type: contentType('Send content type'),
  return_content_type: contentType('Return content type'),
  wrap_key: clearable(200),
  status: statusInput,
  map: z.array(fieldValueSchema).max(200, 'At most 200 mapping rows'),
  static: z.array(fieldValueSchema).max(200, 'At most 200 hardcoded values'),
  tags: tagList,
  ping_id: z.preprocess((v) => (isBlank(v) ? undefined : v), deliveryType.default(DIRECT_DELIVERY)),
  /** The ping of a Ping/Post delivery; a Direct delivery has none (null clears it). */
  ping: z.preprocess((v) => (v === null ? undefined : v), webhookPingSchema.optional()),
};

/** A Ping/Post delivery must have its ping. */
const pingOfPingPost = (v: { ping_id?: string; ping?: unknown }, ctx: z.RefinementCtx) => {
  if (v.ping_id === PING_POST_DELIVERY && v.ping === undefined)
    ctx.addIssue({ code: 'custom', path: ['ping'], message: WEBHOOK_MESSAGES.ping });
};

/**
 * POST /api/webhook: the delivery without `_id`, `id`, `ts` (dropped if sent). A buyer creates for
 * itself (`buyer` may be left out); the admin names the buyer. A new delivery defaults to draft.
 */
export const webhookCreateSchema = z
  .object({
    ...webhookFields,
    buyer: webhookFields.buyer.optional(),
    method: method.default('POST'),
    headers: webhookFields.headers.default([]),
    accept: webhookFields.accept.default([]),
    retry: webhookFields.retry.default([]),
    send_content_type: webhookFields.send_content_type.default('json'),
    return_content_type: webhookFields.return_content_type.default('json'),
    status: statusInput.default('draft'),
    map: webhookFields.map.default([]),
    static: webhookFields.static.default([]),
    tags: tagList.default([]),
  })
  .superRefine(pingOfPingPost);
export type WebhookCreate = z.infer<typeof webhookCreateSchema>;

/** PUT /api/webhook/{id}: only the changed fields, list fields whole; the buyer cannot change. */
export const webhookUpdateSchema = z
  .object({
    ...webhookFields,
    ping_id: deliveryType,
    /** null removes the ping (the delivery must then be Direct). */
    ping: webhookPingSchema.nullable(),
    buyer: z.never({ error: 'Buyer cannot be changed' }),
  })
  .partial();
export type WebhookUpdate = z.infer<typeof webhookUpdateSchema>;

export const WEBHOOK_SORTS = ['name', 'buyer_name', 'status', 'ts'] as const;

/** GET /api/webhook: page size 25; filters name, buyer name and tag (and buyer id). */
export const webhookListQuery = pageQuery(PAGE_SIZE.deliveries).extend({
  name: z.string().trim().max(200).optional(),
  buyer_name: z.string().trim().max(200).optional(),
  buyer: z.string().trim().max(100).optional(),
  tag: z.string().trim().max(100).optional(),
  sort: z.enum(WEBHOOK_SORTS).optional(),
});
export type WebhookListQuery = z.infer<typeof webhookListQuery>;

/** GET /api/webhook/{id}/{action}: copy is the one the screens use. */
export const WEBHOOK_ACTIONS = ['copy'] as const;

/** POST /api/webhook/{id}/test: one value per mapped field, named `test_` plus the field. */
export const webhookTestSchema = z
  .record(
    z.string().max(220),
    z.union([z.string().max(4000), z.number(), z.boolean(), z.null()], {
      error: 'Test values must be text',
    }),
  )
  .refine((body) => Object.keys(body).length <= 250, 'Too many test values')
  .default({});
export type WebhookTestInput = z.infer<typeof webhookTestSchema>;

// ---------------------------------------------------------------------------------------------
// API answers

/** A row as the API answers it: an accept, map or static row, a header row. */
const fieldValueAnswer = z.object({ field: z.string(), value: z.string() });
const headerAnswer = z.object({ header: z.string(), value: z.string() });

export const webhookStatusFlagsSchema = z.record(z.enum(WEBHOOK_STATUSES), z.boolean());
export type WebhookStatusFlags = z.infer<typeof webhookStatusFlagsSchema>;

/** How a delivery calls the buyer's system and reads its answer (admin §3 Delivery). */
export const webhookRequestSchema = z.object({
  url: z.string(),
  method: z.enum(WEBHOOK_METHODS),
  headers: z.array(headerAnswer),
  accept: z.array(fieldValueAnswer),
  key: z.string().optional(),
  keyname: z.string().optional(),
  secret: z.string().optional(),
  secretname: z.string().optional(),
  return_id: z.string().optional(),
  /**
   * The answer's field (dotted path; an XML answer's root may be left out) holding the buyer's reason
   * for not accepting a lead, e.g. `reason`: shown on the lead's explanation and deliveries.
   */
  reason_field: z.string().optional(),
  /**
   * The "try again" answer: when every rule holds (e.g. `outcome` = `error`, LeadConduit's), a Not
   * Accepted answer is retried with the delivery's backoff instead of refusing the lead. None: never.
   */
  retry: z.array(fieldValueAnswer),
  send_content_type: z.enum(CONTENT_TYPES),
  return_content_type: z.enum(CONTENT_TYPES),
  wrap_key: z.string().optional(),
});
export type WebhookRequest = z.infer<typeof webhookRequestSchema>;

/**
 * The ping of a Ping/Post delivery as the API answers it (see `webhookPingSchema`): how the buyer's
 * system is asked for a bid, and where its answer holds the price (dollars) and the buyer's own id
 * of the bid (echoed in the post as the `buyer_ping_id` field).
 */
export const webhookPingAnswerSchema = webhookRequestSchema
  .pick({ url: true, method: true, headers: true, send_content_type: true, return_content_type: true, wrap_key: true })
  .extend({
    /** Lead fields (PING_FIELD_NAMES only) under the buyer's names. */
    map: z.array(fieldValueAnswer),
    static: z.array(fieldValueAnswer),
    /** All must hold for the answer to be a bid; none: any 2xx answer with a price is one. */
    accept: z.array(fieldValueAnswer),
    /** The answer's field (dotted path) holding the bid in dollars, e.g. `bid` or `result.price`. */
    price_field: z.string(),
    /** The answer's field holding the buyer's id of the bid, if it sends one. */
    ping_id_field: z.string().optional(),
    /** 1 to 3,000; 1,000 unless set. */
    timeout_ms: z.number(),
  });
export type WebhookPing = z.infer<typeof webhookPingAnswerSchema>;

/** A custom delivery as the API answers it (admin §3 Delivery). */
export const webhookSchema = webhookRequestSchema.extend({
  _id: z.string(),
  buyer: z.string(),
  buyer_name: z.string(),
  name: z.string(),
  status: webhookStatusFlagsSchema,
  map: z.array(fieldValueAnswer),
  static: z.array(fieldValueAnswer),
  tags: z.array(z.string()),
  /** `no_ping`: Direct; otherwise Ping/Post (`ping_post`). */
  ping_id: z.string(),
  /** Ping/Post only: the ping that asks the buyer's system for a bid. */
  ping: webhookPingAnswerSchema.optional(),
  ts: z.number(),
  /** `ts` as an ISO date-time. */
  tsdate: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** A delivery not saved yet: the template (GET /api/webhook/new) or a copy (GET /api/webhook/{id}/copy). */
export const webhookDraftSchema = webhookSchema
  .omit({ _id: true, ts: true, tsdate: true, buyer: true, buyer_name: true })
  .extend({ buyer: z.string().optional(), buyer_name: z.string().optional() });
export type WebhookDraft = z.infer<typeof webhookDraftSchema>;

/** GET /api/webhook/new: a blank delivery whose map lists every template field, and the field list. */
export const webhookTemplateSchema = webhookDraftSchema.extend({
  fields: z.array(z.object({ field: z.string(), sample: z.string() })),
  /** The fields a ping's mapping may send: PING_FIELD_NAMES, then the services' non-personal ping fields. */
  ping_fields: z.array(z.string()),
});
export type WebhookTemplate = z.infer<typeof webhookTemplateSchema>;

/** A new delivery (GET /api/webhook/new): a direct draft in JSON both ways, mapping every template field to nothing yet. */
export function newWebhookDraft(): WebhookDraft {
  return {
    name: '',
    url: '',
    method: 'POST',
    headers: [],
    accept: [],
    retry: [],
    send_content_type: 'json',
    return_content_type: 'json',
    status: webhookStatusFlags('draft'),
    map: DELIVERY_FIELDS.map(({ field }) => ({ field, value: '' })),
    static: [],
    tags: [],
    ping_id: DIRECT_DELIVERY,
  };
}

/** A row of GET /api/webhook. */
export const webhookListItemSchema = webhookSchema.pick({
  _id: true,
  buyer: true,
  buyer_name: true,
  name: true,
  url: true,
  method: true,
  tags: true,
  status: true,
  ts: true,
});
export type WebhookListItem = z.infer<typeof webhookListItemSchema>;

/** How a buyer's system answered a ping (DESIGN.md §6), as the sale, the Test call and the lead detail name it. */
export const BID_OUTCOME_LABELS = {
  bid: 'Bid',
  no_bid: 'No bid',
  timeout: 'Timeout',
  error: 'Error',
  refused_post: 'Refused post',
};
export const BID_OUTCOMES = valuesOf(BID_OUTCOME_LABELS);
export type BidOutcome = (typeof BID_OUTCOMES)[number];
/** How a buyer's system answered a ping: any outcome but the post's refusal. */
export const pingOutcomeSchema = z.enum(BID_OUTCOMES).exclude(['refused_post']);

/** What a ping's answer is read as (DESIGN.md §6), wherever a ping is shown: the Test call, the lead detail. */
export const pingAnswerFields = {
  outcome: pingOutcomeSchema,
  /** The bid in dollars, when there is one. */
  bid: z.number().optional(),
  /** The buyer's id of its bid (`ping_id_field`), echoed in the post as `buyer_ping_id`. */
  buyer_ping_id: z.string().optional(),
};

const testCall = z.object({
  /** The HTTP status the buyer's system answered; 0 when no answer came (network, timeout, refused). */
  status: z.number(),
  accept: z.boolean(),
  url: z.string(),
  reqHeaders: z.record(z.string(), z.string()),
  reqBody: z.string(),
  /** The response body: parsed (json, xml or form, as the return content type says) or as text; kept whole. */
  data: z.unknown(),
  /** The response body as it came (at most 256 KB). */
  body: z.string(),
  /** Why no answer came. */
  error: z.string().optional(),
  durationMs: z.number(),
});

/** The test ping of a Ping/Post delivery's Test call: the call as for the post, and the bid read from it. */
export const webhookPingTestResultSchema = testCall.extend({
  /** Whether the answer is a bid: accepted by the rules, with a positive price. */
  accept: z.boolean(),
  ...pingAnswerFields,
  /** Why the answer is not a bid, in words. */
  reason: z.string().optional(),
});
export type WebhookPingTestResult = z.infer<typeof webhookPingTestResultSchema>;

/** The answer of POST /api/webhook/{id}/test (admin §7). */
export const webhookTestResultSchema = testCall.extend({
  /** The buyer's id of the lead, read from the `return_id` field of the response. */
  returnId: z.string().optional(),
  /** The buyer's reason for not accepting, read from the `reason_field` of the response. */
  reason: z.string().optional(),
  /** The answer is Not Accepted but holds the retry rules: a real delivery would be tried again. */
  retry: z.boolean().optional(),
  /** Ping/Post: the test ping, sent before the test post (which echoes its `buyer_ping_id`). */
  ping: webhookPingTestResultSchema.optional(),
});
export type WebhookTestResult = z.infer<typeof webhookTestResultSchema>;

/** The Test modal's badge (admin §8, portals §8): Error at status 400 or higher (or no answer). */
export function testOutcome(result: Pick<WebhookTestResult, 'status' | 'accept' | 'error'>) {
  if (result.error || result.status >= 400 || result.status === 0) return 'Error' as const;
  return result.accept ? ('Accepted' as const) : ('Not Accepted' as const);
}

export const webhookStatusFlags = (status: WebhookStatusValue): WebhookStatusFlags => statusFlags(status);

// ---------------------------------------------------------------------------------------------
// The Delivery form (web) and its payload rules

/** A mapping row in the form; `template` marks the rows the template filled in. */
export interface MapFormRow extends FieldValueRow {
  template?: boolean;
}

/** The Delivery form as its inputs hold it ('' for empty). */
export interface WebhookFormValues {
  name: string;
  buyer: string;
  url: string;
  method: WebhookMethod;
  headers: HeaderRow[];
  accept: FieldValueRow[];
  retry: FieldValueRow[];
  reason_field: string;
  key: string;
  keyname: string;
  secret: string;
  secretname: string;
  return_id: string;
  send_content_type: ContentType;
  return_content_type: ContentType;
  wrap_key: string;
  status: WebhookStatusValue;
  map: MapFormRow[];
  static: FieldValueRow[];
  tags: string[];
}

const statusOf = (flags: Partial<WebhookStatusFlags> | undefined): WebhookStatusValue =>
  flags?.live ? 'live' : flags?.pause ? 'pause' : 'draft';

/**
 * A delivery (or a template or copy) as form values. The template's map rows, every field with an
 * empty value, are marked: left without a value, they map nothing and are not sent.
 */
export function webhookFormValues(
  d: WebhookDraft | Webhook,
  options: { buyer?: string; fromTemplate?: boolean } = {},
): WebhookFormValues {
  return {
    name: d.name,
    buyer: d.buyer ?? options.buyer ?? '',
    url: d.url,
    method: d.method,
    headers: d.headers.map((h) => ({ header: h.header, value: h.value })),
    accept: d.accept.map((r) => ({ field: r.field, value: r.value })),
    retry: (d.retry ?? []).map((r) => ({ field: r.field, value: r.value })),
    reason_field: d.reason_field ?? '',
    key: d.key ?? '',
    keyname: d.keyname ?? '',
    secret: d.secret ?? '',
    secretname: d.secretname ?? '',
    return_id: d.return_id ?? '',
    send_content_type: d.send_content_type,
    return_content_type: d.return_content_type,
    wrap_key: d.wrap_key ?? '',
    status: statusOf(d.status),
    map: d.map.map((r) =>
      options.fromTemplate && isBlank(r.value)
        ? { field: r.field, value: '', template: true }
        : { field: r.field, value: r.value },
    ),
    static: d.static.map((r) => ({ field: r.field, value: r.value })),
    tags: d.tags,
  };
}

/** A template row still without a value: it maps nothing, so it is neither checked nor sent. */
const unusedTemplateRow = (row: Partial<MapFormRow>) => row.template === true && isBlank(row.value);

/**
 * The Delivery form's schema: the API's rules and messages, where a template mapping row left
 * without a value is skipped (admin §5: on a new delivery the map is emptied if no row has a value).
 */
export const webhookFormSchema = z
  .object({
    name: webhookFields.name,
    buyer: webhookFields.buyer,
    url: webhookFields.url,
    method: webhookFields.method,
    headers: webhookFields.headers,
    accept: webhookFields.accept,
    retry: webhookFields.retry,
    reason_field: webhookFields.reason_field,
    key: webhookFields.key,
    keyname: webhookFields.keyname,
    secret: webhookFields.secret,
    secretname: webhookFields.secretname,
    return_id: webhookFields.return_id,
    send_content_type: webhookFields.send_content_type,
    return_content_type: webhookFields.return_content_type,
    wrap_key: webhookFields.wrap_key,
    status: webhookFields.status,
    map: z.array(z.unknown()),
    static: webhookFields.static,
    tags: tagList,
  })
  .superRefine((v, ctx) => {
    v.map.forEach((raw, index) => {
      const row = (raw ?? {}) as Partial<MapFormRow>;
      if (unusedTemplateRow(row)) return;
      const parsed = fieldValueSchema.safeParse(row);
      if (!parsed.success)
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: 'custom', path: ['map', index, ...issue.path.map(String)], message: issue.message });
    });
  });

/** What POST /api/webhook takes, as built from the form. */
export interface WebhookPayload extends WebhookRequest {
  name: string;
  buyer?: string;
  status: WebhookStatusValue;
  map: FieldValueRow[];
  static: FieldValueRow[];
  tags: string[];
}

const OPTIONAL_TEXTS = ['key', 'keyname', 'secret', 'secretname', 'return_id', 'reason_field', 'wrap_key'] as const;

const trimRows = <T extends Record<string, string>>(rows: T[]): T[] =>
  rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v).trim()])) as T);

/**
 * The form's values as the API takes them: trimmed, empty optional texts dropped, list rows without
 * client keys, and the template's unused mapping rows dropped (so a new delivery whose map has no
 * value sends an empty map).
 */
export function toWebhookPayload(v: WebhookFormValues): WebhookPayload {
  const payload: WebhookPayload = {
    name: v.name.trim(),
    ...(v.buyer ? { buyer: v.buyer } : {}),
    url: v.url.trim(),
    method: v.method,
    headers: trimRows(v.headers.map((h) => ({ header: h.header, value: h.value }))),
    accept: trimRows(v.accept.map((r) => ({ field: r.field, value: r.value }))),
    retry: trimRows(v.retry.map((r) => ({ field: r.field, value: r.value }))),
    send_content_type: v.send_content_type,
    return_content_type: v.return_content_type,
    status: v.status,
    map: trimRows(v.map.filter((row) => !unusedTemplateRow(row)).map((r) => ({ field: r.field, value: r.value }))),
    static: trimRows(v.static.map((r) => ({ field: r.field, value: r.value }))),
    tags: v.tags,
  };
  for (const key of OPTIONAL_TEXTS) {
    const text = v[key].trim();
    if (text) payload[key] = text;
  }
  return payload;
}

/**
 * The PUT body for an edit: the payload fields that differ from the record's (lists whole), and a
 * cleared optional text as '' (which the API reads as "remove it").
 */
export function webhookChanges(before: WebhookFormValues, after: WebhookFormValues): Partial<WebhookPayload> {
  const old = toWebhookPayload(before) as unknown as Record<string, unknown>;
  const next = toWebhookPayload(after) as unknown as Record<string, unknown>;
  const changes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(next)) {
    if (key === 'buyer') continue;
    if (JSON.stringify(old[key]) !== JSON.stringify(value)) changes[key] = value;
  }
  for (const key of OPTIONAL_TEXTS) if (old[key] !== undefined && next[key] === undefined) changes[key] = '';
  return changes as Partial<WebhookPayload>;
}

/** The Test modal's inputs: each mapped field with a non-empty value, once, in mapping order. */
export function testFields(map: readonly FieldValueRow[]): string[] {
  const fields: string[] = [];
  for (const row of map) {
    const field = row.field.trim();
    if (field && !isBlank(row.value) && !fields.includes(field)) fields.push(field);
  }
  return fields;
}

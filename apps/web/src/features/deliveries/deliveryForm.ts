import {
  type ContentType,
  DELIVERY_TYPES,
  type DeliveryType,
  DIRECT_DELIVERY,
  type FieldValueRow,
  type HeaderRow,
  isPingPost,
  type MapFormRow,
  PING_FIELD_NAMES,
  PING_POST_DELIVERY,
  PING_TIMEOUT_MS,
  toWebhookPayload,
  type Webhook,
  type WebhookDraft,
  type WebhookFormValues,
  type WebhookMethod,
  type WebhookPayload,
  type WebhookPing,
  type WebhookPingInput,
  webhookChanges,
  webhookFormSchema,
  webhookFormValues,
  webhookPingSchema,
} from '@leadex/domain';
import { z } from 'zod';
import { isEqual } from '../../lib/forms';

// The Delivery form with its type and, for a Ping/Post delivery, its ping (DESIGN.md §6). The domain's
// form helpers cover the post (the delivery as the specs have it); this adds the ping on top of them.

/** The ping as its inputs hold it ('' for empty; the timeout as the number input holds it). */
export interface PingFormValues {
  url: string;
  method: WebhookMethod;
  send_content_type: ContentType;
  return_content_type: ContentType;
  wrap_key: string;
  headers: HeaderRow[];
  /** Lead fields (PING_FIELD_NAMES) under the buyer's names; template rows left without a name are not sent. */
  map: MapFormRow[];
  static: FieldValueRow[];
  accept: FieldValueRow[];
  price_field: string;
  ping_id_field: string;
  timeout_ms: number | string;
}

export interface DeliveryFormValues extends WebhookFormValues {
  ping_id: DeliveryType;
  /** Always held (blank for a Direct delivery), so switching the type shows a ready ping to fill. */
  ping: PingFormValues;
}

/** What POST /api/webhook and PUT /api/webhook/{id} take, the type and the ping included. */
export interface DeliveryPayload extends WebhookPayload {
  ping_id: DeliveryType;
  ping?: WebhookPingInput;
}

export const DELIVERY_TYPE_LABELS: Record<DeliveryType, string> = {
  [DIRECT_DELIVERY]: 'Direct',
  [PING_POST_DELIVERY]: 'Ping/Post',
};

/** A ping not set yet: POST, json both ways, the default timeout, and every ping field offered unmapped. */
export function blankPing(): PingFormValues {
  return {
    url: '',
    method: 'POST',
    send_content_type: 'json',
    return_content_type: 'json',
    wrap_key: '',
    headers: [],
    map: PING_FIELD_NAMES.map((field) => ({ field, value: '', template: true })),
    static: [],
    accept: [],
    price_field: '',
    ping_id_field: '',
    timeout_ms: PING_TIMEOUT_MS.default,
  };
}

function pingFormValues(ping: WebhookPing | undefined): PingFormValues {
  if (!ping) return blankPing();
  return {
    url: ping.url,
    method: ping.method,
    send_content_type: ping.send_content_type,
    return_content_type: ping.return_content_type,
    wrap_key: ping.wrap_key ?? '',
    headers: ping.headers.map((h) => ({ header: h.header, value: h.value })),
    map: ping.map.map((r) => ({ field: r.field, value: r.value })),
    static: ping.static.map((r) => ({ field: r.field, value: r.value })),
    accept: ping.accept.map((r) => ({ field: r.field, value: r.value })),
    price_field: ping.price_field,
    ping_id_field: ping.ping_id_field ?? '',
    timeout_ms: ping.timeout_ms,
  };
}

/** A delivery (or a template or copy) as form values; the spec reads any `ping_id` but no_ping as Ping/Post. */
export function deliveryFormValues(
  d: WebhookDraft | Webhook,
  options: Parameters<typeof webhookFormValues>[1] = {},
): DeliveryFormValues {
  return {
    ...webhookFormValues(d, options),
    ping_id: isPingPost(d.ping_id) ? PING_POST_DELIVERY : DIRECT_DELIVERY,
    ping: pingFormValues(d.ping),
  };
}

/** A stored record as form values (a module-level function, so the form's values stay stable). */
export const recordFormValues = (record: Webhook) => deliveryFormValues(record);

const isBlank = (value: unknown) => value === undefined || value === null || String(value).trim() === '';
const unusedTemplateRow = (row: Partial<MapFormRow>) => row.template === true && isBlank(row.value);
const trimmed = <T extends Record<string, string>>(rows: T[]): T[] =>
  rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v ?? '').trim()])) as T);

/**
 * The ping as the API takes it: trimmed, empty optional texts dropped, the template's unused mapping
 * rows dropped, a blank timeout left to the default. `kept` maps each sent mapping row to its row in
 * the form, so a message on a sent row lands on the input it came from.
 */
function pingPayload(p: PingFormValues): { ping: WebhookPingInput; kept: number[] } {
  const kept = p.map.flatMap((row, index) => (unusedTemplateRow(row) ? [] : [index]));
  const ping: WebhookPingInput = {
    url: p.url.trim(),
    method: p.method,
    send_content_type: p.send_content_type,
    return_content_type: p.return_content_type,
    headers: trimmed(p.headers.map(({ header, value }) => ({ header, value }))),
    map: trimmed(kept.map((index) => p.map[index] as MapFormRow).map(({ field, value }) => ({ field, value }))),
    static: trimmed(p.static.map(({ field, value }) => ({ field, value }))),
    accept: trimmed(p.accept.map(({ field, value }) => ({ field, value }))),
    price_field: p.price_field.trim(),
  };
  if (p.wrap_key.trim()) ping.wrap_key = p.wrap_key.trim();
  if (p.ping_id_field.trim()) ping.ping_id_field = p.ping_id_field.trim();
  if (!isBlank(p.timeout_ms)) ping.timeout_ms = typeof p.timeout_ms === 'number' ? p.timeout_ms : p.timeout_ms.trim();
  return { ping, kept };
}

/**
 * The form's schema: the domain's Delivery form (the post), and for a Ping/Post delivery the ping
 * checked by the API's own ping schema, its messages on the ping's inputs (`ping.url`, `ping.map.2.field`).
 */
export const deliveryFormSchema = z.intersection(
  webhookFormSchema,
  z.object({ ping_id: z.enum(DELIVERY_TYPES), ping: z.unknown() }).superRefine((v, ctx) => {
    if (v.ping_id !== PING_POST_DELIVERY) return;
    const { ping, kept } = pingPayload(v.ping as PingFormValues);
    const parsed = webhookPingSchema.safeParse(ping);
    if (parsed.success) return;
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String);
      if (path[0] === 'map' && path[1] !== undefined) path[1] = String(kept[Number(path[1])] ?? path[1]);
      ctx.addIssue({ code: 'custom', path: ['ping', ...path], message: issue.message });
    }
  }),
);

/** The form's values as POST /api/webhook takes them: a Direct delivery sends no ping. */
export function toDeliveryPayload(v: DeliveryFormValues): DeliveryPayload {
  return {
    ...toWebhookPayload(v),
    ping_id: v.ping_id,
    ...(v.ping_id === PING_POST_DELIVERY ? { ping: pingPayload(v.ping).ping } : {}),
  };
}

/**
 * The PUT body for an edit: the post's changes as the domain computes them, the type when it changed,
 * and the ping whole when it changed on a Ping/Post delivery (one switched to Direct drops its ping on
 * the server, so only the type is sent).
 */
export function deliveryChanges(before: DeliveryFormValues, after: DeliveryFormValues): Partial<DeliveryPayload> {
  const changes: Partial<DeliveryPayload> = webhookChanges(before, after);
  if (before.ping_id !== after.ping_id) changes.ping_id = after.ping_id;
  if (after.ping_id === PING_POST_DELIVERY) {
    const next = pingPayload(after.ping).ping;
    if (before.ping_id !== after.ping_id || !isEqual(pingPayload(before.ping).ping, next)) changes.ping = next;
  }
  return changes;
}

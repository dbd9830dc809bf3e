import {
  type ContentType,
  DELIVERY_FIELDS,
  isPingPost,
  newWebhookDraft,
  PING_FIELD_NAMES,
  type ServiceField,
  type Webhook,
  type WebhookDraft,
  type WebhookListItem,
  type WebhookMethod,
  type WebhookStatusValue,
  type WebhookTemplate,
  webhookStatusFlags,
} from '@leadex/domain';
import { toEpochSeconds } from '../../../lib/clock';
import { orUndefined } from '../../../lib/dto';
import { pingDeliveryFields, serviceDeliveryFields } from './render';
import type { WebhookRow } from './webhooks.repo';

const asStatus = (value: string): WebhookStatusValue => (value === 'live' || value === 'pause' ? value : 'draft');
const asMethod = (value: string): WebhookMethod => (value === 'PUT' ? 'PUT' : 'POST');
const asContentType = (value: string): ContentType => (value === 'xml' || value === 'form' ? value : 'json');

/** What a delivery's list row and its whole record start with. */
const heading = (row: WebhookRow) => ({
  _id: row.id,
  buyer: row.buyerId,
  buyer_name: row.buyerName,
  name: row.name,
  url: row.url,
  method: asMethod(row.method),
});

/** A custom delivery as the API answers it: `_id`, `ts` in epoch seconds, status as flags. */
export function toWebhook(row: WebhookRow): Webhook {
  return {
    ...heading(row),
    headers: row.headers,
    accept: row.accept,
    key: orUndefined(row.key),
    keyname: orUndefined(row.keyName),
    secret: orUndefined(row.secret),
    secretname: orUndefined(row.secretName),
    return_id: orUndefined(row.returnId),
    reason_field: orUndefined(row.reasonField),
    retry: row.retry,
    send_content_type: asContentType(row.sendContentType),
    return_content_type: asContentType(row.returnContentType),
    wrap_key: orUndefined(row.wrapKey),
    status: webhookStatusFlags(asStatus(row.status)),
    map: row.map,
    static: row.static,
    tags: row.tags,
    ping_id: row.pingId,
    ...(isPingPost(row.pingId) && row.ping ? { ping: row.ping } : {}),
    ts: toEpochSeconds(row.createdAt),
    tsdate: row.createdAt.toISOString(),
  };
}

export function toWebhookListItem(row: WebhookRow): WebhookListItem {
  return {
    ...heading(row),
    tags: row.tags,
    status: webhookStatusFlags(asStatus(row.status)),
    ts: toEpochSeconds(row.createdAt),
  };
}

/**
 * GET /api/webhook/new: a draft whose map lists every template field with an empty value; the field
 * list adds the services' own fields (`fields.<key>`, issue 33) with their samples.
 */
export function webhookTemplate(services: Iterable<readonly ServiceField[]> = []): WebhookTemplate {
  const definitions = [...services];
  return {
    ...newWebhookDraft(),
    fields: [
      ...DELIVERY_FIELDS.map(({ field, sample }) => ({ field, sample })),
      ...serviceDeliveryFields(definitions).map(({ field, sample }) => ({ field, sample })),
    ],
    ping_fields: [...PING_FIELD_NAMES, ...pingDeliveryFields(definitions)],
  };
}

/** GET /api/webhook/{id}/copy: the delivery as a new, unsaved draft named '… (copy)'. */
export function toCopy(row: WebhookRow): WebhookDraft {
  const { _id: _unsaved, ts: _ts, tsdate: _tsdate, ...rest } = toWebhook(row);
  return { ...rest, name: `${row.name} (copy)`, status: webhookStatusFlags('draft') };
}

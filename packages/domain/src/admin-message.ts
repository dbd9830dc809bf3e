import { z } from 'zod';
import { pageQuery, requiredText } from './common';
import { PAGE_SIZE } from './constants';

/** How many days of messages the Messages screen shows (admin spec §9: message history 5 days). */
export const MESSAGE_HISTORY_DAYS = 5;

/**
 * An admin message (admin spec §3 Message): an event of the exchange that wants a person (a return
 * waiting for a decision, an undelivered match, a failed payment...). `data` holds the ids of what it
 * is about and, when there is one, the screen that shows it (`link`, a path of this app).
 */
export const adminMessageSchema = z.object({
  _id: z.string(),
  text: z.string(),
  /** The ids of what it is about and the screen that shows it: open-ended, kept whole. */
  data: z.unknown().optional(),
  hidden: z.boolean(),
  /** Epoch seconds. */
  ts: z.number(),
});
export type AdminMessage = z.infer<typeof adminMessageSchema>;

/** GET /api/message/admin: 15 a page, of the last `days` days. */
export const messageListQuery = pageQuery(PAGE_SIZE.messages).extend({
  days: z.coerce.number().int().min(1).max(366).default(MESSAGE_HISTORY_DAYS),
});

/** PUT /api/message/admin/{id}. */
export const messageHideSchema = z.object({ hide: z.boolean() });

/** PUT /api/message/admin: hides several messages at once (the Messages screen's selection). */
export const messageHideManySchema = z.object({
  ids: z
    .array(z.string({ error: 'Messages must be a list of message ids' }).trim().min(1).max(100), {
      error: 'Messages must be a list of message ids',
    })
    .min(1, 'Choose at least one message')
    .max(100, 'At most 100 messages at once'),
  hide: z.boolean({ error: 'Hide must be true or false' }),
});
export type MessageHideMany = z.infer<typeof messageHideManySchema>;

/** The app path a message's data links to, if it names one (only paths of this app, never a URL). */
export function messageLink(data: unknown): string | undefined {
  const link = (data as { link?: unknown } | null | undefined)?.link;
  return typeof link === 'string' && /^\/(?!\/)/.test(link) ? link : undefined;
}

/** The buyer portal's Message Us form (portals spec §3 Buyer message, §5): the text, required. */
export const BUYER_MESSAGE_REQUIRED = 'Message is required';
/** The longest message a buyer may send: a note to the provider, not a document. */
export const BUYER_MESSAGE_MAX = 2000;

/** POST /api/buyer/{id}/message. */
export const buyerMessageSchema = z.object({ message: requiredText(BUYER_MESSAGE_REQUIRED, BUYER_MESSAGE_MAX) });
export type BuyerMessage = z.infer<typeof buyerMessageSchema>;

/** POST /api/buyer/{id}/message: the buyer's Message Us, as it was recorded. */
export const sentBuyerMessageSchema = z.object({
  _id: z.string(),
  message: z.string(),
  /** Epoch seconds. */
  ts: z.number(),
});
export type SentBuyerMessage = z.infer<typeof sentBuyerMessageSchema>;

/** PUT /api/message/admin: how many messages the selection hid or showed. */
export const messageHideManyAnswerSchema = z.object({ ok: z.literal(true), count: z.number() });
export type MessageHideManyAnswer = z.infer<typeof messageHideManyAnswerSchema>;

/** A row of GET /api/outbox: a mail or SMS the exchange kept (no provider, or not whitelisted). */
export const outboxMessageSchema = z.object({
  _id: z.string(),
  channel: z.string(),
  to: z.string(),
  subject: z.string().nullable(),
  text: z.string(),
  status: z.string(),
  error: z.string().optional(),
  /** Epoch seconds. */
  ts: z.number(),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

import type { Config } from '../../../config';
import type { NotifyConfig } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import { newId } from '../../../lib/ids';
import { OutboundError, type OutboundNetwork } from '../../../lib/outbound-http';
import type { Mailer } from '../outbox/mailer';
import { postBuyerWebhook } from './channels';

/**
 * A message to a buyer that is not a lead (a consumer's opt-out, issue 34): sent to the buyer's own
 * notify channels, by email (each address) and to its webhook (signed as lead webhooks are, with an
 * `event`). Custom deliveries and texts carry leads only and are left out.
 */
export interface BuyerNotice {
  /** The webhook's `event`: `consent.revoked`. */
  event: string;
  subject: string;
  text: string;
  data: Record<string, unknown>;
}

/** How one channel of a notice went. */
export interface NoticeResult {
  channel: 'email' | 'webhook';
  target: string;
  ok: boolean;
  error?: string;
}

export interface NoticeDeps {
  clock: Clock;
  config: Pick<Config, 'LEADEX_SECRET' | 'ALLOW_PRIVATE_DELIVERY_TARGETS'>;
  mailer: Mailer;
  network?: OutboundNetwork;
}

export function createBuyerNotices({ clock, config, mailer, network = {} }: NoticeDeps) {
  return {
    /** Sends a notice on the buyer's notify channels; never throws for a channel's failure. */
    async send(buyerId: string, notify: NotifyConfig, notice: BuyerNotice): Promise<NoticeResult[]> {
      const results: NoticeResult[] = [];
      for (const to of notify.email ?? []) {
        const row = await mailer.send({ to, subject: notice.subject, text: notice.text });
        results.push({
          channel: 'email',
          target: to,
          ok: row.status !== 'failed',
          ...(row.error ? { error: row.error } : {}),
        });
      }
      const urls = [...(notify.webhook ? [notify.webhook] : []), ...(notify.broadcast_webhooks ?? [])];
      for (const url of new Set(urls)) {
        const now = clock.now();
        const id = newId('msg');
        const payload = JSON.stringify({
          event: notice.event,
          id,
          created: now.toISOString(),
          message: notice.text,
          ...notice.data,
        });
        try {
          const res = await postBuyerWebhook({ config, network }, buyerId, url, { id, timestamp: now, payload });
          const ok = res.status >= 200 && res.status < 300;
          results.push({ channel: 'webhook', target: url, ok, ...(ok ? {} : { error: `HTTP ${res.status}` }) });
        } catch (error) {
          results.push({
            channel: 'webhook',
            target: url,
            ok: false,
            error: error instanceof OutboundError ? error.message : String(error),
          });
        }
      }
      return results;
    },
  };
}
export type BuyerNotices = ReturnType<typeof createBuyerNotices>;

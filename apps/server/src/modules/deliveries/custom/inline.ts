import type { ServiceField } from '@leadex/domain';
import type {
  InlineAttempt,
  InlineDeliveries,
  InlineLead,
  InlineOutcome,
  LiveDelivery,
} from '../../../distribution/ports';
import type { Clock } from '../../../lib/clock';
import { excerpt } from '../../../lib/excerpt';
import { newId } from '../../../lib/ids';
import { type DeliveryResult, deliverCustom, isRetryable, leadForDelivery } from './render';
import type { WebhooksService } from './webhooks.service';

/** How long a live delivery may hold up the sale (DESIGN.md §6). */
export const INLINE_TIMEOUT_MS = 3000;

/** The `webhook-id` of one lead to one custom delivery: the same on every retry, so the buyer can drop duplicates. */
export const customMessageId = (matchId: string, deliveryId: string) => `${matchId}.${deliveryId}`;

/** The failure a delivery result stands for, as the buyer's campaigns show it; null for a success. */
export function failureText(result: DeliveryResult): string | null {
  if (result.accepted) return null;
  if (result.error) return result.error;
  if (result.status < 200 || result.status >= 300)
    return `HTTP ${result.status}${result.responseBody ? `: ${result.responseBody.slice(0, 200)}` : ''}`;
  // The buyer's own words when its answer has them (`reason_field`), else what it answered.
  if (result.reason) return `${result.retryAnswer ? 'Try again' : 'Not Accepted'}: ${result.reason}`;
  return `${result.retryAnswer ? 'Try again' : 'Not Accepted'}${result.responseBody ? `: ${result.responseBody.slice(0, 200)}` : ''}`;
}

/** One attempt as the delivery logs keep it. */
export function attemptOf(matchId: string, deliveryId: string, result: DeliveryResult, at: Date): InlineAttempt {
  return {
    id: newId('att'),
    matchId,
    target: deliveryId,
    accepted: result.accepted,
    statusCode: result.status === 0 ? null : result.status,
    request: excerpt(`${result.url}\n\n${result.reqBody}`),
    response: result.responseBody ? excerpt(result.responseBody) : null,
    error: result.accepted ? null : failureText(result),
    reason: result.reason ?? null,
    providerId: result.returnId ?? null,
    last: result.accepted || !isRetryable(result),
    durationMs: result.durationMs,
    at,
  };
}

/**
 * The sale's side of custom deliveries (DESIGN.md §6), the engine's InlineDeliveries port: a buyer's
 * live deliveries run inline, 3 s each, and their answers decide whether the buyer takes the lead.
 */
export function createInlineDeliveries({
  webhooks,
  clock,
  liveBuyers,
  fieldsOf = () => [],
  publicUrl = '',
}: {
  webhooks: WebhooksService;
  clock: Clock;
  /** The buyers with a live delivery, from the engine's snapshot (no database read on the hot path). */
  liveBuyers: () => ReadonlySet<string>;
  /** A service's own fields (issue 33), from the engine's snapshot: money is sent in dollars. */
  fieldsOf?: (service: string) => readonly ServiceField[];
  /** The exchange's public address (PUBLIC_URL): the consent evidence's download links start with it. */
  publicUrl?: string;
}): InlineDeliveries {
  return {
    /** Whether a sale to this buyer runs deliveries inline. */
    runsFor: (buyerId: string) => liveBuyers().has(buyerId),

    /** The live deliveries of these buyers, read before the sale's transaction. */
    async of(buyerIds: Iterable<string>): Promise<Map<string, LiveDelivery[]>> {
      const live = liveBuyers();
      const wanted = [...new Set(buyerIds)].filter((id) => live.has(id));
      const lists = await Promise.all(wanted.map((id) => webhooks.liveDeliveriesOf(id)));
      return new Map(wanted.map((id, i) => [id, lists[i] ?? []]));
    },

    /** Sends the lead to each of the buyer's live deliveries at once and sums up their answers. */
    async deliver(deliveries: LiveDelivery[], sold: InlineLead, matchId: string): Promise<InlineOutcome> {
      const lead = {
        ...leadForDelivery(sold.lead, sold.priceCents, fieldsOf(sold.lead.service), publicUrl),
        buyer_ping_id: sold.buyerPingId,
      };
      const results = await Promise.all(
        deliveries.map((d) =>
          deliverCustom(
            d,
            lead,
            webhooks.deliverOptions({ timeoutMs: INLINE_TIMEOUT_MS, messageId: customMessageId(matchId, d._id) }),
          ),
        ),
      );
      const at = clock.now();
      const attempts = results.map((r, i) => attemptOf(matchId, (deliveries[i] as LiveDelivery)._id, r, at));
      const refused = results.findIndex((r) => !r.accepted && !isRetryable(r));
      const buyerLeadId = results.find((r) => r.returnId !== undefined)?.returnId;
      const refusedReason = refused >= 0 ? results[refused]?.reason : undefined;
      return {
        verdict: refused >= 0 ? 'rejected' : results.every((r) => r.accepted) ? 'accepted' : 'retry',
        ...(refused >= 0 ? { refusedBy: (deliveries[refused] as LiveDelivery).name } : {}),
        ...(refusedReason !== undefined ? { refusedReason } : {}),
        ...(buyerLeadId !== undefined ? { buyerLeadId } : {}),
        attempts,
      };
    },

    /** Keeps each delivery's last failure (cleared by a success) for the buyer's campaigns. */
    async noteOutcomes(attempts: InlineAttempt[]): Promise<void> {
      for (const a of attempts) await webhooks.noteOutcome(a.target, a.accepted ? null : a.error, a.at);
    },
  };
}

import type { NamedStatement, SqlRunner } from '../../db/raw';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/ids';
import { type DeliveryLead, type DeliveryResult, type DeliveryTarget, deliverCustom, isRetryable } from './render';
import type { WebhooksService } from './webhooks.service';

/** How long a live delivery may hold up the sale (DESIGN.md §6). */
export const INLINE_TIMEOUT_MS = 3000;

/** The channel name of custom deliveries in the delivery logs; the target is the delivery's id. */
export const CUSTOM_CHANNEL = 'custom';

export type LiveDelivery = DeliveryTarget & { _id: string; name: string };

/**
 * What a buyer's live deliveries said of one lead: accepted (the buyer has it), rejected (a Not
 * Accepted answer, a 4xx or a refused target: the buyer does not take it, the lead goes on) or
 * retry (no answer or a 5xx: the sale stands and a job delivers it again).
 */
export interface InlineOutcome {
  verdict: 'accepted' | 'rejected' | 'retry';
  /** The delivery that refused the lead, for the explanation. */
  refusedBy?: string;
  /** The buyer's id of the lead (`return_id`), stored on the match. */
  buyerLeadId?: string;
  attempts: InlineAttempt[];
}

export interface InlineAttempt {
  id: string;
  matchId: string;
  target: string;
  accepted: boolean;
  statusCode: number | null;
  request: string;
  response: string | null;
  error: string | null;
  providerId: string | null;
  /** The chain ended here: accepted, or a no that a retry will not change. */
  last: boolean;
  durationMs: number;
  at: Date;
}

const EXCERPT = 2000;

/** The `webhook-id` of one lead to one custom delivery: the same on every retry, so the buyer can drop duplicates. */
export const customMessageId = (matchId: string, deliveryId: string) => `${matchId}.${deliveryId}`;

/** The failure a delivery result stands for, as the buyer's campaigns show it; null for a success. */
export function failureText(result: DeliveryResult): string | null {
  if (result.accepted) return null;
  if (result.error) return result.error;
  if (result.status < 200 || result.status >= 300)
    return `HTTP ${result.status}${result.responseBody ? `: ${result.responseBody.slice(0, 200)}` : ''}`;
  return `Not Accepted${result.responseBody ? `: ${result.responseBody.slice(0, 200)}` : ''}`;
}

/** One attempt as the delivery logs keep it. */
export function attemptOf(matchId: string, deliveryId: string, result: DeliveryResult, at: Date): InlineAttempt {
  return {
    id: newId('att'),
    matchId,
    target: deliveryId,
    accepted: result.accepted,
    statusCode: result.status === 0 ? null : result.status,
    request: `${result.url}\n\n${result.reqBody}`.slice(0, EXCERPT),
    response: result.responseBody ? result.responseBody.slice(0, EXCERPT) : null,
    error: result.accepted ? null : failureText(result),
    providerId: result.returnId ?? null,
    last: result.accepted || !isRetryable(result),
    durationMs: result.durationMs,
    at,
  };
}

const INSERT_ATTEMPTS: NamedStatement = {
  name: 'leadex_insert_inline_attempts',
  text: `
    insert into delivery_attempts (id, match_id, channel, target, attempt, accepted, status_code, request, response,
      error, provider_id, last, duration_ms, at)
    select a.id, a.match_id, '${CUSTOM_CHANNEL}', a.target, 1, a.accepted, a.status_code, a.request, a.response,
      a.error, a.provider_id, a.last, a.duration_ms, a.at
    from unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::int[], $6::text[], $7::text[], $8::text[],
      $9::text[], $10::boolean[], $11::int[], $12::timestamptz[])
      as a(id, match_id, target, accepted, status_code, request, response, error, provider_id, last, duration_ms, at)`,
};

const INSERT_REJECTED: NamedStatement = {
  name: 'leadex_insert_rejected_matches',
  text: `
    insert into lead_matches (id, lead_id, campaign_id, buyer_id, kind, price_cents, rejected, delivery_status, created_at)
    select m.id, $1, m.campaign_id, m.buyer_id, $6, m.price_cents, true, 'rejected', $7::timestamptz
    from unnest($2::text[], $3::text[], $4::text[], $5::int[]) as m(id, campaign_id, buyer_id, price_cents)`,
};

const SET_BUYER_LEAD_IDS: NamedStatement = {
  name: 'leadex_set_buyer_lead_ids',
  text: `
    update lead_matches m set buyer_lead_id = b.buyer_lead_id
    from unnest($1::text[], $2::text[]) as b(id, buyer_lead_id) where m.id = b.id`,
};

/**
 * Records what the sale's inline deliveries did, in the sale's transaction: every attempt, the
 * matches the buyers refused (rejected: never billed, never delivered) and the buyers' lead ids.
 */
export async function recordInline(
  tx: SqlRunner,
  leadId: string,
  kind: string,
  at: Date,
  attempts: InlineAttempt[],
  rejected: { id: string; campaignId: string; buyerId: string; priceCents: number }[],
  buyerLeadIds: { matchId: string; buyerLeadId: string }[],
): Promise<void> {
  if (rejected.length > 0)
    await tx.query(INSERT_REJECTED, [
      leadId,
      rejected.map((m) => m.id),
      rejected.map((m) => m.campaignId),
      rejected.map((m) => m.buyerId),
      rejected.map((m) => m.priceCents),
      kind,
      at.toISOString(),
    ]);
  if (attempts.length > 0)
    await tx.query(INSERT_ATTEMPTS, [
      attempts.map((a) => a.id),
      attempts.map((a) => a.matchId),
      attempts.map((a) => a.target),
      attempts.map((a) => a.accepted),
      attempts.map((a) => a.statusCode),
      attempts.map((a) => a.request),
      attempts.map((a) => a.response),
      attempts.map((a) => a.error),
      attempts.map((a) => a.providerId),
      attempts.map((a) => a.last),
      attempts.map((a) => a.durationMs),
      attempts.map((a) => a.at.toISOString()),
    ]);
  if (buyerLeadIds.length > 0)
    await tx.query(SET_BUYER_LEAD_IDS, [buyerLeadIds.map((b) => b.matchId), buyerLeadIds.map((b) => b.buyerLeadId)]);
}

/**
 * The sale's side of custom deliveries (DESIGN.md §6): a buyer's live deliveries run inline, 3 s
 * each, and their answers decide whether the buyer takes the lead.
 */
export function createInlineDeliveries({
  webhooks,
  clock,
  liveBuyers,
}: {
  webhooks: WebhooksService;
  clock: Clock;
  /** The buyers with a live delivery, from the engine's snapshot (no database read on the hot path). */
  liveBuyers: () => ReadonlySet<string>;
}) {
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
    async deliver(deliveries: LiveDelivery[], lead: DeliveryLead, matchId: string): Promise<InlineOutcome> {
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
      return {
        verdict: refused >= 0 ? 'rejected' : results.every((r) => r.accepted) ? 'accepted' : 'retry',
        ...(refused >= 0 ? { refusedBy: (deliveries[refused] as LiveDelivery).name } : {}),
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

export type InlineDeliveries = ReturnType<typeof createInlineDeliveries>;

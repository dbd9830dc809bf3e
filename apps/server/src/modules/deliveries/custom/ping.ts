import { MAX_CAMPAIGN_PRICE, type ServiceField } from '@leadex/domain';
import type { PingCall, Pinger, PingFacts, PingOutcome, PingPostDelivery } from '../../../distribution/ports';
import { type Clock, toEpochSeconds } from '../../../lib/clock';
import { excerpt } from '../../../lib/excerpt';
import { newId } from '../../../lib/ids';
import { formatMoney } from '../../../lib/money';
import { deriveSigningSecret } from '../../../lib/webhook-signature';
import {
  type DeliverOptions,
  type DeliveryLead,
  type DeliveryResult,
  deliverCustom,
  pingServiceFields,
  responseField,
  unanswered,
} from './render';

/**
 * The lead as a ping's mapping reads it: PING_FIELD_NAMES and the service's non-personal ping fields
 * (`fields.<key>`, by `definitions`, the service's own), nothing else, whatever a mapping row names.
 */
export function pingLead(facts: PingFacts, definitions: readonly ServiceField[] = []): DeliveryLead {
  return {
    ...pingServiceFields(facts.fields, definitions),
    service: facts.service,
    zip: facts.zip,
    state: facts.state,
    channel: facts.channel,
    pub_id: facts.pubId,
    sub_id: facts.subId,
    trusted_form_ping_url: facts.trustedFormPingUrl,
    ts: toEpochSeconds(facts.at),
    test: facts.test,
  };
}

/** The most a bid may be: what a campaign may pay at most. A larger answer is a unit slip (cents), not a bid. */
export const MAX_BID_CENTS = MAX_CAMPAIGN_PRICE * 100;

/** A price as the buyer's system answers it: a number, or numeric text (a leading `$` allowed); null otherwise. */
function priceCentsOf(value: unknown): number | null {
  let amount: number | null = null;
  if (typeof value === 'number') amount = value;
  else if (typeof value === 'string') {
    const text = value.trim().replace(/^\$/, '');
    if (/^\d+(\.\d+)?$/.test(text)) amount = Number(text);
  }
  return amount === null || !Number.isFinite(amount) ? null : Math.round(amount * 100);
}

/** What a ping's answer amounts to: a bid (a positive price, at most MAX_BID_CENTS) or why it is none. */
export function readBid(
  result: Pick<DeliveryResult, 'status' | 'accepted' | 'data' | 'error' | 'errorCode' | 'responseBody' | 'reason'>,
  priceField: string,
): { outcome: PingOutcome; bidCents: number | null; reason: string | null } {
  const none = (outcome: PingOutcome, reason: string) => ({ outcome, bidCents: null, reason });
  if (result.status === 0 || result.error !== undefined)
    return none(result.errorCode === 'timeout' ? 'timeout' : 'error', result.error ?? 'no answer');
  if (result.status < 200 || result.status >= 300)
    return none('error', `HTTP ${result.status}${result.responseBody ? `: ${result.responseBody.slice(0, 200)}` : ''}`);
  if (!result.accepted)
    return none('no_bid', result.reason ? `Not Accepted: ${result.reason}` : 'Not Accepted by the answer rules');
  const cents = priceCentsOf(responseField(result.data, priceField));
  if (cents === null) return none('no_bid', `no price in '${priceField}'`);
  if (cents <= 0) return none('no_bid', `a price of ${formatMoney(cents)} is no bid`);
  if (cents > MAX_BID_CENTS)
    return none('no_bid', `a bid of ${formatMoney(cents)} is above the most a campaign may pay`);
  return { outcome: 'bid', bidCents: cents, reason: null };
}

/** The `webhook-id` of one ping to one delivery: the exchange's ping (or lead) id and the delivery's. */
export const pingMessageId = (pingKey: string, deliveryId: string) => `${pingKey}.${deliveryId}`;

/**
 * Sends one ping (DESIGN.md §6): the ping's fields through its mapping, signed with the Standard
 * Webhooks headers under the buyer's signing secret, ended at the ping's own timeout by an
 * AbortSignal, so it is answered by then whatever the buyer's system does. Never throws: the
 * buyer's failures, and anything its stored settings make go wrong (DESIGN.md §12), are outcomes
 * (timeout, error, no bid) of this buyer's ping alone, never of the round.
 */
export async function sendPing(
  delivery: PingPostDelivery,
  lead: DeliveryLead,
  options: { pingKey: string; signingSecret: string; at: Date; deliver: DeliverOptions },
): Promise<{ call: PingCall; result: DeliveryResult }> {
  const started = performance.now();
  let result: DeliveryResult;
  let bid: ReturnType<typeof readBid>;
  try {
    result = await deliverCustom(delivery.target, lead, {
      ...options.deliver,
      timeoutMs: delivery.timeoutMs,
      signal: AbortSignal.timeout(delivery.timeoutMs),
      // Every ping asks the same buyers' systems: a new connection to each, each time, costs more than the answer.
      reuseConnection: true,
      messageId: pingMessageId(options.pingKey, delivery._id),
      sign: { secret: deriveSigningSecret(options.signingSecret, delivery.buyerId), at: options.at },
    });
    bid = readBid(result, delivery.priceField);
  } catch (error) {
    result = unanswered(
      { url: String(delivery.target.url), reqHeaders: {}, reqBody: '' },
      error,
      Math.round(performance.now() - started),
    );
    bid = readBid(result, delivery.priceField);
  }
  return {
    result,
    call: {
      id: newId('pcl'),
      buyerId: delivery.buyerId,
      deliveryId: delivery._id,
      outcome: bid.outcome,
      bidCents: bid.bidCents,
      buyerPingId: bid.outcome === 'bid' ? (result.returnId ?? null) : null,
      statusCode: result.status === 0 ? null : result.status,
      request: excerpt(`${result.url}\n\n${result.reqBody}`),
      response: result.responseBody ? excerpt(result.responseBody) : null,
      error: bid.reason,
      durationMs: result.durationMs,
      at: options.at,
    },
  };
}

/**
 * The sale's side of Ping/Post (DESIGN.md §6), the engine's Pinger port: every delivery pinged at
 * once, each under its own timeout, so the whole round is answered within the slowest delivery's timeout.
 */
export function createPinger({
  clock,
  secret,
  deliverOptions,
  fieldsOf = () => [],
}: {
  clock: Clock;
  /** The service's own field definitions (the engine's snapshot): which of the lead's fields a ping may send. */
  fieldsOf?: (service: string) => readonly ServiceField[];
  /** LEADEX_SECRET: each buyer's signing secret is derived from it, as for its notify webhooks. */
  secret: string;
  /** The exchange's delivery options (private targets, the test network). */
  deliverOptions: () => DeliverOptions;
}): Pinger {
  return {
    /** Pings every delivery at once with the lead's non-personal fields; answers every call, in order. */
    async pingAll(deliveries: readonly PingPostDelivery[], facts: PingFacts, pingKey: string): Promise<PingCall[]> {
      const lead = pingLead(facts, fieldsOf(facts.service));
      const at = clock.now();
      const deliver = deliverOptions();
      const sent = await Promise.all(
        deliveries.map((d) => sendPing(d, lead, { pingKey, signingSecret: secret, at, deliver })),
      );
      return sent.map((s) => s.call);
    },
  };
}

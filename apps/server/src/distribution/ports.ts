import type { BidOutcome, FieldValue, Webhook, WebhookPing } from '@leadex/domain';
import type { leads } from '../db/schema';

/**
 * What the sale needs from the buyers' deliveries (DESIGN.md §6), declared here so the engine
 * depends on no module: `modules/deliveries/custom` implements these ports (inline.ts, ping.ts)
 * and `deps.ts` plugs them in. The data the engine holds in memory (a delivery's target, a
 * Ping/Post delivery) is typed here too; what is done with it is the module's.
 */

/** What rendering and sending a custom delivery reads of it (a Webhook as the API answers it). */
export type DeliveryTarget = Pick<
  Webhook,
  | 'url'
  | 'method'
  | 'headers'
  | 'accept'
  | 'key'
  | 'keyname'
  | 'secret'
  | 'secretname'
  | 'return_id'
  | 'send_content_type'
  | 'return_content_type'
  | 'wrap_key'
  | 'map'
  | 'static'
> &
  // Left out, a target reads no reason and never retries on its answer (a ping's target has neither).
  Partial<Pick<Webhook, 'reason_field' | 'retry'>>;

/** The lead's fields a delivery reads: a stored lead, or the one a sale is about to store. */
export type DeliverableLead = Pick<
  typeof leads.$inferSelect,
  | 'id'
  | 'createdAt'
  | 'service'
  | 'name'
  | 'firstName'
  | 'lastName'
  | 'phone'
  | 'email'
  | 'address'
  | 'city'
  | 'state'
  | 'zip'
  | 'homeowner'
  | 'tcpaConsent'
  | 'tcpaLanguage'
  | 'trustedForm'
  | 'trustedFormPingUrl'
  | 'jornaya'
  | 'ip'
  | 'userAgent'
  | 'pubId'
  | 'subId'
  | 'channel'
  | 'test'
  | 'priceCents'
  | 'fields'
> & {
  /** The page where the consumer consented (issue 34): the evidence's, or the sale's own before it is stored. */
  consentPageUrl?: string | null;
  /**
   * The lead's consent evidence (issue 34 item 3): the stored record and its hash, or, in the sale's
   * live deliveries, the record the sale's trigger will store; null when it has none (or it is sealed).
   */
  consentEvidence?: ConsentEvidenceRecord | null;
};

/** A consent evidence record as stored (`consent_evidence.record`) and the SHA-256 of its canonical text. */
export interface ConsentEvidenceRecord {
  record: Record<string, unknown>;
  hash: string;
}

// --- Inline (live) custom deliveries ---

/** The channel name of custom deliveries in the delivery logs; the target is the delivery's id. */
export const CUSTOM_CHANNEL = 'custom';

/** A live delivery as a sale runs it; `ping_id` tells a Ping/Post delivery (posted to only when its bid won). */
export type LiveDelivery = DeliveryTarget & { _id: string; name: string; ping_id: string };

/** One attempt of a live delivery, as the delivery logs keep it (written in the sale's transaction). */
export interface InlineAttempt {
  id: string;
  matchId: string;
  target: string;
  accepted: boolean;
  statusCode: number | null;
  request: string;
  response: string | null;
  error: string | null;
  /** The buyer's own reason for not accepting (the delivery's `reason_field`). */
  reason: string | null;
  providerId: string | null;
  /** The chain ended here: accepted, or a no that a retry will not change. */
  last: boolean;
  durationMs: number;
  at: Date;
}

/**
 * What a buyer's live deliveries said of one lead: accepted (the buyer has it), rejected (a Not
 * Accepted answer, a 4xx, a refused target, or a delivery that could not be rendered or sent: the
 * buyer does not take it, the lead goes on) or retry (no answer or a 5xx: the sale stands and a job
 * delivers it again). Never an exception: one buyer's settings never fail the sale (DESIGN.md §12).
 */
export interface InlineOutcome {
  verdict: 'accepted' | 'rejected' | 'retry';
  /** The delivery that refused the lead, for the explanation. */
  refusedBy?: string;
  /** The buyer's own reason for refusing it (the delivery's `reason_field`), for the explanation. */
  refusedReason?: string;
  /** The buyer's id of the lead (`return_id`), stored on the match. */
  buyerLeadId?: string;
  attempts: InlineAttempt[];
}

/** The lead a winner's live deliveries get: the lead as it will be stored, at the winner's price. */
export interface InlineLead {
  lead: DeliverableLead;
  priceCents: number;
  /** The buyer's id of its winning bid (a Ping/Post post echoes it). */
  buyerPingId: string | null;
}

/** The sale's side of custom deliveries: a buyer's live deliveries run inline, during the sale. */
export interface InlineDeliveries {
  /** Whether a sale to this buyer runs deliveries inline (from memory). */
  runsFor(buyerId: string): boolean;
  /** The live deliveries of these buyers, read before the sale's transaction. */
  of(buyerIds: Iterable<string>): Promise<Map<string, LiveDelivery[]>>;
  /** Sends the lead to each of the buyer's live deliveries at once and sums up their answers. */
  deliver(deliveries: LiveDelivery[], sold: InlineLead, matchId: string): Promise<InlineOutcome>;
  /** Keeps each delivery's last failure (cleared by a success), after the sale has answered. */
  noteOutcomes(attempts: InlineAttempt[]): Promise<void>;
}

// --- Ping/Post ---

/** What a ping's outcome can be (a refused post is the sale's, not the ping's). */
export type PingOutcome = Exclude<BidOutcome, 'refused_post'>;

/** A live Ping/Post delivery as the engine holds it in memory: whom to ping, and how. */
export interface PingPostDelivery {
  _id: string;
  name: string;
  buyerId: string;
  /** The ping rendered and sent like a post: the ping's own URL, mapping and answer rules, the delivery's key and secret. */
  target: DeliveryTarget;
  priceField: string;
  timeoutMs: number;
}

/** The engine's form of a live Ping/Post delivery (a Webhook as the API answers it, with its ping). */
export function pingPostDelivery(
  delivery: Pick<Webhook, '_id' | 'name' | 'buyer' | 'key' | 'keyname' | 'secret' | 'secretname' | 'reason_field'>,
  ping: WebhookPing,
): PingPostDelivery {
  return {
    _id: delivery._id,
    name: delivery.name,
    buyerId: delivery.buyer,
    target: {
      url: ping.url,
      method: ping.method,
      headers: ping.headers,
      accept: ping.accept,
      key: delivery.key,
      keyname: delivery.keyname,
      secret: delivery.secret,
      secretname: delivery.secretname,
      // The buyer's id of its bid is read like a post's `return_id`.
      return_id: ping.ping_id_field,
      // The buyer's system words its reasons the same way for a ping as for a post.
      reason_field: delivery.reason_field,
      send_content_type: ping.send_content_type,
      return_content_type: ping.return_content_type,
      wrap_key: ping.wrap_key,
      map: ping.map,
      static: ping.static,
    },
    priceField: ping.price_field,
    timeoutMs: ping.timeout_ms,
  };
}

/** What the exchange knows of a lead before it is sold: the only fields a ping can send (PING_FIELD_NAMES). */
export interface PingFacts {
  service: string;
  zip: string;
  state: string | null;
  channel: string | null;
  pubId: string | null;
  subId: string | null;
  /** A checked TrustedForm ping URL (issue 32 item 8): not personal, so a ping may carry it. */
  trustedFormPingUrl: string | null;
  at: Date;
  test: boolean;
  /**
   * The service's own fields as read (issue 33, money in cents): the pinger sends only the non-personal
   * ping-stage ones its mapping names, whatever else this holds. Absent: none.
   */
  fields?: Record<string, FieldValue> | null;
}

/** One ping of one Ping/Post delivery, as the lead detail's logs keep it. */
export interface PingCall {
  id: string;
  buyerId: string;
  deliveryId: string;
  outcome: PingOutcome;
  bidCents: number | null;
  buyerPingId: string | null;
  statusCode: number | null;
  request: string;
  response: string | null;
  /** Why it is no bid, in words. */
  error: string | null;
  durationMs: number;
  at: Date;
}

/** The sale's side of Ping/Post: the buyers' systems pinged for their bids. */
export interface Pinger {
  /** Pings every delivery at once with the lead's non-personal fields; answers every call, in order. */
  pingAll(deliveries: readonly PingPostDelivery[], facts: PingFacts, pingKey: string): Promise<PingCall[]>;
}

// --- Suppression (issue 34) ---

/** Which suppression lists hold a lead's contact: an exchange-wide one (the lead is refused), and buyers' own (those buyers are left out). */
export interface SuppressionVerdict {
  /** The first global list holding the contact, named for the admin's explanation; null when none. */
  global: { listId: string; listName: string; kind: string } | null;
  /** Buyer id -> the name of the buyer's list holding the contact. */
  buyers: ReadonlyMap<string, string>;
}

/** The sale's side of the suppression lists (`modules/suppression` implements it, deps.ts plugs it in). */
export interface SuppressionCheck {
  /** A post or a direct lead: the phone, email and ZIP against every list (one indexed query). */
  contact(contact: { phone?: string | null; email?: string | null; zip?: string | null }): Promise<SuppressionVerdict>;
  /**
   * The keyed hashes the lists would be searched for (issue 36): the sale's one statement refuses a
   * contact any list holds, so the usual unlisted lead costs no lookup of its own.
   */
  hashes(contact: { phone?: string | null; email?: string | null; zip?: string | null }): string[];
  /** The lists holding any of these hashes (`hashes`' answer): the lookup `contact` makes, hashed once. */
  lookup(hashes: readonly string[]): Promise<SuppressionVerdict>;
  /** A ping (no contact, answered from memory): the ZIP against the ZIP lists; null when on none. */
  zip(zip: string): SuppressionVerdict | null;
  /**
   * A ping's `phone_hash` and `email_hash` (SHA-256 hex of the normalised contact) against the phone and
   * email lists: one indexed query; null, with no query, when the ping carries neither.
   */
  pingContact(hashes: { phone_hash?: string | null; email_hash?: string | null }): Promise<SuppressionVerdict> | null;
}

import type { FieldValue, LeadFieldFlag } from '@leadex/domain';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import type { BidRound } from '../bidding';
import type { Engine, SourceCaller } from '../engine';
import type { ExplanationRecord } from '../explanation';
import type { InlineDeliveries, Pinger, SuppressionCheck, SuppressionVerdict } from '../ports';

/**
 * Where a request came from: the poster's address and client, kept with the lead as its `request`,
 * never as the consumer's IP and user agent (issue 32 item 5).
 */
export interface RequestMeta {
  ip: string;
  userAgent?: string;
  idempotencyKey?: string;
  /**
   * The request's fingerprint (its route and normalized body), kept with the Idempotency-Key: the
   * same key with another request is refused, not answered with the first one's lead (issue 28).
   */
  requestHash?: string;
}

/** The contact and consent fields of a lead to sell (the source API's post and direct lead carry them). */
export interface SaleContact {
  name?: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  email?: string;
  address?: string;
  city?: string;
  state?: string;
  homeowner?: boolean;
  tcpa_consent?: boolean;
  tcpa_language?: string;
  /** A TrustedForm certificate URL the source API checked (https on cert.trustedform.com, an id of the right shape). */
  trusted_form?: string;
  /** A TrustedForm ping URL the source API checked. */
  trusted_form_ping_url?: string;
  /** A LeadiD token of Jornaya's shape, checked by the source API. */
  jornaya?: string;
  ip?: string;
  user_agent?: string;
  /** The page where the consumer consented, and the source's snapshot of it: kept in the consent evidence only. */
  page_url?: string;
  consent_snapshot?: string;
  sub_id?: string;
  pub_id?: string;
  metadata?: Record<string, unknown>;
  /** The fields the source sent that could not be read or contradict another: kept with the lead, never refused. */
  flags?: LeadFieldFlag[];
}

/** A lead to sell, as the source API or the simulator maps it from a request. */
export interface SaleRequest {
  caller: SourceCaller;
  pingId: string | null;
  service: string;
  zip: string;
  channel: string | null;
  campaign: string | null;
  test: boolean;
  /** What the source is paid if the lead sells; the sale needs revenue at least this. */
  payoutCents: number;
  /** The payout is below the source's `minprice`: stored, never sold. */
  belowMinPrice?: boolean;
  /** The Ping/Post buyers' answers to the lead's ping (from the ping_id); a direct lead pings them itself. */
  bidRound?: BidRound;
  contact: SaleContact;
  /**
   * The service's own fields as read (issue 33): `{ [key]: value }`, money in integer cents; the ping's
   * carried over (from the ping_id) for a post. What could not be read is in `contact.flags`.
   */
  fields?: Record<string, FieldValue>;
  meta: RequestMeta;
  /** What the suppression lists said of the contact (the sale asks them first, issue 34). */
  suppression?: SuppressionVerdict;
}

/** What a ping asks a price for (the lead's non-personal fields). */
export interface QuoteRequest {
  service: string;
  zip: string;
  channel?: string | null;
  campaign?: string | null;
  test?: boolean;
  minprice?: number;
  phone_hash?: string;
  email_hash?: string;
  /** What the suppression lists said of the ping's phone_hash / email_hash (the source API asks them, issue 34). */
  contactSuppression?: SuppressionVerdict | null;
  pub_id?: string;
  sub_id?: string;
  /** A TrustedForm ping URL, checked by the source API: it goes on to the Ping/Post buyers' pings. */
  trusted_form_ping_url?: string;
  /**
   * The service's ping-stage fields that are not personal, as read (issue 33; money in cents): eligibility
   * reads them, and the ping_id carries them to the post.
   */
  fields?: Record<string, FieldValue>;
}

/** The answer a lead is stored with: what its source is told, and told again on a repeated post. */
export type LeadAnswer =
  | { ok: true; lead_id: string; price: number; status: 'sold'; test?: true }
  | { ok: false; lead_id: string; reason: 'no_match' }
  | { ok: false; lead_id: string; reason: 'suppressed' }
  | { ok: false; lead_id: string; reason: 'duplicate'; duplicate_of: string };

/**
 * What a sale ended in (the source API answers it, see source-api.service.ts): the lead was stored
 * sold or not, with its answer; or the request repeats an earlier one (same ping id, same
 * Idempotency-Key), whose stored answer is replayed; or its Idempotency-Key is held by another
 * request, or by this one still in progress.
 */
export type SaleOutcome =
  | { kind: 'sold'; answer: Extract<LeadAnswer, { ok: true }> }
  | { kind: 'not_sold'; answer: Extract<LeadAnswer, { ok: false }> }
  | { kind: 'replayed'; status: number; answer: Record<string, unknown> }
  | { kind: 'key_reused'; key: string }
  | { kind: 'key_in_progress' };

/** What a ping was answered: a price sealed in a ping_id, or none; with how each campaign decided. */
export type QuoteOutcome =
  | {
      kind: 'priced';
      /** The sealed ping_id the post sends back. */
      pingId: string;
      priceCents: number;
      /** When the ping_id expires, in epoch seconds. */
      expires: number;
      test: boolean;
      explanation: ExplanationRecord[];
      /** The fields the winners' filters left to the post (issue 33): the sale depends on them. */
      conditions?: string[];
    }
  | { kind: 'no_match'; explanation: ExplanationRecord[] }
  /** The ZIP is on an exchange-wide suppression list: refused before pricing (issue 34). */
  | { kind: 'suppressed'; explanation: ExplanationRecord[] };

/** What the sale's parts read: the engine's memory and the clock. */
export interface SaleContext {
  engine: Engine;
  clock: Clock;
}

/** What a sale works with (and the public source API, which sells through it). */
export interface SaleDeps {
  db: Db;
  clock: Clock;
  engine: Engine;
  /** Signs the ping_id, so a post sells at the quoted price without a lookup. */
  secret: string;
  /** The fewest waiting sales stored as one group; 0: every sale alone (config SALE_GROUP_MIN). */
  groupMin?: number;
  /** Called after a sale is stored: the job dispatcher starts delivering it at once. */
  onSale?: () => void;
  /** Buyers' live custom deliveries, run during the sale (DESIGN.md §6). */
  inline?: InlineDeliveries;
  /** Pings the Ping/Post buyers' systems for their bids (DESIGN.md §6). */
  pinger?: Pinger;
  /** The suppression lists (issue 34): a globally listed contact is refused before pricing. */
  suppression?: SuppressionCheck;
  /** Where a failure after the answer is reported (the delivery outcomes kept for the campaigns). */
  logger?: Pick<Logger, 'error'>;
}

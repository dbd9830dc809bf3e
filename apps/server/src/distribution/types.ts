import type { BidOutcome, FieldValue } from '@leadex/domain';
import type { CampaignTime } from '../db/schema';

/** The cap periods, counted in the campaign's time zone (DESIGN.md §5 rule 5). */
import type { CapPeriod } from '../lib/time';
import type { SharedFieldFilter } from './field-filters';

export { CAP_PERIODS, type CapPeriod } from '../lib/time';

/** A source restriction row of a campaign (DESIGN.md §5 rule 6). */
export interface SourceFilter {
  sourceId: string;
  /** null: any channel of the source. */
  channel: string | null;
  /** Replaces the campaign's price for this source when set. */
  priceCents: number | null;
  /** Replaces the campaign's shared price for this source when set. */
  sharedPriceCents: number | null;
  /** Share of the source's leads admitted, 0 to 1. */
  pct: number;
}

/** A campaign as the engine holds it in memory: everything eligibility needs, nothing else. */
export interface IndexedCampaign {
  id: string;
  buyerId: string;
  name: string;
  /** The Branded Id a source sends as `campaign` to target this campaign. */
  fixedId: string;
  status: 'live' | 'draft' | 'pause';
  priceCents: number;
  /** Whether the campaign also bids for shared sales. */
  shared: boolean;
  sharedPriceCents: number | null;
  services: ReadonlySet<string>;
  location: 'state' | 'zip' | 'zipset';
  states: ReadonlySet<string>;
  /** For `zip`: the listed ZIPs; for `zipset`: the region's ZIPs. */
  zips: ReadonlySet<string>;
  /** Cap limits; null or undefined = no cap; a monthly cap of 0 = no cap. */
  caps: Partial<Record<CapPeriod, number | null>>;
  /** Budget caps in cents (issue 33); null or undefined = no budget. */
  budgets?: Partial<Record<'daily' | 'weekly' | 'monthly', number | null>>;
  /** The buyer's daily budget across its campaigns, in cents; null = none. */
  buyerDailyBudgetCents?: number | null;
  time: CampaignTime | null;
  sourceFilters: readonly SourceFilter[];
  /**
   * Its field filters (issue 33), compiled once per snapshot, by service: a rule applies to the leads
   * of the services that define its field. Absent or empty: no filter.
   */
  fieldFilters?: ReadonlyMap<string, readonly SharedFieldFilter[]>;
  /** When it last sold (epoch ms, 0 = never): equal bids rotate, least recently sold first. */
  lastSoldAt: number;
  /** Buys only leads whose consent names its buyer (issue 34 item 4); a Medicare service requires it anyway. */
  requireNamedConsent?: boolean;
  /** Its services marked Medicare: their leads need consent naming the buyer, whatever the campaign says. */
  medicareServices?: ReadonlySet<string>;
  /** The buyer's legal names as `consentNameKey`s (packages/domain/src/compliance.ts). */
  legalNameKeys?: readonly string[];
  /** Refuses a lead that arrives outside the consumer's calling window (issue 34 item 5). */
  refuseOutsideCallingWindow?: boolean;
}

/** What the engine knows about a lead (or a ping) when deciding who may buy it. */
export interface LeadFacts {
  /** Ping id or lead id: seeds the deterministic percent throttle, so tests repeat. */
  key: string;
  sourceId: string;
  channel: string | null;
  service: string;
  zip: string;
  /** From the ZIP table; null for a ZIP not in it (matches ZIP-list campaigns only). */
  state: string | null;
  /** The Branded Id the request named, if any (rule 8). */
  campaign: string | null;
  /** Buyers that already bought this phone or email within the duplicate window (rule 9). */
  duplicateBuyerIds: ReadonlySet<string>;
  /** Buyers whose own suppression list holds the lead's phone, email or ZIP -> the list's name (issue 34). */
  suppressedBuyers?: ReadonlyMap<string, string>;
  now: Date;
  /**
   * The service's own fields as read (issue 33): `{ [key]: value }`, money in integer cents. At a ping,
   * only its ping-stage fields that are not personal; at a post or direct lead, every field sent (with the
   * ping's carried over). The definitions are the snapshot's `serviceFields`.
   */
  fields: Record<string, FieldValue>;
  /**
   * `ping`: a rule on a post-only field the ping does not carry is deferred to the post (the ping's
   * answer names it); `post` (the default): every rule is checked with what the lead holds.
   */
  stage?: 'ping' | 'post';
  /**
   * The consent language as a `consentNameKey`: '' when the lead has none; undefined at a ping, which
   * carries no consent (named consent is checked at the post).
   */
  consentKey?: string;
  /**
   * Why the consumer may not be called now (outside the state's hours, a Sunday, a holiday), or null
   * when they may; computed once, on the first campaign that asks. Absent: not known (no check).
   */
  outsideCallingWindow?: () => string | null;
}

/** Cap counts of the current periods, by campaign id then period (a Map will do). */
export interface CapCounts {
  get(campaignId: string): Partial<Record<CapPeriod, number>> | undefined;
  /** Cents spent by a campaign or buyer in a budget period (issue 33); without it, budgets are left to the sale. */
  spent?(ownerId: string, period: 'daily' | 'weekly' | 'monthly' | 'buyer_daily', periodStart: Date): number;
}

/**
 * The rules in the order they are checked; an excluded campaign names the first it failed. `cap`
 * and `delivery` may also come from the sale itself (a cap filled, a live delivery said Not Accepted),
 * `bid` from a Ping/Post buyer's ping (no bid, a timeout or an error: DESIGN.md §6).
 */
export type Rule =
  | 'status'
  | 'suppressed'
  | 'branded'
  | 'service'
  | 'location'
  | 'time'
  | 'filter'
  | 'cap'
  | 'source'
  | 'budget'
  | 'duplicate'
  | 'consent'
  | 'calling_window'
  | 'delivery'
  | 'balance'
  | 'bid';

export type Eligibility =
  | {
      eligible: true;
      priceCents: number;
      sharedPriceCents: number | null;
      /** At ping: the fields of the rules left to the post (the sale depends on them). */
      pending?: readonly string[];
    }
  | { eligible: false; rule: Rule; detail: string };

/** One line of a lead's explanation: a campaign considered and why it could or could not bid. */
export interface ExplanationEntry {
  campaignId: string;
  buyerId: string;
  name: string;
  eligibility: Eligibility;
  /** A Ping/Post buyer's campaign: how its system answered the ping, or refused the post. */
  bidOutcome?: BidOutcome;
}

/** One campaign's offer for a lead. */
export interface Bid {
  campaignId: string;
  buyerId: string;
  /** Exclusive price (after source-restriction overrides). */
  priceCents: number;
  /** Shared price, when the campaign takes shared leads. */
  sharedPriceCents: number | null;
  lastSoldAt: number;
}

export interface AuctionResult {
  kind: 'exclusive' | 'shared';
  /** One winner for exclusive; up to N distinct buyers for shared. */
  winners: { campaignId: string; buyerId: string; priceCents: number }[];
  revenueCents: number;
}

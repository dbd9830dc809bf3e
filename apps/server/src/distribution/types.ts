import type { BidOutcome } from '@leadex/domain';
import type { CampaignTime } from '../db/schema';

/** The cap periods, counted in the campaign's time zone (DESIGN.md §5 rule 5). */
import type { CapPeriod } from '../lib/time';

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
  /** When it last sold (epoch ms, 0 = never): equal bids rotate, least recently sold first. */
  lastSoldAt: number;
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
  | 'cap'
  | 'source'
  | 'budget'
  | 'duplicate'
  | 'delivery'
  | 'balance'
  | 'bid';

export type Eligibility =
  | { eligible: true; priceCents: number; sharedPriceCents: number | null }
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

import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/ids';
import { centsToDollars } from '../../lib/money';
import { runAuction } from '../auction';
import { applyBids, type BidRound, NO_ROUND } from '../bidding';
import { type BudgetSlot, budgetLockOrder, budgetSlots } from '../budgets';
import { type CapSlot, capSlots, lockOrder } from '../caps';
import { bidsFor } from '../eligibility';
import type { Engine, SourceCaller } from '../engine';
import { type ExplanationRecord, packExplanation } from '../explanation';
import type { SuppressionVerdict } from '../ports';
import type { AuctionResult, Bid, ExplanationEntry, LeadFacts } from '../types';
import type { LeadRecord, MatchRecord } from './sale.repo';
import type { LeadAnswer, SaleRequest } from './types';

/** What the sale's parts read: the engine's memory and the clock. */
export interface SaleContext {
  engine: Engine;
  clock: Clock;
}

/** What a sale decided besides the auction: the campaigns dropped during it, and the inline deliveries' match ids. */
export interface SaleAdjustments {
  /** Campaigns whose cap filled during the sale. */
  capFilled: ReadonlySet<string>;
  /** Campaigns whose buyer's balance or credit does not cover the price (rule 7). */
  overBalance: ReadonlySet<string>;
  /** Campaigns whose budget (or their buyer's) the price would pass -> which budget (issue 33). */
  overBudget?: ReadonlyMap<string, string>;
  /** Campaigns of buyers whose live delivery refused the lead -> the refusing delivery (and its reason, after a colon). */
  refused: ReadonlyMap<string, string>;
  /** The match ids the inline deliveries were sent under, by campaign. */
  matchIds: ReadonlyMap<string, string>;
}

const UNADJUSTED: SaleAdjustments = {
  capFilled: new Set(),
  overBalance: new Set(),
  refused: new Map(),
  matchIds: new Map(),
};

/** How each campaign decided, as the API answers it (and the simulator shows it). */
export function explanationOf(considered: ExplanationEntry[], result: AuctionResult | null): ExplanationRecord[] {
  const winners = new Map(result?.winners.map((w) => [w.campaignId, w.priceCents]) ?? []);
  return considered.map(({ campaignId, buyerId, name, eligibility, bidOutcome }) => ({
    campaign: campaignId,
    buyer: buyerId,
    name,
    eligible: eligibility.eligible,
    ...(eligibility.eligible
      ? { price: centsToDollars(winners.get(campaignId) ?? eligibility.priceCents), won: winners.has(campaignId) }
      : { rule: eligibility.rule, detail: eligibility.detail }),
    ...(bidOutcome ? { bid_outcome: bidOutcome } : {}),
  }));
}

/** What eligibility reads of a lead or a ping. */
export function factsOf(
  { engine, clock }: SaleContext,
  key: string,
  caller: SourceCaller,
  input: {
    service: string;
    zip: string;
    channel: string | null;
    campaign: string | null;
    suppression?: SuppressionVerdict | null;
  },
  duplicateBuyerIds: ReadonlySet<string>,
): LeadFacts {
  return {
    key,
    sourceId: caller.source.id,
    channel: input.channel,
    service: input.service,
    zip: input.zip,
    state: engine.stateOf(input.zip),
    campaign: input.campaign,
    duplicateBuyerIds,
    ...(input.suppression?.buyers.size ? { suppressedBuyers: input.suppression.buyers } : {}),
    now: clock.now(),
  };
}

/**
 * The explanation of a lead refused before pricing (issue 34): one line naming the exchange-wide list
 * that holds its contact, for the admin; the source is answered `suppressed` and nothing more.
 */
export function suppressedExplanation(global: NonNullable<SuppressionVerdict['global']>): ExplanationEntry[] {
  return [
    {
      campaignId: '',
      buyerId: '',
      name: '',
      eligibility: {
        eligible: false,
        rule: 'suppressed',
        detail: `the ${global.kind} is on the exchange's suppression list "${global.listName}": refused before pricing`,
      },
    },
  ];
}

/** The bids once the Ping/Post buyers have answered (a no-op where the exchange has none). */
export function priced(
  engine: Engine,
  bids: Bid[],
  considered: ExplanationEntry[],
  round: BidRound | undefined,
  unpinged: string,
) {
  const pingPost = engine.snapshot().pingPostDeliveries;
  if (pingPost.size === 0 && !round) return { bids, considered };
  return applyBids(bids, considered, pingPost, round ?? NO_ROUND, unpinged);
}

/** The auction's memory of a lead: its bids, how each campaign decided, and the auction run without some of them. */
export interface LeadAuction {
  result: AuctionResult | null;
  considered: ExplanationEntry[];
  /** The auction again, without these campaigns (the careful path's fall-through). */
  run(excluded: ReadonlySet<string>): AuctionResult | null;
}

/** The auction of a lead to sell, from memory; the buyers that bought its phone or email are left out. */
export function auction(
  ctx: SaleContext,
  req: SaleRequest,
  lead: LeadRecord,
  duplicateBuyerIds: ReadonlySet<string>,
): LeadAuction {
  const { engine } = ctx;
  const global = req.suppression?.global;
  if (global) return { result: null, considered: suppressedExplanation(global), run: () => null };
  const eligible = bidsFor(
    engine.campaignsFor(req.service, req.campaign),
    factsOf(ctx, req.pingId ?? lead.id, req.caller, req, duplicateBuyerIds),
    engine.capCounts(),
  );
  const { bids, considered } = priced(
    engine,
    eligible.bids,
    eligible.considered,
    req.bidRound,
    req.test ? 'a test lead is not sent to Ping/Post buyers' : 'not pinged for this lead',
  );
  const rules = { maxSharedBuyers: engine.snapshot().settings.sharedBuyers, minRevenueCents: req.payoutCents };
  const run = (excluded: ReadonlySet<string>) =>
    req.belowMinPrice
      ? null
      : runAuction(excluded.size > 0 ? bids.filter((b) => !excluded.has(b.campaignId)) : bids, rules);
  return { result: run(new Set()), considered, run };
}

/** The lead as it will be stored; the answer, explanation and prices are filled by the sale. */
export function leadRecord(engine: Engine, req: SaleRequest, now: Date): LeadRecord {
  const contact = req.contact;
  return {
    id: newId('lead'),
    sourceId: req.caller.source.id,
    apiKeyId: req.caller.key.id,
    channel: req.channel,
    service: req.service,
    zip: req.zip,
    state: contact.state?.toUpperCase() ?? engine.stateOf(req.zip),
    city: contact.city ?? null,
    name: contact.name ?? ([contact.first_name, contact.last_name].filter(Boolean).join(' ') || null),
    firstName: contact.first_name ?? null,
    lastName: contact.last_name ?? null,
    address: contact.address ?? null,
    phone: contact.phone ?? null,
    email: contact.email ?? null,
    tcpaConsent: contact.tcpa_consent ?? null,
    tcpaLanguage: contact.tcpa_language ?? null,
    trustedForm: contact.trusted_form ?? null,
    trustedFormPingUrl: contact.trusted_form_ping_url ?? null,
    jornaya: contact.jornaya ?? null,
    // The consumer's, as the source sent them: the request's own address and client are the poster's.
    ip: contact.ip ?? null,
    userAgent: contact.user_agent ?? null,
    request: { ip: req.meta.ip, ...(req.meta.userAgent ? { user_agent: req.meta.userAgent } : {}) },
    pubId: contact.pub_id ?? null,
    subId: contact.sub_id ?? null,
    homeowner: contact.homeowner ?? null,
    metadata: contact.metadata ?? null,
    fieldFlags: contact.flags?.length ? contact.flags : null,
    pingId: req.pingId ?? 'no_ping',
    test: req.test,
    answer: {},
    explanation: [],
    priceCents: 0,
    costCents: 0,
    createdAt: now,
  };
}

/** A campaign's cap slots at `now`, from the engine's snapshot. */
export function slotsOf(engine: Engine, campaignId: string, now: Date): CapSlot[] {
  const campaign = engine.snapshot().campaigns.find((c) => c.id === campaignId);
  return campaign ? capSlots(campaign, now) : [];
}

/** A campaign's budget slots (its own and its buyer's) for a sale at this price at `now`, from the engine's snapshot. */
export function budgetSlotsOf(engine: Engine, campaignId: string, priceCents: number, now: Date): BudgetSlot[] {
  const campaign = engine.snapshot().campaigns.find((c) => c.id === campaignId);
  return campaign ? budgetSlots(campaign, priceCents, now) : [];
}

/** The lead row a sale stores, its answer, and (a real lead sold) its matches and the cap and budget slots it takes. */
export interface Decision {
  row: LeadRecord;
  answer: LeadAnswer;
  sale: { kind: AuctionResult['kind']; matches: MatchRecord[]; caps: CapSlot[]; budgets: BudgetSlot[] } | null;
}

/** The campaign as the explanation tells it, once the sale has dropped it (or not). */
function adjusted(req: SaleRequest, entry: ExplanationEntry, by: SaleAdjustments): ExplanationEntry {
  const refusedBy = by.refused.get(entry.campaignId);
  if (refusedBy !== undefined)
    return {
      ...entry,
      eligibility: { eligible: false, rule: 'delivery', detail: `Not Accepted by ${refusedBy}` },
      ...(req.bidRound?.bids.has(entry.buyerId) ? { bidOutcome: 'refused_post' as const } : {}),
    };
  const budget = by.overBudget?.get(entry.campaignId);
  if (budget !== undefined) return { ...entry, eligibility: { eligible: false, rule: 'budget', detail: budget } };
  if (by.overBalance.has(entry.campaignId))
    return {
      ...entry,
      eligibility: {
        eligible: false,
        rule: 'balance',
        detail: "the buyer's balance or credit does not cover the price",
      },
    };
  return by.capFilled.has(entry.campaignId)
    ? { ...entry, eligibility: { eligible: false, rule: 'cap', detail: 'cap filled during the sale' } }
    : entry;
}

/** What the auction decided, as the lead row, its answer, its matches and the cap slots the sale takes. */
export function decide(
  engine: Engine,
  req: SaleRequest,
  lead: LeadRecord,
  considered: ExplanationEntry[],
  result: AuctionResult | null,
  by: SaleAdjustments = UNADJUSTED,
): Decision {
  const explanation = packExplanation(
    explanationOf(
      considered.map((entry) => adjusted(req, entry, by)),
      result,
    ),
  );
  if (!result) {
    const answer: LeadAnswer = {
      ok: false,
      lead_id: lead.id,
      reason: req.suppression?.global ? 'suppressed' : 'no_match',
    };
    return { row: { ...lead, explanation, answer }, answer, sale: null };
  }
  const answer: LeadAnswer = {
    ok: true,
    lead_id: lead.id,
    price: centsToDollars(req.payoutCents),
    status: 'sold',
    ...(req.test ? { test: true as const } : {}),
  };
  // A test lead gets the answer a real one would, and never counts toward caps or bills.
  if (req.test) return { row: { ...lead, explanation, answer }, answer, sale: null };
  const row = { ...lead, explanation, answer, priceCents: result.revenueCents, costCents: req.payoutCents };
  const matches = result.winners.map((w) => ({
    id: by.matchIds.get(w.campaignId) ?? newId('mat'),
    campaignId: w.campaignId,
    buyerId: w.buyerId,
    priceCents: w.priceCents,
  }));
  return {
    row,
    answer,
    sale: {
      kind: result.kind,
      matches,
      caps: lockOrder(result.winners.flatMap((w) => slotsOf(engine, w.campaignId, lead.createdAt))),
      budgets: budgetLockOrder(
        result.winners.flatMap((w) => budgetSlotsOf(engine, w.campaignId, w.priceCents, lead.createdAt)),
      ),
    },
  };
}

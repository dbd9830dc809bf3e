import { newId } from '../../lib/ids';
import { centsToDollars } from '../../lib/money';
import { type BudgetSlot, budgetLockOrder, budgetSlots } from '../budgets';
import { type CapSlot, capSlots, lockOrder } from '../caps';
import type { Engine } from '../engine';
import { type ExplanationRecord, packExplanation } from '../explanation';
import type { AuctionResult, ExplanationEntry } from '../types';
import type { LeadRecord, MatchRecord } from './sale.repo';
import type { LeadAnswer, SaleRequest } from './types';

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

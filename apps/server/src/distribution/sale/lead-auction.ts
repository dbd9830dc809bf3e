import { consentNameKey, type FieldValue } from '@leadex/domain';
import { callingWindowOf } from '../../lib/calling-window';
import { runAuction } from '../auction';
import { applyBids, type BidRound, NO_ROUND } from '../bidding';
import { bidsFor } from '../eligibility';
import type { Engine, SourceCaller } from '../engine';
import type { SuppressionVerdict } from '../ports';
import type { AuctionResult, Bid, ExplanationEntry, LeadFacts } from '../types';
import type { LeadRecord } from './sale.repo';
import type { SaleContact, SaleContext, SaleRequest } from './types';

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
    fields?: Record<string, FieldValue>;
    contact?: SaleContact;
    suppression?: SuppressionVerdict | null;
  },
  duplicateBuyerIds: ReadonlySet<string>,
): LeadFacts {
  const state = engine.stateOf(input.zip);
  const now = clock.now();
  const phone = input.contact?.phone ?? null;
  let outside: string | null | undefined;
  return {
    key,
    sourceId: caller.source.id,
    channel: input.channel,
    service: input.service,
    zip: input.zip,
    state,
    campaign: input.campaign,
    duplicateBuyerIds,
    fields: input.fields ?? {},
    ...(input.suppression?.buyers.size ? { suppressedBuyers: input.suppression.buyers } : {}),
    now,
    // A ping carries no consent: named consent waits for the post.
    ...(input.contact ? { consentKey: consentNameKey(input.contact.tcpa_language ?? '') } : {}),
    outsideCallingWindow: () => {
      if (outside === undefined) {
        const window = callingWindowOf({ zip: input.zip, phone, state: state ?? input.contact?.state ?? null }, now);
        // A zone nothing tells (no known ZIP nor area code) is no window a buyer may rely on.
        outside =
          window === null
            ? 'the consumer’s time zone is unknown (ZIP and area code)'
            : window.open
              ? null
              : `${window.reason} (${window.localTime})`;
      }
      return outside;
    },
  };
}

/** Two suppression verdicts as one: the first global list of either, and every buyer's list of both. */
export function mergeVerdicts(a: SuppressionVerdict | null, b: SuppressionVerdict | null): SuppressionVerdict | null {
  if (!a || !b) return a ?? b;
  return { global: a.global ?? b.global, buyers: new Map([...b.buyers, ...a.buyers]) };
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

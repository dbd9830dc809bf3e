import { CONSENT_EVIDENCE_FIELD_NAMES, isPingPost } from '@leadex/domain';
import type { SqlRunner } from '../../db/raw';
import { newId } from '../../lib/ids';
import { type BudgetSlot, budgetLockOrder, budgetReached } from '../budgets';
import { type CapSlot, lockOrder } from '../caps';
import type { ConsentEvidenceRecord, InlineAttempt, InlineDeliveries, LiveDelivery } from '../ports';
import type { AuctionResult } from '../types';
import { budgetSlotsOf, type Decision, decide, slotsOf } from './decide';
import type { LeadAuction } from './lead-auction';
import {
  consentEvidenceOf,
  type LeadRecord,
  type MatchRecord,
  recordInline,
  releaseBudgets,
  releaseBuyerSpend,
  releaseCaps,
  takeBudgets,
  takeBuyerSpend,
  takeCampaignCaps,
} from './sale.repo';
import type { SaleContext, SaleRequest } from './types';

type Winner = AuctionResult['winners'][number];

/**
 * One careful sale, in its transaction (see `sellCarefully`, sell-carefully.ts): the winners' cap
 * slots are taken in turn (a full cap, or a buyer's spend that does not cover the price, moves the
 * sale to the next bidders while the revenue still covers the payout); a winner whose buyer has live
 * custom deliveries gets the lead there and then (DESIGN.md §6): Not Accepted rejects its match and
 * the auction runs again without that buyer. A winner that took the lead stays in the sale.
 */
/** The delivery fields that need the consent evidence read in the sale's transaction. */
const EVIDENCE_FIELDS: ReadonlySet<string> = new Set(CONSENT_EVIDENCE_FIELD_NAMES);

export class CarefulSale {
  /** Campaigns whose cap filled during the sale. */
  private readonly full = new Set<string>();
  /** Campaigns whose buyer's prepay balance or credit does not cover their price (rule 7). */
  private readonly broke = new Set<string>();
  /** Campaigns of buyers whose live delivery refused the lead -> the refusing delivery, and its reason. */
  private readonly refused = new Map<string, string>();
  /** Cap slots held by campaigns of the current winners. */
  private readonly held = new Map<string, CapSlot[]>();
  /** Campaigns whose budget (or their buyer's) the price would pass -> which budget (issue 33). */
  private readonly overBudget = new Map<string, string>();
  /** Budget raised by campaigns of the current winners, at their price. */
  private readonly budgeted = new Map<string, { priceCents: number; slots: BudgetSlot[] }>();
  /** Prices reserved on buyers' spend (rule 7) by campaigns of the current winners. */
  private readonly spending = new Map<string, Winner>();
  /** Winners that have the lead through a live delivery: they stay in the sale whatever follows. */
  private readonly kept = new Map<string, Winner>();
  private readonly matchIds = new Map<string, string>();
  private readonly buyerLeadIds: { matchId: string; buyerLeadId: string }[] = [];
  /** The matches the buyers' live deliveries refused: stored rejected, never billed or delivered. */
  readonly rejected: MatchRecord[] = [];
  /** Every live delivery's attempt, for the delivery logs. */
  readonly attempts: InlineAttempt[] = [];
  private kind: AuctionResult['kind'];
  /** The lead's consent evidence as it will be stored, once read (see `evidenceFor`). */
  private evidence: ConsentEvidenceRecord | null | undefined;

  constructor(
    private readonly tx: SqlRunner,
    private readonly parts: SaleContext & { inline?: InlineDeliveries },
    private readonly req: SaleRequest,
    private readonly lead: LeadRecord,
    private readonly auction: LeadAuction,
    /** The buyers' live deliveries, read before the transaction. */
    private readonly live: ReadonlyMap<string, LiveDelivery[]> = new Map(),
  ) {
    this.kind = auction.result?.kind ?? 'exclusive';
  }

  /** The sale run to its end: answers the auction that stands (null: nobody buys), its slots and spend held. */
  async settle(): Promise<AuctionResult | null> {
    let result = this.auction.result;
    while (result && !this.req.test) {
      this.kind = result.kind;
      if ((await this.takeWinners(result)) && !(await this.deliverInline(result))) break;
      result = this.rerun();
      await this.releaseLosers(result);
    }
    if (!result) await this.releaseLosers(null);
    return result;
  }

  /**
   * Takes each new winner's cap slots and reserves its price on its buyer's spend (rule 7), in the
   * one-statement sale's lock order (campaign, then period), so concurrent sales never deadlock.
   * False when a cap was full or a buyer's spend did not cover the price: the auction runs again.
   */
  async takeWinners(result: AuctionResult): Promise<boolean> {
    let taken = true;
    const byCampaign = [...result.winners].sort((a, b) => (a.campaignId < b.campaignId ? -1 : 1));
    for (const w of byCampaign) {
      if (!this.held.has(w.campaignId)) {
        const slots = lockOrder(slotsOf(this.parts.engine, w.campaignId, this.lead.createdAt));
        if (!(await takeCampaignCaps(this.tx, slots))) {
          this.full.add(w.campaignId);
          taken = false;
          continue;
        }
        this.held.set(w.campaignId, slots);
      }
      // Budgets count the price paid: a winner whose price changed had its raise given back, and raises again.
      if (!this.budgeted.has(w.campaignId)) {
        const slots = budgetLockOrder(
          budgetSlotsOf(this.parts.engine, w.campaignId, w.priceCents, this.lead.createdAt),
        );
        const over = await takeBudgets(this.tx, slots);
        if (over) {
          this.overBudget.set(w.campaignId, budgetReached(over.period, over.limitCents));
          await releaseCaps(this.tx, this.held.get(w.campaignId) ?? []);
          this.held.delete(w.campaignId);
          taken = false;
          continue;
        }
        this.budgeted.set(w.campaignId, { priceCents: w.priceCents, slots });
      }
      // A winner whose price changed (shared, then alone) had its reservation released: it takes the new one.
      if (this.spending.has(w.campaignId)) continue;
      // Rule 7: a prepay or credit buyer buys only what its balance or credit still covers.
      if (await takeBuyerSpend(this.tx, w.buyerId, w.priceCents)) this.spending.set(w.campaignId, w);
      else {
        this.broke.add(w.campaignId);
        taken = false;
      }
    }
    return taken;
  }

  /**
   * What a winner's sale runs: its live Direct deliveries, and of its Ping/Post deliveries only the
   * one whose ping made the winning bid (its post); the others asked for no lead.
   */
  private deliveriesOf(buyerId: string): LiveDelivery[] {
    const bid = this.req.bidRound?.bids.get(buyerId);
    return (this.live.get(buyerId) ?? []).filter((d) => !isPingPost(d.ping_id) || d._id === bid?.deliveryId);
  }

  private matchIdOf(w: Winner): string {
    const id = this.matchIds.get(w.campaignId) ?? newId('mat');
    this.matchIds.set(w.campaignId, id);
    return id;
  }

  /**
   * Sends the lead to the live deliveries of the winners that do not have it yet, all at once. A
   * buyer that says no refuses it for all its campaigns; one that takes it is kept. True when a
   * buyer refused (the auction runs again without it).
   */
  async deliverInline(result: AuctionResult): Promise<boolean> {
    const { inline } = this.parts;
    const asked = result.winners.filter((w) => !this.kept.has(w.campaignId) && this.deliveriesOf(w.buyerId).length > 0);
    if (asked.length === 0 || !inline) return false;
    const consentEvidence = await this.evidenceFor(asked.flatMap((w) => this.deliveriesOf(w.buyerId)));
    const outcomes = await Promise.all(
      asked.map((w) =>
        inline.deliver(
          this.deliveriesOf(w.buyerId),
          {
            // The page URL rides in the request until the evidence takes it (the trigger): the delivery reads it here.
            lead: { ...this.lead, consentPageUrl: this.lead.request.consent?.page_url ?? null, consentEvidence },
            priceCents: w.priceCents,
            buyerPingId: this.req.bidRound?.bids.get(w.buyerId)?.buyerPingId ?? null,
          },
          this.matchIdOf(w),
        ),
      ),
    );
    let anyRefused = false;
    outcomes.forEach((outcome, i) => {
      const w = asked[i] as Winner;
      this.attempts.push(...outcome.attempts);
      if (outcome.buyerLeadId !== undefined)
        this.buyerLeadIds.push({ matchId: this.matchIdOf(w), buyerLeadId: outcome.buyerLeadId });
      if (outcome.verdict === 'rejected') {
        anyRefused = true;
        this.rejected.push({
          id: this.matchIdOf(w),
          campaignId: w.campaignId,
          buyerId: w.buyerId,
          priceCents: w.priceCents,
        });
        // The buyer said no to this lead: none of its campaigns buys it.
        for (const c of this.auction.considered)
          if (c.buyerId === w.buyerId) this.refused.set(c.campaignId, refusalOf(outcome));
      } else this.kept.set(w.campaignId, w);
    });
    return anyRefused;
  }

  /**
   * The consent evidence the lead will have once stored, for deliveries that map it (issue 34 item 3):
   * read once, in the sale's transaction, and only when some delivery asks for it.
   */
  private async evidenceFor(deliveries: LiveDelivery[]): Promise<ConsentEvidenceRecord | null> {
    if (this.evidence !== undefined) return this.evidence;
    if (!deliveries.some((d) => d.map.some((row) => EVIDENCE_FIELDS.has(row.field)))) return null;
    this.evidence = await consentEvidenceOf(this.tx, this.lead);
    return this.evidence;
  }

  /** The auction again without the campaigns dropped so far; a winner that has the lead is never dropped. */
  rerun(): AuctionResult | null {
    const next = this.auction.run(
      new Set([...this.full, ...this.broke, ...this.overBudget.keys(), ...this.refused.keys()]),
    );
    const keptWinners = [...this.kept.values()];
    if (keptWinners.length === 0 || keptWinners.every((k) => next?.winners.some((w) => w.campaignId === k.campaignId)))
      return next;
    // The next auction would leave out a buyer that already has the lead: the sale is what stands.
    return { kind: this.kind, winners: keptWinners, revenueCents: keptWinners.reduce((n, w) => n + w.priceCents, 0) };
  }

  /** Gives back the cap slots and the spend of the campaigns that are no longer winners (at their price). */
  async releaseLosers(result: AuctionResult | null): Promise<void> {
    for (const [campaignId, slots] of this.held) {
      if (result?.winners.some((w) => w.campaignId === campaignId)) continue;
      await releaseCaps(this.tx, slots);
      this.held.delete(campaignId);
    }
    for (const [campaignId, raised] of this.budgeted) {
      if (result?.winners.some((x) => x.campaignId === campaignId && x.priceCents === raised.priceCents)) continue;
      await releaseBudgets(this.tx, raised.slots);
      this.budgeted.delete(campaignId);
    }
    for (const [campaignId, w] of this.spending) {
      if (result?.winners.some((x) => x.campaignId === campaignId && x.priceCents === w.priceCents)) continue;
      await releaseBuyerSpend(this.tx, w.buyerId, w.priceCents);
      this.spending.delete(campaignId);
    }
  }

  /** The lead as the sale decided it, with what dropped each campaign that fell out. */
  decision(result: AuctionResult | null): Decision {
    const { considered } = this.auction;
    const by = {
      capFilled: this.full,
      overBalance: this.broke,
      overBudget: this.overBudget,
      refused: this.refused,
      matchIds: this.matchIds,
    };
    return decide(this.parts.engine, this.req, this.lead, considered, result, by);
  }

  /** Stores what the live deliveries did, in the sale's transaction, once the lead is stored. */
  async recordInline(): Promise<void> {
    const accepted = this.buyerLeadIds.filter((b) => !this.rejected.some((m) => m.id === b.matchId));
    await recordInline(this.tx, this.lead.id, this.kind, this.lead.createdAt, this.attempts, this.rejected, accepted);
  }
}

/** Who refused the lead and, when the buyer's answer says, why: "CRM: duplicate in our system". */
function refusalOf(outcome: { refusedBy?: string; refusedReason?: string }): string {
  const by = outcome.refusedBy ?? 'a custom delivery';
  return outcome.refusedReason ? `${by}: ${outcome.refusedReason}` : by;
}

import { isPingPost } from '@leadex/domain';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rawDb, type SqlRunner } from '../db/raw';
import { idempotencyKeys, leads } from '../db/schema';
import { type Clock, toEpochSeconds } from '../lib/clock';
import { AppError } from '../lib/errors';
import { newId } from '../lib/ids';
import type { Logger } from '../lib/logger';
import { centsToDollars } from '../lib/money';
import { runAuction } from './auction';
import { applyBids, type BidRound, buyersToPing, NO_ROUND, packRound, roundOf } from './bidding';
import { type CapSlot, capSlots, lockOrder } from './caps';
import { bidsFor } from './eligibility';
import type { Engine, SourceCaller } from './engine';
import { type ExplanationRecord, packExplanation } from './explanation';
import { emailHash, phoneHash } from './normalize';
import { newPingId, PING_TOKEN_TTL_SECONDS, sealPingToken } from './ping-token';
import type { InlineAttempt, InlineDeliveries, LiveDelivery, Pinger, PingFacts } from './ports';
import {
  answerIdempotencyKey,
  claimIdempotencyKey,
  IDEMPOTENCY_TTL_MS,
  type LeadRecord,
  type MatchRecord,
  priorSales,
  recordInline,
  releaseBuyerSpend,
  releaseCaps,
  storeSale,
  takeBuyerSpend,
  takeCampaignCaps,
  takePingTurn,
} from './sale.repo';
import type { AuctionResult, Bid, ExplanationEntry, LeadFacts } from './types';

/** What a sale ended in: an answer (with the matches it sold), or a replay of an earlier answer. */
type Outcome =
  | { answer: Answer; matches: MatchRecord[]; attempts?: InlineAttempt[] }
  | { replay: 'ping' | 'idempotency' };

type Winner = AuctionResult['winners'][number];

/** A sale met a lead already stored for its ping id: the transaction is undone and the first answer replayed. */
class ReplayPing extends Error {}

const NO_INLINE = { matchIds: new Map<string, string>(), refused: new Map<string, string>() };

/** A source re-posting the same lead within this window is refused as a duplicate (DESIGN.md §5 rule 9). */
const REPOST_WINDOW_MS = 5 * 60_000;

export type Answer = { status: number; body: Record<string, unknown> };

/** Where a request came from: kept with the lead as consent evidence. */
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
  trusted_form?: string;
  jornaya?: string;
  ip?: string;
  user_agent?: string;
  sub_id?: string;
  pub_id?: string;
  metadata?: Record<string, unknown>;
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
  meta: RequestMeta;
}

function explanationOf(considered: ExplanationEntry[], result: AuctionResult | null): ExplanationRecord[] {
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
  pub_id?: string;
  sub_id?: string;
}

/** A ping's answer, with how each campaign decided (the simulator shows it). */
export type QuoteAnswer = Answer & { explanation: ExplanationRecord[] };

/** What a sale works with (and the public source API, which sells through it). */
export interface SaleDeps {
  db: Db;
  clock: Clock;
  engine: Engine;
  /** Signs the ping_id, so a post sells at the quoted price without a lookup. */
  secret: string;
  /** Called after a sale is stored: the job dispatcher starts delivering it at once. */
  onSale?: () => void;
  /** Buyers' live custom deliveries, run during the sale (DESIGN.md §6). */
  inline?: InlineDeliveries;
  /** Pings the Ping/Post buyers' systems for their bids (DESIGN.md §6). */
  pinger?: Pinger;
  /** Where a failure after the answer is reported (the delivery outcomes kept for the campaigns). */
  logger?: Pick<Logger, 'error'>;
}

/**
 * The engine's verb (DESIGN.md §5): quote a ping from memory, and sell a lead once: the one-statement
 * fast path, the careful path with cap locks and fall-through to the next bidders, and the buyers'
 * live deliveries run inline. `sale.repo.ts` is the only writer of leads, matches and delivery
 * attempts during a sale.
 */
export function createSale({ db, clock, engine, secret, onSale, inline, pinger, logger }: SaleDeps) {
  const raw = rawDb(db);

  /**
   * Pings the Ping/Post buyers among these bids (DESIGN.md §6), all at once, each under its own
   * timeout, and logs every call (batched, like the ping records); null when none is to be pinged,
   * so a lead without Ping/Post buyers waits on nothing.
   */
  function pingBuyers(bids: readonly Bid[], facts: PingFacts, on: { pingId: string } | { leadId: string }) {
    const pingPost = engine.snapshot().pingPostDeliveries;
    const asked = buyersToPing(bids, pingPost);
    if (asked.length === 0 || !pinger) return null;
    const deliveries = asked.flatMap((buyerId) => pingPost.get(buyerId) ?? []);
    const key = 'pingId' in on ? on.pingId : on.leadId;
    return pinger.pingAll(deliveries, facts, key).then((calls) => {
      engine.recorder.pingCalls(
        calls.map((c) => ({
          ...c,
          pingId: 'pingId' in on ? on.pingId : null,
          leadId: 'leadId' in on ? on.leadId : null,
        })),
      );
      return roundOf(calls);
    });
  }

  /** The bids once the Ping/Post buyers have answered (a no-op where the exchange has none). */
  function priced(bids: Bid[], considered: ExplanationEntry[], round: BidRound | undefined, unpinged: string) {
    const pingPost = engine.snapshot().pingPostDeliveries;
    if (pingPost.size === 0 && !round) return { bids, considered };
    return applyBids(bids, considered, pingPost, round ?? NO_ROUND, unpinged);
  }

  function facts(
    key: string,
    caller: SourceCaller,
    input: { service: string; zip: string; channel: string | null; campaign: string | null },
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
      now: clock.now(),
    };
  }

  /** The lead as it will be stored; the answer, explanation and prices are filled by the sale. */
  function leadRecord(req: SaleRequest, now: Date): LeadRecord {
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
      jornaya: contact.jornaya ?? null,
      ip: contact.ip ?? req.meta.ip,
      userAgent: contact.user_agent ?? req.meta.userAgent ?? null,
      pubId: contact.pub_id ?? null,
      subId: contact.sub_id ?? null,
      homeowner: contact.homeowner ?? null,
      metadata: contact.metadata ?? null,
      pingId: req.pingId ?? 'no_ping',
      test: req.test,
      answer: {},
      explanation: [],
      priceCents: 0,
      costCents: 0,
      createdAt: now,
    };
  }

  /** What the auction decided, as the lead row, its matches and the cap slots the sale takes. */
  function decide(
    req: SaleRequest,
    lead: LeadRecord,
    considered: ExplanationEntry[],
    result: AuctionResult | null,
    capFilled: ReadonlySet<string>,
    inlineSale: { matchIds: ReadonlyMap<string, string>; refused: ReadonlyMap<string, string> } = NO_INLINE,
    overBalance: ReadonlySet<string> = new Set(),
  ) {
    const explanation = packExplanation(
      explanationOf(
        considered.map((entry) => {
          const refusedBy = inlineSale.refused.get(entry.campaignId);
          if (refusedBy !== undefined)
            return {
              ...entry,
              eligibility: { eligible: false, rule: 'delivery', detail: `Not Accepted by ${refusedBy}` },
              ...(req.bidRound?.bids.has(entry.buyerId) ? { bidOutcome: 'refused_post' as const } : {}),
            };
          if (overBalance.has(entry.campaignId))
            return {
              ...entry,
              eligibility: {
                eligible: false,
                rule: 'balance',
                detail: "the buyer's balance or credit does not cover the price",
              },
            };
          return capFilled.has(entry.campaignId)
            ? { ...entry, eligibility: { eligible: false, rule: 'cap', detail: 'cap filled during the sale' } }
            : entry;
        }),
        result,
      ),
    );
    if (!result) {
      return { row: { ...lead, explanation, answer: { ok: false, lead_id: lead.id, reason: 'no_match' } }, sale: null };
    }
    const answer = {
      ok: true,
      lead_id: lead.id,
      price: centsToDollars(req.payoutCents),
      status: 'sold',
      ...(req.test ? { test: true } : {}),
    };
    // A test lead gets the answer a real one would, and never counts toward caps or bills.
    if (req.test) return { row: { ...lead, explanation, answer }, sale: null };
    const row = { ...lead, explanation, answer, priceCents: result.revenueCents, costCents: req.payoutCents };
    const matches = result.winners.map((w) => ({
      id: inlineSale.matchIds.get(w.campaignId) ?? newId('mat'),
      campaignId: w.campaignId,
      buyerId: w.buyerId,
      priceCents: w.priceCents,
    }));
    return {
      row,
      sale: {
        kind: result.kind,
        matches,
        caps: lockOrder(result.winners.flatMap((w) => slotsOf(w.campaignId, lead.createdAt))),
      },
    };
  }

  function slotsOf(campaignId: string, now: Date): CapSlot[] {
    const campaign = engine.snapshot().campaigns.find((c) => c.id === campaignId);
    return campaign ? capSlots(campaign, now) : [];
  }

  /**
   * One sale (DESIGN.md §5 write path). The usual sale is ONE statement: the auction runs in memory
   * (the buyers that bought this phone or email come from the recent sales this process knows), and
   * the statement re-checks the database for a re-post or a duplicate sale that memory has not seen
   * yet, takes the cap slots and stores the lead with its matches, or undoes all of it. Only when it
   * refuses (a cap filled elsewhere, a duplicate sold by another process, a re-post) or an
   * Idempotency-Key must be claimed does the sale take the careful path: read the prior sales, then
   * a transaction that takes each winner's slots in turn and moves the sale to the next bidders
   * while the revenue still covers the payout.
   */
  async function sell(sold: SaleRequest): Promise<Answer> {
    let req = sold;
    const now = clock.now();
    const lead = leadRecord(req, now);
    const hashes = [lead.phone ? phoneHash(lead.phone) : null, lead.email ? emailHash(lead.email) : null];
    const window = {
      repostSince: new Date(now.getTime() - REPOST_WINDOW_MS),
      boughtSince: engine.duplicateWindowStart(now),
    };
    // A direct lead is its own ping: its Ping/Post buyers are asked for their bids first.
    if (req.pingId === null && !req.test && !req.bidRound && engine.snapshot().pingPostDeliveries.size > 0) {
      // A retry of a request already answered is replayed before any buyer's system is asked again.
      const earlier = await answeredBefore(req);
      if (earlier) return earlier;
      const known = engine.recentSales.buyersOf(
        hashes.map((h) => h ?? undefined),
        window.boughtSince,
      );
      const { bids } = bidsFor(
        engine.campaignsFor(req.service, req.campaign),
        facts(lead.id, req.caller, req, known),
        engine.capCounts(),
      );
      const round = pingBuyers(
        bids,
        {
          service: req.service,
          zip: req.zip,
          state: lead.state,
          channel: req.channel,
          pubId: lead.pubId,
          subId: lead.subId,
          at: now,
          test: req.test,
        },
        { leadId: lead.id },
      );
      if (round) req = { ...req, bidRound: await round };
    }
    let outcome: Outcome | null = null;
    if (!req.meta.idempotencyKey) {
      const known = engine.recentSales.buyersOf(
        hashes.map((h) => h ?? undefined),
        window.boughtSince,
      );
      const { result, considered } = auction(req, lead, known);
      // A sale to a buyer with live deliveries waits for their answers: the careful path runs them.
      if (!result?.winners.some((w) => inline?.runsFor(w.buyerId))) {
        const { row, sale } = decide(req, lead, considered, result, new Set());
        const stopped = await storeSale(raw, row, sale, window);
        if (stopped === null) outcome = { answer: { status: 200, body: row.answer }, matches: sale?.matches ?? [] };
        else if (stopped === 'replay') outcome = { replay: 'ping' };
      }
    }
    outcome ??= await sellCarefully(req, lead, window);
    if ('attempts' in outcome && outcome.attempts?.length)
      await inline
        ?.noteOutcomes(outcome.attempts)
        .catch((error) => logger?.error({ err: error }, 'sale: keeping the delivery outcomes failed'));

    engine.recorder.mark(req.caller.source.id, req.test ? 'lastTestLeadSentAt' : 'lastLeadSentAt', now);
    if ('replay' in outcome) return replay(outcome.replay, req);
    // A direct lead nobody would buy is a Buyer Gap, as an unpriced ping is (a posted lead's ping was priced).
    if (!req.pingId && !req.test && (outcome.answer.body as { reason?: string }).reason === 'no_match')
      engine.recorder.gap(req.zip, req.service, now);
    if (outcome.matches.length > 0) {
      engine.noteSale(
        outcome.matches.map((m) => m.campaignId),
        outcome.matches.map((m) => m.buyerId),
        hashes,
        now,
        true,
      );
      onSale?.();
    }
    return outcome.answer;
  }

  function auction(req: SaleRequest, lead: LeadRecord, duplicateBuyerIds: ReadonlySet<string>) {
    const eligible = bidsFor(
      engine.campaignsFor(req.service, req.campaign),
      facts(req.pingId ?? lead.id, req.caller, req, duplicateBuyerIds),
      engine.capCounts(),
    );
    const { bids, considered } = priced(
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

  /** Runs a sale transaction; a repeated ping id rolls it back (its cap slots too) and replays. */
  async function inTransaction(work: (tx: SqlRunner) => Promise<Outcome>): Promise<Outcome> {
    try {
      return await raw.transaction(work);
    } catch (error) {
      if (error instanceof ReplayPing) return { replay: 'ping' };
      throw error;
    }
  }

  /** Stores the lead as decided (its slots already taken), and the answer under the Idempotency-Key. */
  async function store(
    tx: SqlRunner,
    req: SaleRequest,
    row: LeadRecord,
    sale: { kind: string; matches: MatchRecord[] } | null,
  ): Promise<Outcome> {
    const stopped = await storeSale(tx, row, sale && { ...sale, caps: [], spendTaken: true }, null);
    if (stopped !== null) throw new ReplayPing();
    const answer = { status: 200, body: row.answer };
    if (req.meta.idempotencyKey) await answerIdempotencyKey(tx, req.caller.key.id, req.meta.idempotencyKey, answer);
    return { answer, matches: sale?.matches ?? [] };
  }

  /**
   * The careful path (see `sell`): prior sales from the database, then one transaction. The winners'
   * cap slots are taken in turn; a full cap moves the sale to the next bidders while the revenue
   * still covers the payout. A winner whose buyer has live custom deliveries gets the lead there and
   * then (DESIGN.md §6): Not Accepted rejects its match and the auction runs again without that
   * buyer, before the source is answered. A winner that took the lead stays in the sale.
   */
  async function sellCarefully(
    req: SaleRequest,
    lead: LeadRecord,
    window: { repostSince: Date; boughtSince: Date },
  ): Promise<Outcome> {
    const prior = await priorSales(raw, {
      sourceId: req.caller.source.id,
      phone: lead.phone,
      email: lead.email,
      ...window,
    });
    const { result: first, considered, run } = auction(req, lead, prior.buyerIds);
    // Read before the transaction: on PGlite a read outside it would wait for it to end.
    const live: Map<string, LiveDelivery[]> =
      inline && !req.test ? await inline.of(considered.map((c) => c.buyerId)) : new Map();
    /**
     * What a winner's sale runs: its live Direct deliveries, and of its Ping/Post deliveries only the
     * one whose ping made the winning bid (its post); the others asked for no lead.
     */
    const deliveriesOf = (buyerId: string) => {
      const bid = req.bidRound?.bids.get(buyerId);
      return (live.get(buyerId) ?? []).filter((d) => !isPingPost(d.ping_id) || d._id === bid?.deliveryId);
    };
    return inTransaction(async (tx) => {
      const idempotencyKey = req.meta.idempotencyKey;
      if (
        idempotencyKey &&
        !(await claimIdempotencyKey(tx, req.caller.key.id, idempotencyKey, req.meta.requestHash ?? '', lead.createdAt))
      )
        return { replay: 'idempotency' };
      // A second post of the ping must not reach the buyers' systems: it waits for the first, then replays it.
      if (req.pingId && live.size > 0 && (await takePingTurn(tx, req.pingId)) === 'sold') throw new ReplayPing();
      if (prior.repostOf) {
        const answer = { ok: false, lead_id: lead.id, reason: 'duplicate', duplicate_of: prior.repostOf };
        return store(tx, req, { ...lead, answer }, null);
      }
      const full = new Set<string>();
      /** Campaigns whose buyer's prepay balance or credit does not cover their price (rule 7). */
      const broke = new Set<string>();
      /** Campaigns of buyers whose live delivery refused the lead -> the refusing delivery. */
      const refused = new Map<string, string>();
      /** Cap slots held by campaigns of the current winners. */
      const held = new Map<string, CapSlot[]>();
      /** Prices reserved on buyers' spend (rule 7) by campaigns of the current winners. */
      const spending = new Map<string, Winner>();
      /** Winners that have the lead through a live delivery: they stay in the sale whatever follows. */
      const kept = new Map<string, Winner>();
      const matchIds = new Map<string, string>();
      const matchIdOf = (w: Winner) =>
        matchIds.get(w.campaignId) ?? (matchIds.set(w.campaignId, newId('mat')).get(w.campaignId) as string);
      const rejected: MatchRecord[] = [];
      const attempts: InlineAttempt[] = [];
      const buyerLeadIds: { matchId: string; buyerLeadId: string }[] = [];
      let kind = first?.kind ?? 'exclusive';

      const rerun = (): AuctionResult | null => {
        const next = run(new Set([...full, ...broke, ...refused.keys()]));
        const keptWinners = [...kept.values()];
        if (
          keptWinners.length === 0 ||
          keptWinners.every((k) => next?.winners.some((w) => w.campaignId === k.campaignId))
        )
          return next;
        // The next auction would leave out a buyer that already has the lead: the sale is what stands.
        return {
          kind: kind as AuctionResult['kind'],
          winners: keptWinners,
          revenueCents: keptWinners.reduce((n, w) => n + w.priceCents, 0),
        };
      };
      const releaseLosers = async (result: AuctionResult | null) => {
        for (const [campaignId, slots] of held) {
          if (result?.winners.some((w) => w.campaignId === campaignId)) continue;
          await releaseCaps(tx, slots);
          held.delete(campaignId);
        }
        for (const [campaignId, w] of spending) {
          if (result?.winners.some((x) => x.campaignId === campaignId && x.priceCents === w.priceCents)) continue;
          await releaseBuyerSpend(tx, w.buyerId, w.priceCents);
          spending.delete(campaignId);
        }
      };

      let result = first;
      while (result && !req.test) {
        kind = result.kind;
        let capFull = false;
        // In the one-statement sale's lock order (campaign, then period): concurrent sales never deadlock.
        const byCampaign = [...result.winners].sort((a, b) => (a.campaignId < b.campaignId ? -1 : 1));
        for (const w of byCampaign) {
          if (held.has(w.campaignId)) continue;
          const slots = lockOrder(slotsOf(w.campaignId, lead.createdAt));
          if (!(await takeCampaignCaps(tx, slots))) {
            full.add(w.campaignId);
            capFull = true;
            continue;
          }
          held.set(w.campaignId, slots);
          // Rule 7: a prepay or credit buyer buys only what its balance or credit still covers.
          if (await takeBuyerSpend(tx, w.buyerId, w.priceCents)) spending.set(w.campaignId, w);
          else {
            broke.add(w.campaignId);
            capFull = true;
          }
        }
        if (!capFull) {
          const asked = result.winners.filter((w) => !kept.has(w.campaignId) && deliveriesOf(w.buyerId).length > 0);
          if (asked.length === 0) break;
          const outcomes = await Promise.all(
            asked.map((w) =>
              (inline as InlineDeliveries).deliver(
                deliveriesOf(w.buyerId),
                {
                  lead,
                  priceCents: w.priceCents,
                  buyerPingId: req.bidRound?.bids.get(w.buyerId)?.buyerPingId ?? null,
                },
                matchIdOf(w),
              ),
            ),
          );
          let anyRefused = false;
          outcomes.forEach((outcome, i) => {
            const w = asked[i] as Winner;
            attempts.push(...outcome.attempts);
            if (outcome.buyerLeadId !== undefined)
              buyerLeadIds.push({ matchId: matchIdOf(w), buyerLeadId: outcome.buyerLeadId });
            if (outcome.verdict === 'rejected') {
              anyRefused = true;
              rejected.push({
                id: matchIdOf(w),
                campaignId: w.campaignId,
                buyerId: w.buyerId,
                priceCents: w.priceCents,
              });
              // The buyer said no to this lead: none of its campaigns buys it.
              for (const c of considered)
                if (c.buyerId === w.buyerId) refused.set(c.campaignId, outcome.refusedBy ?? 'a custom delivery');
            } else kept.set(w.campaignId, w);
          });
          if (!anyRefused) break;
        }
        result = rerun();
        await releaseLosers(result);
      }
      if (!result) await releaseLosers(null);
      const { row, sale } = decide(req, lead, considered, result, full, { matchIds, refused }, broke);
      const outcome = await store(tx, req, row, sale);
      await recordInline(
        tx,
        lead.id,
        kind,
        lead.createdAt,
        attempts,
        rejected,
        buyerLeadIds.filter((b) => !rejected.some((m) => m.id === b.matchId)),
      );
      return { ...outcome, attempts } as Outcome;
    });
  }

  /**
   * The answer stored under the request's Idempotency-Key (within its 24 hours), if it was answered.
   * A key held by another request (another body or route) is refused as Stripe does: replaying the
   * first answer would tell the source a lead it never stored was sold (issue 28).
   */
  async function answeredBefore(req: SaleRequest): Promise<Answer | null> {
    const key = req.meta.idempotencyKey;
    if (!key) return null;
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.apiKeyId, req.caller.key.id), eq(idempotencyKeys.key, key)));
    if (!row || row.createdAt.getTime() <= clock.now().getTime() - IDEMPOTENCY_TTL_MS) return null;
    if (row.requestHash !== (req.meta.requestHash ?? ''))
      throw new AppError(
        'unprocessable',
        `Idempotency-Key '${key}' was used in the last 24 hours for a different request, so this one was not stored. Send each new lead with a new key (a UUID, say); reuse a key only to retry the very same request.`,
        { reason: 'idempotency_key_reused' },
      );
    return row.statusCode > 0 ? { status: row.statusCode, body: row.body } : null;
  }

  /** The first answer of a repeated post (same ping id) or a retried request (same Idempotency-Key). */
  async function replay(kind: 'ping' | 'idempotency', req: SaleRequest): Promise<Answer> {
    if (kind === 'idempotency' && req.meta.idempotencyKey) {
      const earlier = await answeredBefore(req);
      if (earlier) return earlier;
      throw new AppError('conflict', 'A request with this Idempotency-Key is still in progress');
    }
    const [first] = await db
      .select({ id: leads.id, answer: leads.answer })
      .from(leads)
      .where(eq(leads.pingId, req.pingId ?? ''));
    return { status: 200, body: first?.answer ?? { ok: false, lead_id: first?.id, reason: 'no_match' } };
  }

  return {
    /** A price for a ping, from memory only (DESIGN.md §4): the answer and how each campaign decided. */
    /**
     * A price for a ping (DESIGN.md §4): from memory only, answered at once, unless Ping/Post buyers
     * are among the eligible ones: then they are pinged first, all at once, and the answer comes once
     * the last has answered or timed out (never later than the slowest ping's timeout).
     */
    quote(caller: SourceCaller, input: QuoteRequest): QuoteAnswer | Promise<QuoteAnswer> {
      const test = input.test ?? false;
      const now = clock.now();
      const pingId = newPingId();
      const channel = input.channel ?? null;
      const campaign = input.campaign ?? null;
      const payout = engine.payoutCents(caller.source, channel);
      const duplicates = engine.recentSales.buyersOf(
        [input.phone_hash, input.email_hash],
        engine.duplicateWindowStart(now),
      );
      const pingFacts = facts(
        pingId,
        caller,
        { service: input.service, zip: input.zip, channel, campaign },
        duplicates,
      );
      const eligible = engine.candidateBids(pingFacts);
      const belowMin = input.minprice !== undefined && payout < Math.round(input.minprice * 100);

      const answer = (round: BidRound | undefined): QuoteAnswer => {
        const { bids, considered } = priced(
          eligible.bids,
          eligible.considered,
          round,
          test ? 'a test ping is not sent to Ping/Post buyers' : 'not pinged: the quote is below minprice',
        );
        const result = engine.auction(bids, payout);
        const reason = !result ? 'no_match' : belowMin ? 'no_match' : null;
        engine.recorder.ping({
          id: pingId,
          sourceId: caller.source.id,
          apiKeyId: caller.key.id,
          channel,
          service: input.service,
          zip: input.zip,
          priceCents: reason ? null : payout,
          reason,
          test,
          createdAt: now,
        });
        // A test ping always gets a quote, so a source can try its post before any campaign fits.
        // The explanation tells what was answered: below minprice nobody won (issue 27).
        const explanation = explanationOf(considered, belowMin && !test ? null : result);
        if (reason && !test) return { status: 200, body: { ok: false, reason }, explanation };
        const exp = toEpochSeconds(now) + PING_TOKEN_TTL_SECONDS;
        const token = sealPingToken(secret, {
          id: pingId,
          sourceId: caller.source.id,
          apiKeyId: caller.key.id,
          service: input.service,
          zip: input.zip,
          priceCents: reason ? 0 : payout,
          channel,
          // The post keeps every field the ping carried: its tracking ids ride in the token too.
          ...(input.sub_id ? { subId: input.sub_id } : {}),
          ...(input.pub_id ? { pubId: input.pub_id } : {}),
          campaign,
          test,
          exp,
          ...(round ? { round: packRound(round) } : {}),
        });
        return {
          explanation,
          status: 200,
          body: {
            ok: true,
            ping_id: token,
            price: centsToDollars(reason ? 0 : payout),
            expires: exp,
            ...(test ? { test: true } : {}),
          },
        };
      };

      // Buyers are asked only for a quote that can stand: not for a test, nor below the source's minprice.
      const round =
        test || belowMin
          ? null
          : pingBuyers(
              eligible.bids,
              {
                service: input.service,
                zip: input.zip,
                state: pingFacts.state,
                channel,
                pubId: input.pub_id ?? null,
                subId: input.sub_id ?? null,
                at: now,
                test,
              },
              { pingId },
            );
      return round ? round.then(answer) : answer(undefined);
    },

    sell,
  };
}

export type Sale = ReturnType<typeof createSale>;

import { toEpochSeconds } from '../../lib/clock';
import { type BidRound, buyersToPing, packRound, roundOf } from '../bidding';
import type { SourceCaller } from '../engine';
import type { ExplanationRecord } from '../explanation';
import { newPingId, PING_TOKEN_TTL_SECONDS, sealPingToken } from '../ping-token';
import type { Pinger, PingFacts, SuppressionCheck } from '../ports';
import type { AuctionResult, Bid, ExplanationEntry } from '../types';
import { explanationOf } from './decide';
import { factsOf, mergeVerdicts, priced, suppressedExplanation } from './lead-auction';
import type { QuoteOutcome, QuoteRequest, SaleContext } from './types';

/**
 * Pings the Ping/Post buyers among these bids (DESIGN.md §6), all at once, each under its own
 * timeout, and logs every call (batched, like the ping records); null when none is to be pinged,
 * so a lead without Ping/Post buyers waits on nothing.
 */
export function pingBuyers(
  { engine }: SaleContext,
  pinger: Pinger | undefined,
  bids: readonly Bid[],
  facts: PingFacts,
  on: { pingId: string } | { leadId: string },
): Promise<BidRound> | null {
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

/**
 * The fields the quote's winners left to the post (issue 33): their filters name post-only fields the
 * ping did not carry, so the sale depends on what the post sends.
 */
function pendingFields(considered: readonly ExplanationEntry[], result: AuctionResult | null): string[] {
  if (!result) return [];
  const winners = new Set(result.winners.map((w) => w.campaignId));
  const fields = new Set<string>();
  for (const entry of considered)
    if (winners.has(entry.campaignId) && entry.eligibility.eligible)
      for (const field of entry.eligibility.pending ?? []) fields.add(field);
  return [...fields];
}

/**
 * A price for a ping (DESIGN.md §4): from memory only, answered at once, unless Ping/Post buyers
 * are among the eligible ones: then they are pinged first, all at once, and the answer comes once
 * the last has answered or timed out (never later than the slowest ping's timeout).
 */
export function quote(
  ctx: SaleContext & { secret: string; pinger?: Pinger; suppression?: SuppressionCheck },
  caller: SourceCaller,
  input: QuoteRequest,
): QuoteOutcome | Promise<QuoteOutcome> {
  const { engine, clock, secret } = ctx;
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
  // The ZIP lists from memory, and the contact hashes' verdict when the ping carried hashes (issue 34).
  const suppression = mergeVerdicts(ctx.suppression?.zip(input.zip) ?? null, input.contactSuppression ?? null);
  const pingFacts = factsOf(
    ctx,
    pingId,
    caller,
    { service: input.service, zip: input.zip, channel, campaign, fields: input.fields, suppression },
    duplicates,
  );
  /** The ping's record: the quote given (null for none) and, when none, why. */
  const recordPing = (priceCents: number | null, reason: string | null) =>
    engine.recorder.ping({
      id: pingId,
      sourceId: caller.source.id,
      apiKeyId: caller.key.id,
      channel,
      service: input.service,
      zip: input.zip,
      priceCents,
      reason,
      test,
      createdAt: now,
    });
  if (suppression?.global) {
    recordPing(null, 'suppressed');
    return { kind: 'suppressed', explanation: explanationOf(suppressedExplanation(suppression.global), null) };
  }
  // At ping, a filter on a post-only field the ping lacks waits for the post (issue 33).
  const eligible = engine.candidateBids({ ...pingFacts, stage: 'ping' });
  const belowMin = input.minprice !== undefined && payout < Math.round(input.minprice * 100);

  const answer = (round: BidRound | undefined): QuoteOutcome => {
    const { bids, considered } = priced(
      engine,
      eligible.bids,
      eligible.considered,
      round,
      test ? 'a test ping is not sent to Ping/Post buyers' : 'not pinged: the quote is below minprice',
    );
    const result = engine.auction(bids, payout);
    const reason = !result ? 'no_match' : belowMin ? 'no_match' : null;
    recordPing(reason ? null : payout, reason);
    // A test ping always gets a quote, so a source can try its post before any campaign fits.
    // The explanation tells what was answered: below minprice nobody won (issue 27). It is built when
    // read (the simulator shows it; the source API's answer has none): a record per candidate a ping.
    let explained: ExplanationRecord[] | undefined;
    const explain = () => {
      explained ??= explanationOf(considered, belowMin && !test ? null : result);
      return explained;
    };
    if (reason && !test)
      return {
        kind: 'no_match',
        get explanation() {
          return explain();
        },
      };
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
      // The ping-stage fields (never personal) ride to the post, which keeps them (issue 33).
      ...(input.fields && Object.keys(input.fields).length > 0 ? { fields: input.fields } : {}),
    });
    const conditions = pendingFields(considered, result);
    return {
      kind: 'priced',
      pingId: token,
      priceCents: reason ? 0 : payout,
      expires: exp,
      test,
      get explanation() {
        return explain();
      },
      ...(conditions.length > 0 ? { conditions } : {}),
    };
  };

  // Buyers are asked only for a quote that can stand: not for a test, nor below the source's minprice.
  const round =
    test || belowMin
      ? null
      : pingBuyers(
          ctx,
          ctx.pinger,
          eligible.bids,
          {
            service: input.service,
            zip: input.zip,
            state: pingFacts.state,
            channel,
            pubId: input.pub_id ?? null,
            subId: input.sub_id ?? null,
            trustedFormPingUrl: input.trusted_form_ping_url ?? null,
            // The pinger sends only the non-personal ping-stage ones a delivery maps (issue 33).
            fields: input.fields ?? null,
            at: now,
            test,
          },
          { pingId },
        );
  return round ? round.then(answer) : answer(undefined);
}

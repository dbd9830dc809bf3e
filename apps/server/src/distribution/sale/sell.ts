import { rawDb } from '../../db/raw';
import { bidsFor } from '../eligibility';
import { emailHash, phoneHash } from '../normalize';
import type { InlineDeliveries, Pinger } from '../ports';
import { decide } from './decide';
import { type StoreAtOnce, storeAlone } from './group';
import { auction, factsOf } from './lead-auction';
import { leadRecord } from './lead-record';
import { pingBuyers } from './quote';
import { IDEMPOTENCY_TTL_MS, idempotencyKeyOf, type LeadRecord, leadOfPing } from './sale.repo';
import { type Settled, sellCarefully } from './sell-carefully';
import type { SaleContext, SaleDeps, SaleOutcome, SaleRequest } from './types';

/** A source re-posting the same lead within this window is refused as a duplicate (DESIGN.md §5 rule 9). */
const REPOST_WINDOW_MS = 5 * 60_000;

/** What an earlier request under the same Idempotency-Key answered (or why it cannot be replayed). */
type Earlier = Extract<SaleOutcome, { kind: 'replayed' | 'key_reused' }>;

/**
 * The answer stored under the request's Idempotency-Key (within its 24 hours), if it was answered.
 * A key held by another request (another body or route) is refused as Stripe does: replaying the
 * first answer would tell the source a lead it never stored was sold (issue 28).
 */
async function answeredBefore({ db, clock }: SaleDeps, req: SaleRequest): Promise<Earlier | null> {
  const key = req.meta.idempotencyKey;
  if (!key) return null;
  const row = await idempotencyKeyOf(db, req.caller.key.id, key);
  if (!row || row.createdAt.getTime() <= clock.now().getTime() - IDEMPOTENCY_TTL_MS) return null;
  if (row.requestHash !== (req.meta.requestHash ?? '')) return { kind: 'key_reused', key };
  return row.statusCode > 0 ? { kind: 'replayed', status: row.statusCode, answer: row.body } : null;
}

/** The first answer of a repeated post (same ping id) or a retried request (same Idempotency-Key). */
async function replay(deps: SaleDeps, kind: 'ping' | 'idempotency', req: SaleRequest): Promise<SaleOutcome> {
  if (kind === 'idempotency' && req.meta.idempotencyKey)
    return (await answeredBefore(deps, req)) ?? { kind: 'key_in_progress' };
  const first = await leadOfPing(deps.db, req.pingId ?? '');
  return {
    kind: 'replayed',
    status: 200,
    answer: first?.answer ?? { ok: false, lead_id: first?.id, reason: 'no_match' },
  };
}

/**
 * One sale (DESIGN.md §5 write path). The usual sale is ONE statement: the auction runs in memory
 * (the buyers that bought this phone or email come from the recent sales this process knows), and
 * the statement re-checks the database for a re-post or a duplicate sale that memory has not seen
 * yet, takes the cap slots and stores the lead with its matches, or undoes all of it. Only when it
 * refuses (a cap filled elsewhere, a duplicate sold by another process, a re-post), a winner's
 * buyer has live deliveries, or an Idempotency-Key must be claimed does the sale take the careful
 * path (sell-carefully.ts, careful.ts). `store` stores the one statement: alone, or with the sales
 * that arrive while a group is being stored (group commit, group.ts).
 */
export async function sell(deps: SaleDeps, sold: SaleRequest, store?: StoreAtOnce): Promise<SaleOutcome> {
  const { db, engine, clock, inline, pinger, onSale, logger } = deps;
  const raw = rawDb(db);
  let req = sold;
  const now = clock.now();
  const lead = leadRecord(engine, req, now);
  // The suppression lists (issue 34): a contact on an exchange-wide list is refused before pricing; a
  // buyer's own list leaves that buyer out. Hashed once; looked up first only where the sale asks
  // Ping/Post buyers or goes the careful way: the one-statement sale refuses a contact any list holds
  // (issue 36), and only then are the lists read and the sale decided again, so the usual unlisted
  // lead costs no lookup of its own.
  const { suppression } = deps;
  const listed = req.suppression
    ? []
    : (suppression?.hashes({ phone: lead.phone, email: lead.email, zip: req.zip }) ?? []);
  const lookUp = async () => {
    if (suppression && listed.length > 0) req = { ...req, suppression: await suppression.lookup(listed) };
  };
  const asksBuyers = req.pingId === null && !req.test && !req.bidRound && engine.snapshot().pingPostDeliveries.size > 0;
  if (asksBuyers || req.meta.idempotencyKey) await lookUp();
  const hashes = [lead.phone ? phoneHash(lead.phone) : null, lead.email ? emailHash(lead.email) : null];
  const window = {
    repostSince: new Date(now.getTime() - REPOST_WINDOW_MS),
    boughtSince: engine.duplicateWindowStart(now),
  };
  const known = () =>
    engine.recentSales.buyersOf(
      hashes.map((h) => h ?? undefined),
      window.boughtSince,
    );
  // A direct lead is its own ping: its Ping/Post buyers are asked for their bids first.
  if (asksBuyers && !req.suppression?.global) {
    // A retry of a request already answered is replayed before any buyer's system is asked again.
    const earlier = await answeredBefore(deps, req);
    if (earlier) return earlier;
    const { bids } = bidsFor(
      engine.campaignsFor(req.service, req.campaign),
      factsOf(deps, lead.id, req.caller, req, known()),
      engine.capCounts(),
    );
    const round = pingBuyers(
      deps,
      pinger,
      bids,
      {
        service: req.service,
        zip: req.zip,
        state: lead.state,
        channel: req.channel,
        pubId: lead.pubId,
        subId: lead.subId,
        trustedFormPingUrl: lead.trustedFormPingUrl,
        fields: lead.fields,
        at: now,
        test: req.test,
      },
      { leadId: lead.id },
    );
    if (round) req = { ...req, bidRound: await round };
  }
  let settled: Settled | null = null;
  if (!req.meta.idempotencyKey) {
    const unlisted = req.suppression ? [] : listed;
    const atOnce = await sellAtOnce(deps, store ?? storeAlone(raw), req, lead, known(), window, unlisted);
    if (atOnce !== 'listed') settled = atOnce;
  }
  // The careful path decides with the lists' verdict (read here unless read above).
  if (!settled && !req.suppression) await lookUp();
  settled ??= await sellCarefully({ engine, clock, raw, inline }, req, lead, window);
  if ('attempts' in settled && settled.attempts?.length)
    await inline
      ?.noteOutcomes(settled.attempts)
      .catch((error) => logger?.error({ err: error }, 'sale: keeping the delivery outcomes failed'));

  engine.recorder.mark(req.caller.source.id, req.test ? 'lastTestLeadSentAt' : 'lastLeadSentAt', now);
  if ('replay' in settled) return replay(deps, settled.replay, req);
  const { answer, matches } = settled;
  // A direct lead nobody would buy is a Buyer Gap, as an unpriced ping is (a posted lead's ping was priced).
  if (!req.pingId && !req.test && !answer.ok && answer.reason === 'no_match')
    engine.recorder.gap(req.zip, req.service, now);
  if (matches.length > 0) {
    engine.noteSale(
      matches.map((m) => m.campaignId),
      matches.map((m) => m.buyerId),
      hashes,
      now,
      true,
      matches.map((m) => m.priceCents),
    );
    onSale?.();
  }
  return answer.ok ? { kind: 'sold', answer } : { kind: 'not_sold', answer };
}

/**
 * The fast path: the sale in one statement, from the auction in memory. Null when it must go the
 * careful way: a winner's buyer runs live deliveries (the careful path waits for their answers),
 * or the statement refused (a cap filled elsewhere, a duplicate sold by another process, a re-post).
 * 'listed' when a suppression list holds the contact: the lists are read and the sale goes careful.
 */
async function sellAtOnce(
  ctx: SaleContext & { inline?: InlineDeliveries; pinger?: Pinger },
  store: StoreAtOnce,
  req: SaleRequest,
  lead: LeadRecord,
  known: ReadonlySet<string>,
  window: { repostSince: Date; boughtSince: Date },
  unlisted: readonly string[],
): Promise<Settled | null | 'listed'> {
  const { result, considered } = auction(ctx, req, lead, known);
  if (result?.winners.some((w) => ctx.inline?.runsFor(w.buyerId))) return null;
  const { row, answer, sale } = decide(ctx.engine, req, lead, considered, result);
  const stopped = await store({ lead: row, sale, check: window, unlisted });
  if (stopped === null) return { answer, matches: sale?.matches ?? [] };
  if (stopped === 'suppressed') return 'listed';
  return stopped === 'replay' ? { replay: 'ping' } : null;
}

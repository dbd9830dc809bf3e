import type { RawDb, SqlRunner } from '../../db/raw';
import type { InlineAttempt, InlineDeliveries, LiveDelivery } from '../ports';
import { CarefulSale } from './careful';
import type { Decision } from './decide';
import { auction } from './lead-auction';
import {
  answerIdempotencyKey,
  claimIdempotencyKey,
  type LeadRecord,
  type MatchRecord,
  priorSales,
  storeSale,
  takePingTurn,
} from './sale.repo';
import type { LeadAnswer, SaleContext, SaleRequest } from './types';

/** What a sale came to before its source is answered: a stored lead (with what it sold), or a replay. */
export type Settled =
  | { answer: LeadAnswer; matches: MatchRecord[]; attempts?: InlineAttempt[] }
  | { replay: 'ping' | 'idempotency' };

/** A sale met a lead already stored for its ping id: the transaction is undone and the first answer replayed. */
export class ReplayPing extends Error {}

/** What the careful path works with: the sale's context, its database and the buyers' live deliveries. */
export interface CarefulParts extends SaleContext {
  raw: RawDb;
  inline?: InlineDeliveries;
}

/** Stores the lead as decided (its slots already taken), and the answer under the Idempotency-Key. */
async function store(
  tx: SqlRunner,
  req: SaleRequest,
  row: LeadRecord,
  answer: LeadAnswer,
  sale: Decision['sale'],
): Promise<Settled> {
  const stopped = await storeSale(tx, row, sale && { ...sale, caps: [], budgets: [], spendTaken: true }, null);
  if (stopped !== null) throw new ReplayPing();
  if (req.meta.idempotencyKey)
    await answerIdempotencyKey(tx, req.caller.key.id, req.meta.idempotencyKey, { status: 200, body: row.answer });
  return { answer, matches: sale?.matches ?? [] };
}

/**
 * The careful path (see `sell`): prior sales from the database, then one transaction: the
 * Idempotency-Key claimed, a second post of the ping made to wait for the first, a re-post refused,
 * and the sale run by a CarefulSale before the source is answered.
 */
export async function sellCarefully(
  parts: CarefulParts,
  req: SaleRequest,
  lead: LeadRecord,
  window: { repostSince: Date; boughtSince: Date },
): Promise<Settled> {
  const { raw, inline } = parts;
  const prior = await priorSales(raw, {
    sourceId: req.caller.source.id,
    phone: lead.phone,
    email: lead.email,
    ...window,
  });
  const leadAuction = auction(parts, req, lead, prior.buyerIds);
  // Read before the transaction: on PGlite a read outside it would wait for it to end.
  const live: Map<string, LiveDelivery[]> =
    inline && !req.test ? await inline.of(leadAuction.considered.map((c) => c.buyerId)) : new Map();
  try {
    return await raw.transaction(async (tx): Promise<Settled> => {
      const idempotencyKey = req.meta.idempotencyKey;
      if (
        idempotencyKey &&
        !(await claimIdempotencyKey(tx, req.caller.key.id, idempotencyKey, req.meta.requestHash ?? '', lead.createdAt))
      )
        return { replay: 'idempotency' };
      // A second post of the ping must not reach the buyers' systems: it waits for the first, then replays it.
      if (req.pingId && live.size > 0 && (await takePingTurn(tx, req.pingId)) === 'sold') throw new ReplayPing();
      if (prior.repostOf) {
        const answer: LeadAnswer = { ok: false, lead_id: lead.id, reason: 'duplicate', duplicate_of: prior.repostOf };
        return store(tx, req, { ...lead, answer }, answer, null);
      }
      const sale = new CarefulSale(tx, parts, req, lead, leadAuction, live);
      const { row, answer, sale: sold } = sale.decision(await sale.settle());
      const settled = await store(tx, req, row, answer, sold);
      await sale.recordInline();
      return { ...settled, attempts: sale.attempts };
    });
  } catch (error) {
    // A repeated ping id rolls the transaction back (its cap slots too) and replays the first answer.
    if (error instanceof ReplayPing) return { replay: 'ping' };
    throw error;
  }
}

import { PING_BIDS_COUNT_LIMIT, type PingBid, type PingBidListQuery, type PingBidPage } from '@leadex/domain';
import type { Db } from '../../../db/client';
import { toEpochSeconds } from '../../../lib/clock';
import { orUndefined } from '../../../lib/dto';
import { centsToDollars } from '../../../lib/money';
import { bidsRepo, type PingBidRow } from './bids.repo';

function toPingBid(r: PingBidRow): PingBid {
  return {
    _id: r.id,
    ping_id: r.pingId ?? '',
    buyer: { _id: r.buyerId, ...(r.buyerName ? { name: r.buyerName } : {}) },
    delivery: { _id: r.deliveryId, ...(r.deliveryName ? { name: r.deliveryName } : {}) },
    ...(r.sourceId ? { source: { _id: r.sourceId, ...(r.sourceName ? { name: r.sourceName } : {}) } } : {}),
    service: orUndefined(r.service),
    zip: orUndefined(r.zip),
    outcome: r.outcome as PingBid['outcome'],
    bid: r.bidCents === null ? undefined : centsToDollars(r.bidCents),
    reason: orUndefined(r.error),
    status_code: orUndefined(r.statusCode),
    response: orUndefined(r.response),
    duration_ms: r.durationMs,
    test: r.test ?? false,
    ts: toEpochSeconds(r.at),
  };
}

/**
 * The admin's Pings screen (issue 32): Ping/Post buyers' bids and reasons on pings that never became
 * leads. They are written by the engine's recorder (ping_calls); a ping that became a lead shows its
 * buyers' answers on the lead's detail.
 */
export function createBidsService({ db }: { db: Db }) {
  return {
    async list(query: PingBidListQuery): Promise<PingBidPage> {
      const filter = { buyerId: query.buyer, outcome: query.outcome };
      const [rows, counted] = await Promise.all([
        bidsRepo.page(db, filter, { offset: (query.page - 1) * query.pageSize, limit: query.pageSize }),
        bidsRepo.count(db, filter, PING_BIDS_COUNT_LIMIT + 1),
      ]);
      const more = counted > PING_BIDS_COUNT_LIMIT;
      return {
        data: rows.map(toPingBid),
        total: Math.min(counted, PING_BIDS_COUNT_LIMIT),
        ...(more ? { more } : {}),
      };
    },
  };
}

export type BidsService = ReturnType<typeof createBidsService>;

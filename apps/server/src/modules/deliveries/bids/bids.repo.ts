import { and, count, desc, eq, isNotNull, notExists, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { buyers, leads, pingCalls, pings, sources, webhooks } from '../../../db/schema';

/** One buyer's answer to a ping that never became a lead, with the names the screen shows. */
export type PingBidRow = typeof pingCalls.$inferSelect & {
  buyerName: string | null;
  deliveryName: string | null;
  sourceId: string | null;
  sourceName: string | null;
  service: string | null;
  zip: string | null;
  test: boolean | null;
};

export interface PingBidFilter {
  buyerId?: string;
  outcome?: string;
}

/** The answers to sources' pings whose ping no lead carries (never posted, or posted too late). */
function unsoldWhere(filter: PingBidFilter): SQL | undefined {
  return and(
    isNotNull(pingCalls.pingId),
    notExists(sql`(select 1 from ${leads} where ${leads.pingId} = ${pingCalls.pingId})`),
    filter.buyerId ? eq(pingCalls.buyerId, filter.buyerId) : undefined,
    filter.outcome ? eq(pingCalls.outcome, filter.outcome) : undefined,
  );
}

export const bidsRepo = {
  /** A page, newest first (ties by id, so pages never overlap). */
  async page(db: Db, filter: PingBidFilter, window: { offset: number; limit: number }): Promise<PingBidRow[]> {
    const rows = await db
      .select({
        call: pingCalls,
        buyerName: buyers.name,
        deliveryName: webhooks.name,
        sourceId: pings.sourceId,
        sourceName: sources.name,
        service: pings.service,
        zip: pings.zip,
        test: pings.test,
      })
      .from(pingCalls)
      .leftJoin(buyers, eq(buyers.id, pingCalls.buyerId))
      .leftJoin(webhooks, eq(webhooks.id, pingCalls.deliveryId))
      .leftJoin(pings, eq(pings.id, pingCalls.pingId))
      .leftJoin(sources, eq(sources.id, pings.sourceId))
      .where(unsoldWhere(filter))
      .orderBy(desc(pingCalls.at), desc(pingCalls.id))
      .limit(window.limit)
      .offset(window.offset);
    return rows.map(({ call, ...named }) => ({ ...call, ...named }));
  },

  /** How many match, counted up to `limit` rows (a table that grows with every ping is never counted whole). */
  async count(db: Db, filter: PingBidFilter, limit: number): Promise<number> {
    const capped = db.select({ one: sql`1` }).from(pingCalls).where(unsoldWhere(filter)).limit(limit).as('capped');
    const [row] = await db.select({ n: count() }).from(capped);
    return row?.n ?? 0;
  },
};

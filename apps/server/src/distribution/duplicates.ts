import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { leadMatches, leads } from '../db/schema';
import { emailHash, phoneHash } from './normalize';

/**
 * At most this many hashes are kept (a sale carries a phone and an email: the last 20,000 sales or
 * so, some 10 MB). Sized so a busy exchange's minutes of sales fit, not its whole duplicate window,
 * which at 130 sales a second would hold millions of hashes and grow the heap by hundreds of
 * megabytes a day (issue 28). A hash dropped early costs nothing but a ping's precision: the sale
 * re-checks the database over the whole window (`buyersWhoBought`, the sale statement).
 */
export const MAX_RECENT_HASHES = 40_000;
/** The hashes are held in this many generations: the oldest is dropped whole, a quarter of the limit at a time. */
const GENERATIONS = 4;

/** One buyer's last purchase of a hash (epoch ms). */
type Bought = [buyerId: string, at: number];

/** A generation of hashes and the newest sale among them (epoch ms). */
interface Generation {
  byHash: Map<string, Bought[]>;
  newest: number;
}

const generation = (): Generation => ({ byHash: new Map(), newest: 0 });

/**
 * Which buyers bought a phone or email recently, keyed by the SHA-256 hashes a ping may carry,
 * so the ping applies rule 9 from memory. Filled from the database at start and topped up every
 * refresh from matches newer than the last one seen (sales made by any process).
 */
export class RecentSales {
  /**
   * Hash -> its buyers, in GENERATIONS generations, newest first. Limit: when the newest holds its
   * share of `limit` a new one starts and the oldest is dropped, so at most `limit` hashes are held,
   * the least recently sold go first, and a sale costs O(1). A hash sold again moves to the newest.
   * Expiry: a generation whose newest sale left the duplicate window is dropped at each refresh.
   */
  private generations: Generation[] = [generation()];
  private readonly generationSize: number;
  private watermark = new Date(0);

  constructor(private readonly limit = MAX_RECENT_HASHES) {
    this.generationSize = Math.max(1, Math.floor(limit / GENERATIONS));
  }

  /** How many hashes are held. */
  get size(): number {
    return this.generations.reduce((n, g) => n + g.byHash.size, 0);
  }

  add(hashes: (string | null)[], buyerId: string, at: Date): void {
    const time = at.getTime();
    for (const hash of hashes) {
      if (!hash) continue;
      let current = this.generations[0] as Generation;
      const buyers = this.take(hash);
      if (!buyers) current.byHash.set(hash, [[buyerId, time]]);
      else {
        const known = buyers.find((b) => b[0] === buyerId);
        if (known) known[1] = Math.max(known[1], time);
        else buyers.push([buyerId, time]);
        current.byHash.set(hash, buyers);
      }
      current.newest = Math.max(current.newest, time);
      if (current.byHash.size >= this.generationSize) {
        current = generation();
        this.generations.unshift(current);
        if (this.generations.length > GENERATIONS) this.generations.pop();
      }
    }
  }

  /** A hash's buyers, taken out of an older generation (to move to the newest) or left in the newest. */
  private take(hash: string): Bought[] | undefined {
    for (const [i, g] of this.generations.entries()) {
      const buyers = g.byHash.get(hash);
      if (!buyers) continue;
      if (i > 0) g.byHash.delete(hash);
      return buyers;
    }
    return undefined;
  }

  /** Buyers that bought any of these hashes after `since`. */
  buyersOf(hashes: (string | undefined)[], since: Date): Set<string> {
    const found = new Set<string>();
    for (const hash of hashes) {
      if (!hash) continue;
      for (const g of this.generations) {
        const buyers = g.byHash.get(hash);
        if (!buyers) continue;
        for (const [buyerId, at] of buyers) if (at > since.getTime()) found.add(buyerId);
        break;
      }
    }
    return found;
  }

  /** Drops the generations whose every sale was made before `windowStart`. */
  expire(windowStart: Date): void {
    const start = windowStart.getTime();
    const kept = this.generations.filter((g) => g.newest > start);
    this.generations = kept.length > 0 ? kept : [generation()];
  }

  /** Reads matches made since the last call (the first call reads the whole window), and expires the rest. */
  async refresh(db: Db, windowStart: Date): Promise<void> {
    this.expire(windowStart);
    const since = this.watermark > windowStart ? this.watermark : windowStart;
    const rows = await db
      .select({ buyerId: leadMatches.buyerId, at: leadMatches.createdAt, phone: leads.phone, email: leads.email })
      .from(leadMatches)
      .innerJoin(leads, eq(leads.id, leadMatches.leadId))
      .where(and(gt(leadMatches.createdAt, since), eq(leadMatches.rejected, false)))
      // Only what the limit keeps: the newest (a first read over a busy window would be millions of rows).
      .orderBy(desc(leadMatches.createdAt))
      .limit(this.limit);
    for (const r of rows.reverse()) {
      this.add([r.phone ? phoneHash(r.phone) : null, r.email ? emailHash(r.email) : null], r.buyerId, r.at);
      if (r.at > this.watermark) this.watermark = r.at;
    }
  }
}

/** Rule 9 at the post, from the database: buyers that bought this phone or email since `since`. */
export async function buyersWhoBought(
  tx: Tx,
  contact: { phone?: string; email?: string },
  since: Date,
): Promise<Set<string>> {
  const conditions = [];
  if (contact.phone) conditions.push(sql`${leads.phone} = ${contact.phone}`);
  if (contact.email) conditions.push(sql`${leads.email} = ${contact.email}`);
  if (conditions.length === 0) return new Set();
  const rows = await tx
    .selectDistinct({ buyerId: leadMatches.buyerId })
    .from(leadMatches)
    .innerJoin(leads, eq(leads.id, leadMatches.leadId))
    .where(
      and(sql`(${sql.join(conditions, sql` or `)})`, gt(leadMatches.createdAt, since), eq(leadMatches.rejected, false)),
    );
  return new Set(rows.map((r) => r.buyerId));
}

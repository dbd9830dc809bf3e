import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { leadMatches, leads } from '../db/schema';
import { emailHash, phoneHash } from './normalize';

/**
 * Which buyers bought a phone or email recently, keyed by the SHA-256 hashes a ping may carry,
 * so the ping applies rule 9 from memory. Filled from the database at start and topped up every
 * refresh from matches newer than the last one seen (sales made by any process).
 */
export class RecentSales {
  private readonly byHash = new Map<string, Map<string, number>>();
  private watermark = new Date(0);

  add(hashes: (string | null)[], buyerId: string, at: Date): void {
    for (const hash of hashes) {
      if (!hash) continue;
      const buyers = this.byHash.get(hash) ?? new Map<string, number>();
      buyers.set(buyerId, Math.max(buyers.get(buyerId) ?? 0, at.getTime()));
      this.byHash.set(hash, buyers);
    }
  }

  /** Buyers that bought any of these hashes after `since`. */
  buyersOf(hashes: (string | undefined)[], since: Date): Set<string> {
    const found = new Set<string>();
    for (const hash of hashes) {
      if (!hash) continue;
      for (const [buyerId, at] of this.byHash.get(hash) ?? []) if (at > since.getTime()) found.add(buyerId);
    }
    return found;
  }

  /** Reads matches made since the last call (the first call reads the whole window). */
  async refresh(db: Db, windowStart: Date): Promise<void> {
    const since = this.watermark > windowStart ? this.watermark : windowStart;
    const rows = await db
      .select({ buyerId: leadMatches.buyerId, at: leadMatches.createdAt, phone: leads.phone, email: leads.email })
      .from(leadMatches)
      .innerJoin(leads, eq(leads.id, leadMatches.leadId))
      .where(and(gt(leadMatches.createdAt, since), eq(leadMatches.rejected, false)));
    for (const r of rows) {
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

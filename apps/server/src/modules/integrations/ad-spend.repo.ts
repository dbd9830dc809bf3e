import type { AdSpendOrigin } from '@leadex/domain';
import { and, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { adSpend, sources } from '../../db/schema';
import { newId } from '../../lib/ids';

export interface AdSpendDay {
  day: string;
  sourceId: string;
  origin: AdSpendOrigin;
  amountCents: number;
}

export const adSpendRepo = {
  /** Sources paid nothing per lead: their cost is their ad spend (DESIGN.md §5). */
  async internalSources(db: Db | Tx): Promise<{ id: string; name: string }[]> {
    return db
      .select({ id: sources.id, name: sources.name })
      .from(sources)
      .where(isNull(sources.maxCostCents))
      .orderBy(sources.name);
  },

  /** Writes each day's spend of a source and origin, replacing what that origin recorded for the day. */
  async upsert(db: Db | Tx, days: AdSpendDay[], at: Date): Promise<void> {
    if (days.length === 0) return;
    await db
      .insert(adSpend)
      .values(days.map((d) => ({ id: newId('ads'), ...d, updatedAt: at })))
      .onConflictDoUpdate({
        target: [adSpend.day, adSpend.sourceId, adSpend.origin],
        set: { amountCents: sql`excluded.amount_cents`, updatedAt: at },
      });
  },

  /** The rows from `fromDay` on; with `only`, the one row of that day, source and origin. */
  async since(db: Db, fromDay: string, only?: { sourceId: string; origin: AdSpendOrigin }) {
    return db
      .select({
        id: adSpend.id,
        day: adSpend.day,
        sourceId: adSpend.sourceId,
        sourceName: sources.name,
        origin: adSpend.origin,
        amountCents: adSpend.amountCents,
      })
      .from(adSpend)
      .innerJoin(sources, eq(sources.id, adSpend.sourceId))
      .where(
        only
          ? and(eq(adSpend.day, fromDay), eq(adSpend.sourceId, only.sourceId), eq(adSpend.origin, only.origin))
          : gte(adSpend.day, fromDay),
      )
      .orderBy(desc(adSpend.day), sources.name, adSpend.origin);
  },
};

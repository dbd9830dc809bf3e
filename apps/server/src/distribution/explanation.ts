import type { BidOutcome, LeadExplanationEntry } from '@leadex/domain';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { buyers, campaigns } from '../db/schema';

/** One campaign of a lead's explanation, as the API answers it (DESIGN.md §5): the domain's entry. */
export type ExplanationRecord = LeadExplanationEntry;

/**
 * A lead's explanation as stored: compact tuples without the names and buyers (read back from the
 * campaigns), and the campaigns excluded by location grouped under their reason. Every lead stores
 * one, so its size is paid on every sale (it was half the cost of a post as full records):
 * - `[campaignId, price, won]`: eligible, at this price (dollars); won is 1 or 0;
 * - `[campaignId, rule, detail]`: excluded by the rule;
 * - `[[campaignId, ...], 'location', detail]`: the campaigns not buying in the lead's area.
 * A Ping/Post buyer's campaign adds its bid outcome as a fourth element (`bid`, `timeout`, …).
 */
type StoredEntry =
  | [string, number, 0 | 1]
  | [string, number, 0 | 1, BidOutcome]
  | [string, string, string]
  | [string, string, string, BidOutcome]
  | [string[], string, string];

const withOutcome = (
  entry: [string, number, 0 | 1] | [string, string, string],
  outcome: BidOutcome | undefined,
): StoredEntry => (outcome ? ([...entry, outcome] as StoredEntry) : entry);

export function packExplanation(records: readonly ExplanationRecord[]): StoredEntry[] {
  const packed: StoredEntry[] = [];
  const byLocation = new Map<string, string[]>();
  for (const r of records) {
    if (r.eligible) packed.push(withOutcome([r.campaign, r.price ?? 0, r.won ? 1 : 0], r.bid_outcome));
    else if (r.rule === 'location' && !r.bid_outcome) {
      const detail = r.detail ?? '';
      const ids = byLocation.get(detail);
      if (ids) ids.push(r.campaign);
      else byLocation.set(detail, [r.campaign]);
    } else packed.push(withOutcome([r.campaign, r.rule ?? '', r.detail ?? ''], r.bid_outcome));
  }
  for (const [detail, ids] of byLocation) packed.push([ids, 'location', detail]);
  return packed;
}

/** The stored explanation (or the engine's records) as records, with the campaigns' and buyers' names. */
export async function unpackExplanation(db: Db, stored: readonly unknown[] | null): Promise<ExplanationRecord[]> {
  const entries = stored ?? [];
  const ids = new Set<string>();
  for (const e of entries) {
    if (!Array.isArray(e)) {
      const record = e as Partial<ExplanationRecord>;
      if (typeof record.campaign === 'string' && !record.buyer_name) ids.add(record.campaign);
      continue;
    }
    if (Array.isArray(e[0])) for (const id of e[0] as string[]) ids.add(id);
    else ids.add(e[0] as string);
  }
  const rows =
    ids.size === 0
      ? []
      : await db
          .select({ id: campaigns.id, buyerId: campaigns.buyerId, name: campaigns.name, buyerName: buyers.name })
          .from(campaigns)
          .leftJoin(buyers, eq(buyers.id, campaigns.buyerId))
          .where(inArray(campaigns.id, [...ids]));
  const known = new Map(rows.map((r) => [r.id, r]));
  const named = (id: string) => ({
    campaign: id,
    buyer: known.get(id)?.buyerId ?? '',
    ...(known.get(id)?.buyerName ? { buyer_name: known.get(id)?.buyerName ?? '' } : {}),
    name: known.get(id)?.name ?? '',
  });
  const records: ExplanationRecord[] = [];
  for (const e of entries) {
    if (!Array.isArray(e)) {
      // A record (the engine's own, or a lead stored before the tuples) gets its buyer's name too.
      const record = e as ExplanationRecord;
      const buyerName = record.buyer_name ?? known.get(record.campaign)?.buyerName;
      records.push({
        ...record,
        ...(record.name ? {} : { name: known.get(record.campaign)?.name ?? '' }),
        ...(buyerName ? { buyer_name: buyerName } : {}),
      });
      continue;
    }
    const [first, second, third, fourth] = e as [StoredEntry[0], StoredEntry[1], StoredEntry[2], BidOutcome?];
    const outcome = fourth ? { bid_outcome: fourth } : {};
    if (Array.isArray(first))
      for (const id of first)
        records.push({ ...named(id), eligible: false, rule: second as string, detail: third as string });
    else if (typeof second === 'number')
      records.push({ ...named(first), eligible: true, price: second, won: third === 1, ...outcome });
    else records.push({ ...named(first), eligible: false, rule: second, detail: third as string, ...outcome });
  }
  return records;
}

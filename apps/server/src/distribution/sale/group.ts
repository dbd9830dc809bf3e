import type { SqlRunner } from '../../db/raw';
import { type GroupedSale, type NotStored, storeSale, storeSales } from './sale.repo';

/** How the one-statement sale stores a lead: alone, or with the sales that arrive while a group is stored. */
export type StoreAtOnce = (sale: GroupedSale) => Promise<NotStored | null>;

/** Group commit's limits: groups stored at once (each on its pooled connection), sales in one group. */
export interface GroupOptions {
  flushes?: number;
  maxGroup?: number;
  /**
   * Fewer waiting sales than this are each stored alone, at once; 0 stores every sale alone (no groups).
   * A group's statement costs more than the single one until a few sales share it: at 5 connections,
   * groups of 2-3 cost about 3 ms of PostgreSQL CPU a post against about 1 ms alone (docs/benchmarks.md).
   */
  minGroup?: number;
}

interface Waiting {
  sale: GroupedSale;
  resolve: (outcome: NotStored | null) => void;
  reject: (error: unknown) => void;
}

/** The one-statement sale alone, as before group commit. */
export const storeAlone =
  (db: SqlRunner): StoreAtOnce =>
  ({ lead, sale, check, unlisted }) =>
    storeSale(db, lead, sale, check, unlisted);

/** What two sales of one group must not share: a ping id, a phone, an email (their checks would depend on each other). */
function keysOf({ lead }: GroupedSale): string[] {
  const keys: string[] = [];
  if (lead.pingId !== 'no_ping') keys.push(`ping:${lead.pingId}`);
  if (lead.phone) keys.push(`phone:${lead.phone}`);
  if (lead.email) keys.push(`email:${lead.email}`);
  return keys;
}

/**
 * Group commit for the one-statement sale (issue 36 item 1). A sale is stored at once when fewer
 * than `flushes` groups are being stored (one post alone is the one statement it always was); the
 * sales that arrive meanwhile wait for a group to end, never for one to fill, and are then stored
 * together: one statement, one transaction, one WAL flush (STORE_SALES). Each keeps its own outcome.
 * A sale the group's counters could not take is answered 'cap_full', so it falls back to its careful
 * path alone, and the others are stored together again; a group that fails otherwise (a deadlock, say)
 * has each of its sales stored alone, so no sale is ever taken down by another.
 */
export function groupCommit(db: SqlRunner, options: GroupOptions = {}) {
  const flushes = options.flushes ?? 2;
  const maxGroup = options.maxGroup ?? 50;
  const minGroup = options.minGroup === 0 ? Number.POSITIVE_INFINITY : (options.minGroup ?? 4);
  const queue: Waiting[] = [];
  const alone = storeAlone(db);
  let running = 0;

  /** The next group: the waiting sales in order, up to `maxGroup`, each sharing no key with an earlier one. */
  function nextGroup(): Waiting[] {
    const group: Waiting[] = [];
    const held = new Set<string>();
    const later: Waiting[] = [];
    for (const waiting of queue) {
      const keys = keysOf(waiting.sale);
      if (group.length < maxGroup && keys.every((k) => !held.has(k))) {
        group.push(waiting);
        for (const k of keys) held.add(k);
      } else later.push(waiting);
    }
    queue.splice(0, queue.length, ...later);
    return group;
  }

  const storeEachAlone = (group: Waiting[]) => Promise.all(group.map((w) => alone(w.sale).then(w.resolve, w.reject)));

  async function settle(group: Waiting[]): Promise<void> {
    if (group.length < minGroup) return storeEachAlone(group).then(() => {});
    let stored: Awaited<ReturnType<typeof storeSales>>;
    try {
      stored = await storeSales(
        db,
        group.map((w) => w.sale),
      );
    } catch {
      // Not a sale's own refusal: each is stored alone, and answers its own error if it has one.
      await storeEachAlone(group);
      return;
    }
    if ('outcomes' in stored) {
      group.forEach((w, i) => {
        w.resolve(stored.outcomes[i] ?? null);
      });
      return;
    }
    const { refused } = stored;
    if (refused.size === 0) return storeEachAlone(group).then(() => {});
    for (const [i, w] of group.entries()) if (refused.has(i)) w.resolve('cap_full');
    await settle(group.filter((_, i) => !refused.has(i)));
  }

  async function run(): Promise<void> {
    running += 1;
    try {
      while (queue.length > 0) await settle(nextGroup());
    } finally {
      running -= 1;
    }
  }

  const store: StoreAtOnce = (sale) =>
    new Promise((resolve, reject) => {
      queue.push({ sale, resolve, reject });
      if (running < flushes) void run();
    });
  return { store };
}

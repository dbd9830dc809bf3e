import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/**
 * ulid's default generator asks the system for one random byte per character (16 calls an id), a
 * large share of a ping's CPU; this draws the same bytes from the same CSPRNG in 4 KB batches.
 * A byte / 256 is uniform over ulid's 32 symbols, as 32 divides 256.
 */
function pooledRandom(): () => number {
  const pool = Buffer.alloc(4096);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    return (pool[next++] as number) / 256;
  };
}

const ulid = monotonicFactory(pooledRandom());

/** Prefixes name what an id points to, so a stray id in a log or URL explains itself. */
export type IdPrefix =
  | 'req'
  | 'buy'
  | 'src'
  | 'chn'
  | 'key'
  | 'cmp'
  | 'cse'
  | 'csf'
  | 'zst'
  | 'lead'
  | 'mat'
  | 'whk'
  | 'msg'
  | 'att'
  | 'out'
  | 'usr'
  | 'sif'
  | 'png'
  | 'bil'
  | 'adj'
  | 'ppe'
  | 'chb'
  | 'ads'
  | 'pcl'
  | 'spl'
  | 'opt'
  | 'acc'
  | 'era'
  | 'drp'
  | 'ern';

/** A new time-sortable id (ULID) with a readable prefix: `buy_01J…`. */
export const newId = (prefix: IdPrefix): string => `${prefix}_${ulid().toLowerCase()}`;

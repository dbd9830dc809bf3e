/**
 * Suppression lists for the bench (issue 34): `BENCH_SUPPRESSION=1` loads, after the exchange is
 * seeded, a global list of 1,000,000 phones (BENCH_SUPPRESSION_GLOBAL) and a list of 100,000 emails
 * (BENCH_SUPPRESSION_BUYER) for each of the first 10 buyers (BENCH_SUPPRESSION_BUYERS), hashed with the
 * server's secret as the service does, so the sale's lookup runs against lists of that size.
 * `npx tsx bench/suppression.ts` alone seeds the bench exchange and loads them into BENCH_DATABASE_URL's
 * (fresh) database: a check of the set-up.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../apps/server/src/db/client';
import { openDatabase } from '../apps/server/src/db/client';
import { newId } from '../apps/server/src/lib/ids';
import { contactHasherFor } from '../apps/server/src/modules/suppression/suppression.hash';
import { suppressionRepo } from '../apps/server/src/modules/suppression/suppression.repo';
import { positive } from './env';
import { prng, seedBenchDatabase } from './seed';

const BATCH = 10_000;

export interface SuppressionBenchSize {
  global: number;
  perBuyer: number;
  buyers: number;
}

export function suppressionBenchSize(): SuppressionBenchSize | null {
  if (!process.env.BENCH_SUPPRESSION) return null;
  return {
    global: positive('BENCH_SUPPRESSION_GLOBAL', 1_000_000),
    perBuyer: positive('BENCH_SUPPRESSION_BUYER', 100_000),
    buyers: positive('BENCH_SUPPRESSION_BUYERS', 10),
  };
}

async function fill(
  db: Db,
  listId: string,
  count: number,
  value: (i: number) => string,
  kind: 'phone' | 'email',
  secret: string,
) {
  const hasher = contactHasherFor(secret);
  const at = new Date();
  for (let start = 0; start < count; start += BATCH) {
    const hashes: string[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) hashes.push(hasher.hash(kind, value(i)));
    await suppressionRepo.addEntries(db, listId, hashes, { source: 'csv', reason: null, at });
  }
}

/** Loads the lists; answers how long it took. */
export async function seedSuppressionLists(db: Db, secret: string, size: SuppressionBenchSize): Promise<number> {
  const started = performance.now();
  const now = new Date();
  const random = prng(34);
  const globalId = newId('spl');
  await suppressionRepo.insertList(db, {
    id: globalId,
    buyerId: null,
    name: 'Bench litigators',
    kind: 'phone',
    purpose: 'litigators',
    createdAt: now,
    updatedAt: now,
  });
  // Phones in area codes 200-999 the bench's leads may also draw: some of its posts are refused.
  await fill(
    db,
    globalId,
    size.global,
    () => `${200 + Math.floor(random() * 800)}${String(2_000_000 + Math.floor(random() * 7_999_999)).padStart(7, '0')}`,
    'phone',
    secret,
  );
  const rows = (await db.execute(sql`select id from buyers order by id limit ${size.buyers}`)) as unknown as {
    rows: { id: string }[];
  };
  for (const { id: buyerId } of rows.rows) {
    const listId = newId('spl');
    await suppressionRepo.insertList(db, {
      id: listId,
      buyerId,
      name: 'Bench customers',
      kind: 'email',
      purpose: 'customers',
      createdAt: now,
      updatedAt: now,
    });
    await fill(db, listId, size.perBuyer, (i) => `customer.${buyerId}.${i}@bench.example`, 'email', secret);
  }
  await db.execute(sql`analyze suppression_entries`);
  return performance.now() - started;
}

// Run alone: a check of the set-up against a fresh database.
if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const database = await openDatabase({ url, poolSize: 2 });
  await database.migrate();
  const secret = process.env.LEADEX_SECRET ?? randomBytes(32).toString('base64url');
  await seedBenchDatabase(database.db, secret);
  const size = suppressionBenchSize() ?? { global: 1_000, perBuyer: 100, buyers: 2 };
  const ms = await seedSuppressionLists(database.db, secret, size);
  const counts = (await database.db.execute(
    sql`select l.name, l.buyer_id, l.entry_count, (select count(*) from suppression_entries e where e.list_id = l.id)::int as n from suppression_lists l where l.name like 'Bench %'`,
  )) as unknown as { rows: unknown[] };
  console.log(JSON.stringify({ ms: Math.round(ms), lists: counts.rows }, null, 1));
  await database.close();
}

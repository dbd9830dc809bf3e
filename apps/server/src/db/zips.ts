import { count } from 'drizzle-orm';
import { readZipData, type ZipRow } from '../lib/zip-data';
import type { Db } from './client';
import { zips } from './schema';

export { readZipData, type ZipRow };

/** Fills the zips table on first start (about 41,000 rows); later starts find it filled. */
export async function loadZipsIfEmpty(db: Db): Promise<number> {
  const [existing] = await db.select({ n: count() }).from(zips);
  if ((existing?.n ?? 0) > 0) return 0;
  const rows = readZipData();
  const BATCH = 2000;
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += BATCH) {
      await tx
        .insert(zips)
        .values(rows.slice(i, i + BATCH))
        .onConflictDoNothing();
    }
  });
  return rows.length;
}

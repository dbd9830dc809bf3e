import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { engineVersions } from '../db/schema';

/** What changed, so every process reloads its index: call inside the changing transaction. */
export type EngineInput = 'campaigns' | 'buyers' | 'sources' | 'zipsets' | 'settings' | 'services' | 'webhooks';

export async function bumpEngineVersion(tx: Db | Tx, name: EngineInput): Promise<void> {
  await tx
    .insert(engineVersions)
    .values({ name, version: 1 })
    .onConflictDoUpdate({ target: engineVersions.name, set: { version: sql`${engineVersions.version} + 1` } });
}

/** A fingerprint of all versions: when it moves, the snapshot is stale. */
export async function readEngineVersion(db: Db): Promise<string> {
  const rows = await db.select().from(engineVersions).orderBy(engineVersions.name);
  return rows.map((r) => `${r.name}:${r.version}`).join(',');
}

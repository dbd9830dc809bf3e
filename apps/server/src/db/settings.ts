import { eq } from 'drizzle-orm';
import type { Db, Tx } from './client';
import { settings } from './schema';

/**
 * The key/value settings table, read and written the same way by every module that keeps a setting in it
 * (the exchange's zone, the simulator's mock date and whitelist); each module owns its own keys.
 */

/** A setting's stored value, or null when it is not set. */
export async function readSetting<T>(db: Db | Tx, key: string): Promise<T | null> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return (row?.value as T | undefined) ?? null;
}

/** Stores a setting, replacing what the key held. */
export async function writeSetting(db: Db | Tx, key: string, category: string, value: unknown, at: Date) {
  await db
    .insert(settings)
    .values({ key, category, value, updatedAt: at })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: at } });
}

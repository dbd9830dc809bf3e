import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';

/** The exchange-wide settings this module owns, in the key/value settings table. */
export const settingsRepo = {
  async get<T>(db: Db, key: string): Promise<T | null> {
    const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
    return (row?.value as T | undefined) ?? null;
  },

  async save(db: Db, key: string, category: string, value: unknown, at: Date): Promise<void> {
    await db
      .insert(settings)
      .values({ key, category, value, updatedAt: at })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: at } });
  },
};

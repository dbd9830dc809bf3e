import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

export const systemRepo = {
  /** The cheapest statement the database must answer: a connection, a round trip. */
  async ping(db: Db): Promise<void> {
    await db.execute(sql`select 1`);
  },
};

import { isNull, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client';
import { campaigns, services, sources, zips } from '../../db/schema';
import { readSetting, writeSetting } from '../../db/settings';

/**
 * What the reset keeps: the ZIP reference data, the engine's version counters, the admins (below), and
 * the compliance records (the access log is append-only; erasure requests are kept 24 months).
 */
const KEPT_TABLES = new Set([
  'zips',
  'engine_versions',
  'user',
  'session',
  'account',
  'access_log',
  'erasure_requests',
]);

/** A ZIP and service pair some live campaign buys. */
export interface BuyablePair {
  zip: string;
  service: string;
}

export const simRepo = {
  /** The sources that may sell now (not on hold), for simulated leads. */
  async activeSourceIds(db: Db): Promise<string[]> {
    const rows = await db.select({ id: sources.id }).from(sources).where(isNull(sources.heldAt));
    return rows.map((r) => r.id);
  },

  async serviceNames(db: Db): Promise<string[]> {
    return (await db.select({ name: services.name }).from(services)).map((r) => r.name);
  },

  /**
   * For each live campaign, up to `perCampaign` ZIP and service pairs it buys: from its ZIP list, its
   * Region's ZIPs, or ZIPs of its states (a random few).
   */
  async buyablePairs(db: Db, perCampaign = 5): Promise<BuyablePair[]> {
    const result = await db.execute(sql`
      select z.zip, s.service
      from ${campaigns} c
      cross join lateral unnest(c.services) as s(service)
      cross join lateral (
        select zip from (
          select unnest(c.zips) as zip where c.location = 'zip'
          union all
          select unnest(zs.zips) from zipsets zs where c.location = 'zipset' and zs.id = c.zipset_id
          union all
          select zz.zip from ${zips} zz where c.location = 'state' and zz.state = any(c.states)
        ) candidates
        order by random()
        limit ${perCampaign}
      ) z
      where c.status = 'live'`);
    return rowsOf<BuyablePair>(result);
  },

  /** `n` ZIPs at random, for leads aimed at no campaign in particular. */
  async randomZips(db: Db, n: number): Promise<string[]> {
    const result = await db.execute(sql`select zip from ${zips} order by random() limit ${n}`);
    return rowsOf<{ zip: string }>(result).map((r) => r.zip);
  },

  setting: readSetting,

  saveSetting: writeSetting,

  /**
   * Empties the exchange (POST /sim/reset-db): every table of the public schema but the kept ones, and
   * every user but the admins (with their sessions and accounts), so the admin who reset stays signed in.
   */
  async emptyExchange(tx: Tx): Promise<void> {
    const tables = await tx.execute(sql`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE'`);
    const emptied = rowsOf<{ name: string }>(tables)
      .map((t) => t.name)
      .filter((name) => !KEPT_TABLES.has(name));
    if (emptied.length > 0)
      await tx.execute(sql.raw(`truncate table ${emptied.map((name) => `"public"."${name}"`).join(', ')}`));
    const admins = sql`(select id from "user" where role = 'admin')`;
    await tx.execute(sql`delete from "session" where user_id not in ${admins}`);
    await tx.execute(sql`delete from "account" where user_id not in ${admins}`);
    await tx.execute(sql`delete from "user" where role is distinct from 'admin'`);
  },
};

import { and, asc, eq, inArray, isNull, like, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { recordsById } from '../../db/records';
import { zips, zipsets } from '../../db/schema';

export type ZipRow = typeof zips.$inferSelect;
export type ZipsetRow = typeof zipsets.$inferSelect;

/** A ZIP found by a search; `distance` in miles on radius searches. */
export interface ZipHit {
  zip: string;
  city: string;
  state: string;
  county: string | null;
  distance?: number;
}

/** A county named in the ZIP table, with how many ZIPs it holds. */
export interface CountyHit {
  county: string;
  state: string;
  zips: number;
}

/** Mean radius of the Earth in miles (the haversine's R). */
export const EARTH_RADIUS_MILES = 3958.7613;

/** Escapes LIKE wildcards so the text matches as typed. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The latitude/longitude box holding every point within `radius` miles of a point: an index range
 * that spares the haversine most of the table. Near a pole (or for a circle wider than the
 * longitude span) the box takes every longitude.
 */
export function boundingBox(lat: number, lon: number, radiusMiles: number) {
  const angular = radiusMiles / EARTH_RADIUS_MILES;
  const latRad = (lat * Math.PI) / 180;
  const dLat = (angular * 180) / Math.PI;
  const ratio = Math.sin(angular) / Math.cos(latRad);
  const dLon = ratio >= 1 || !Number.isFinite(ratio) ? 180 : (Math.asin(ratio) * 180) / Math.PI;
  return { minLat: lat - dLat, maxLat: lat + dLat, minLon: lon - dLon, maxLon: lon + dLon };
}

const zipsetRecords = recordsById(zipsets);

export const zipsRepo = {
  async findZip(db: Db | Tx, zip: string): Promise<ZipRow | null> {
    const [row] = await db.select().from(zips).where(eq(zips.zip, zip));
    return row ?? null;
  },

  /** ZIPs starting with the digits, in order. */
  async zipsWithPrefix(db: Db, prefix: string, limit: number): Promise<ZipRow[]> {
    return db
      .select()
      .from(zips)
      .where(like(zips.zip, `${likeEscape(prefix)}%`))
      .orderBy(asc(zips.zip))
      .limit(limit);
  },

  /**
   * Counties whose name (or a word of it) starts with the text, optionally in one state: names
   * starting with it first, then by name and state.
   */
  async countiesMatching(db: Db, text: string, state: string | undefined, limit: number): Promise<CountyHit[]> {
    const prefix = `${likeEscape(text)}%`;
    const startsWith = sql`${zips.county} ilike ${prefix}`;
    const wordStartsWith = sql`${zips.county} ilike ${`% ${likeEscape(text)}%`}`;
    const rows = await db
      .select({
        county: sql<string>`${zips.county}`,
        state: zips.state,
        zips: sql<number>`count(*)::int`,
        starts: sql<boolean>`bool_or(${startsWith})`,
      })
      .from(zips)
      .where(and(or(startsWith, wordStartsWith), state ? eq(zips.state, state) : undefined))
      .groupBy(zips.county, zips.state)
      .orderBy(sql`bool_or(${startsWith}) desc`, asc(zips.county), asc(zips.state))
      .limit(limit);
    return rows.map(({ county, state: st, zips: n }) => ({ county, state: st, zips: n }));
  },

  /**
   * ZIPs within `radiusMiles` of a point by the haversine great-circle distance, nearest first.
   * The bounding box narrows the rows by index; the exact distance decides.
   */
  async withinRadius(db: Db, center: { lat: number; lon: number }, radiusMiles: number): Promise<ZipHit[]> {
    const box = boundingBox(center.lat, center.lon, radiusMiles);
    const lat0 = sql`${center.lat}::double precision`;
    const lon0 = sql`${center.lon}::double precision`;
    const distance = sql<number>`${EARTH_RADIUS_MILES}::double precision * 2 * asin(least(1, sqrt(
      power(sin(radians(${zips.lat} - ${lat0}) / 2), 2)
      + cos(radians(${lat0})) * cos(radians(${zips.lat})) * power(sin(radians(${zips.lon} - ${lon0}) / 2), 2)
    )))`;
    const inBox = sql`${zips.lat} between ${box.minLat}::double precision and ${box.maxLat}::double precision
      and ${zips.lon} between ${box.minLon}::double precision and ${box.maxLon}::double precision`;
    const near = db
      .select({ zip: zips.zip, city: zips.city, state: zips.state, county: zips.county, distance: distance.as('d') })
      .from(zips)
      .where(inBox)
      .as('near');
    const rows = await db
      .select()
      .from(near)
      .where(sql`${near.distance} <= ${radiusMiles}::double precision`)
      .orderBy(asc(near.distance), asc(near.zip));
    return rows.map((r) => ({ ...r, distance: Number(r.distance) }));
  },

  /** Every ZIP of a county in a state; `names` are the lower-cased spellings to accept. */
  async inCounty(db: Db, names: string[], state: string): Promise<ZipHit[]> {
    return db
      .select({ zip: zips.zip, city: zips.city, state: zips.state, county: zips.county })
      .from(zips)
      .where(and(eq(zips.state, state), inArray(sql`lower(${zips.county})`, names)))
      .orderBy(asc(zips.zip));
  },

  /**
   * Regions, by name. `buyerId` undefined: all of them (an admin); otherwise the exchange-wide ones
   * and that buyer's own.
   */
  async listZipsets(db: Db, buyerId?: string): Promise<ZipsetRow[]> {
    return db
      .select()
      .from(zipsets)
      .where(buyerId === undefined ? undefined : or(isNull(zipsets.buyerId), eq(zipsets.buyerId, buyerId)))
      .orderBy(asc(zipsets.name), asc(zipsets.id));
  },

  /** A region the scope may use (as listZipsets), or null: another buyer's region is not found. */
  async findZipset(db: Db | Tx, id: string, buyerId?: string): Promise<ZipsetRow | null> {
    const scope = buyerId === undefined ? undefined : or(isNull(zipsets.buyerId), eq(zipsets.buyerId, buyerId));
    const [row] = await db
      .select()
      .from(zipsets)
      .where(and(eq(zipsets.id, id), scope));
    return row ?? null;
  },

  insertZipset: zipsetRecords.insert,

  /**
   * Holds, until the transaction ends, a lock on a region name (trimmed, any case): two saves of
   * the same name wait for each other, so the second one sees the first's row.
   */
  async lockZipsetName(tx: Tx, name: string): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(${ZIPSET_NAME_LOCK}, hashtext(${normalName(name)}))`);
  },

  /**
   * The first region named `name` (trimmed, any case) that clashes with a region of `buyerId`'s scope,
   * other than `exceptId`. An exchange-wide region (`buyerId` null) is seen by every buyer, so it
   * clashes with any region; a buyer's clashes with the exchange-wide ones and that buyer's own.
   */
  async findZipsetNamed(
    db: Db | Tx,
    name: string,
    buyerId: string | null,
    exceptId?: string,
  ): Promise<ZipsetRow | null> {
    const scope = buyerId === null ? undefined : or(isNull(zipsets.buyerId), eq(zipsets.buyerId, buyerId));
    const [row] = await db
      .select()
      .from(zipsets)
      .where(
        and(
          sql`lower(btrim(${zipsets.name})) = ${normalName(name)}`,
          scope,
          exceptId === undefined ? undefined : ne(zipsets.id, exceptId),
        ),
      )
      .limit(1);
    return row ?? null;
  },

  renameZipset(db: Db | Tx, id: string, name: string): Promise<ZipsetRow | null> {
    return zipsetRecords.update(db, id, { name });
  },
};

/** The advisory lock class of region names (see lockZipsetName); other locks use other numbers. */
const ZIPSET_NAME_LOCK = 727_101;

/** A region name as the uniqueness rule compares it. */
const normalName = (name: string) => name.trim().toLowerCase();

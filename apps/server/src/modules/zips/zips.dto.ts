import { countyDisplayName, type ZipSearchResult, type ZipSuggestion, type Zipset } from '@leadex/domain';
import { toEpochSeconds } from '../../lib/clock';
import type { CountyHit, ZipHit, ZipRow, ZipsetRow } from './zips.repo';

/** A region as the API answers it: `_id`, `ts` in epoch seconds, `buyer` only on a buyer's own. */
export function toZipset(row: ZipsetRow): Zipset {
  return {
    _id: row.id,
    name: row.name,
    description: row.description ?? undefined,
    zips: row.zips,
    buyer: row.buyerId ?? undefined,
    ts: toEpochSeconds(row.createdAt),
  };
}

export function toZipSuggestion(row: ZipRow): ZipSuggestion {
  return {
    key: `zip:${row.zip}`,
    displayName: `${row.zip} - ${row.city}, ${row.state}`,
    name: row.zip,
    state: row.state,
    type: 'Zip',
  };
}

export function toCountySuggestion(hit: CountyHit): ZipSuggestion {
  return {
    key: `county:${hit.state}:${hit.county}`,
    displayName: countyDisplayName(hit.county, hit.state),
    name: hit.county,
    state: hit.state,
    type: 'County',
  };
}

/** A found ZIP; the distance in miles with two decimals. */
export function toZipSearchResult(hit: ZipHit): ZipSearchResult {
  return {
    zip: hit.zip,
    city: hit.city,
    state: hit.state,
    county: hit.county ?? undefined,
    ...(hit.distance === undefined ? {} : { distance: Math.round(hit.distance * 100) / 100 }),
  };
}

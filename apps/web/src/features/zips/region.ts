import { countyDisplayName, ZIP_RADIUS, ZIP_SUGGESTIONS, type ZipSuggestion } from '@leadex/domain';

/** What the region builder searches: the ZIPs around a ZIP, or a county's ZIPs. */
export type RegionSearch =
  | { type: 'radius'; zip: string; radius: number }
  | { type: 'county'; county: string; state: string };

/** Admin §5: suggestions start only from 2 characters. */
export function wantsSuggestions(text: string): boolean {
  return text.trim().length >= ZIP_SUGGESTIONS.minChars;
}

/** The search a chosen suggestion starts: a ZIP searches its radius (default 5 miles), a county its ZIPs. */
export function searchFor(choice: ZipSuggestion, radius: number = ZIP_RADIUS.defaultMiles): RegionSearch {
  return choice.type === 'Zip'
    ? { type: 'radius', zip: choice.name, radius }
    : { type: 'county', county: choice.name, state: choice.state };
}

/** A radius the search accepts (0 < r ≤ 200 miles), or null for an empty or out-of-range input. */
export function validRadius(value: string | number): number | null {
  const n = typeof value === 'number' ? value : Number(value);
  if (value === '' || !Number.isFinite(n) || n <= 0 || n > ZIP_RADIUS.maxMiles) return null;
  return n;
}

/** The results' heading: "12 ZIPs within 10 miles of 10001", "37 ZIPs in Kings County, NY". */
export function describeSearch(search: RegionSearch, found: number): string {
  const zips = `${found.toLocaleString('en-US')} ${found === 1 ? 'ZIP' : 'ZIPs'}`;
  if (search.type === 'radius')
    return `${zips} within ${search.radius} ${search.radius === 1 ? 'mile' : 'miles'} of ${search.zip}`;
  return `${zips} in ${countyDisplayName(search.county, search.state)}`;
}

/** The region with `added` appended: each ZIP once, in the order first added. */
export function addZips(region: readonly string[], added: readonly string[]): string[] {
  const seen = new Set(region);
  const next = [...region];
  for (const zip of added) {
    if (!seen.has(zip)) {
      seen.add(zip);
      next.push(zip);
    }
  }
  return next;
}

/** The region without `removed`. */
export function removeZips(region: readonly string[], removed: readonly string[]): string[] {
  const drop = new Set(removed);
  return region.filter((zip) => !drop.has(zip));
}

/** How many of `found` the region does not hold yet. */
export function countNew(region: readonly string[], found: readonly string[]): number {
  const held = new Set(region);
  return found.filter((zip) => !held.has(zip)).length;
}

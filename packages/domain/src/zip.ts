import { z } from 'zod';
import { emptyToUndefined, optionalText, requiredText } from './common';
import { US_STATES } from './constants';
import { whenMissing } from './messages';

/** ZIP radius search (admin §9): default 5 miles; the largest radius keeps an answer to a few thousand ZIPs. */
export const ZIP_RADIUS = { defaultMiles: 5, maxMiles: 200 } as const;

/** ZIP suggestions (admin §5, §9): from 2 characters, debounced 1000 ms, at most 20 answers. */
export const ZIP_SUGGESTIONS = { minChars: 2, debounceMs: 1000, limit: 20 } as const;

/** Most ZIPs a region may hold (the whole country has about 41,000). */
export const MAX_ZIPSET_ZIPS = 50_000;

/** Validation messages of the ZIP search and the region form. */
export const ZIP_MESSAGES = {
  type: 'Type must be radius or county',
  zipRequired: 'Zip is required',
  zipFormat: 'Zip must be 5 digits',
  radiusNumber: 'Radius must be a number',
  radiusMin: 'Radius must be greater than 0',
  radiusMax: `Radius must be less than or equal to ${ZIP_RADIUS.maxMiles}`,
  countyRequired: 'County is required',
  stateRequired: 'State is required',
  stateInvalid: 'Choose a US state',
  nameRequired: 'Name is required',
  zipsRequired: 'At least one zip code is required',
  zipsFormat: 'Zip codes must be 5 digits',
  zipsTooMany: `A region holds at most ${MAX_ZIPSET_ZIPS} zip codes`,
} as const;

export const ZIP_SUGGESTION_TYPES = ['Zip', 'County'] as const;
export type ZipSuggestionType = (typeof ZIP_SUGGESTION_TYPES)[number];

/** One answer of GET /api/zip/suggestions: a ZIP (name = the ZIP) or a county (name = the county). */
export const zipSuggestionSchema = z.object({
  key: z.string(),
  /** "10001 - New York, NY" or "Kings County, NY". */
  displayName: z.string(),
  name: z.string(),
  state: z.string(),
  type: z.enum(ZIP_SUGGESTION_TYPES),
});
export type ZipSuggestion = z.infer<typeof zipSuggestionSchema>;

/** One ZIP of GET /api/zip/search; `distance` (miles from the searched ZIP) on radius searches. */
export const zipSearchResultSchema = z.object({
  zip: z.string(),
  city: z.string(),
  state: z.string(),
  county: z.string().optional(),
  distance: z.number().optional(),
});
export type ZipSearchResult = z.infer<typeof zipSearchResultSchema>;

/** A named region (admin §3 Zipset); `buyer` is the buyer who made it, absent for exchange-wide ones. */
export const zipsetSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string().optional(),
  zips: z.array(z.string()),
  buyer: z.string().optional(),
  ts: z.number(),
});
export type Zipset = z.infer<typeof zipsetSchema>;

/** GET /api/zip/suggestions?q=: fewer than 2 characters answer an empty list. */
export const zipSuggestionsQuery = z.object({
  q: z.string().max(100, 'Search text must be at most 100 characters').optional().default(''),
});
export type ZipSuggestionsQuery = z.infer<typeof zipSuggestionsQuery>;

const upperState = z.preprocess(
  (v) => (typeof v === 'string' ? emptyToUndefined(v.trim().toUpperCase()) : v),
  z.enum(US_STATES, { error: ZIP_MESSAGES.stateInvalid }).optional(),
);

/**
 * GET /api/zip/search: `type=radius&zip=&radius=` (radius in miles, default 5) or
 * `type=county&county=&state=` (the county with or without the word County).
 */
export const zipSearchQuery = z
  .object({
    type: z.enum(['radius', 'county'], { error: ZIP_MESSAGES.type }),
    zip: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .regex(/^\d{5}$/, ZIP_MESSAGES.zipFormat)
        .optional(),
    ),
    radius: z.preprocess(
      emptyToUndefined,
      z.coerce
        .number({ error: ZIP_MESSAGES.radiusNumber })
        .gt(0, ZIP_MESSAGES.radiusMin)
        .max(ZIP_RADIUS.maxMiles, ZIP_MESSAGES.radiusMax)
        .default(ZIP_RADIUS.defaultMiles),
    ),
    county: optionalText(100),
    state: upperState,
  })
  .superRefine((q, ctx) => {
    if (q.type === 'radius' && !q.zip)
      ctx.addIssue({ code: 'custom', path: ['zip'], message: ZIP_MESSAGES.zipRequired });
    if (q.type === 'county') {
      if (!q.county) ctx.addIssue({ code: 'custom', path: ['county'], message: ZIP_MESSAGES.countyRequired });
      if (!q.state) ctx.addIssue({ code: 'custom', path: ['state'], message: ZIP_MESSAGES.stateRequired });
    }
  });
export type ZipSearchQuery = z.infer<typeof zipSearchQuery>;

/** GET /api/zipset: an admin may narrow to the regions one buyer can use (exchange-wide and its own). */
export const zipsetListQuery = z.object({
  buyer: z.preprocess(emptyToUndefined, z.string().trim().max(100).optional()),
});
export type ZipsetListQuery = z.infer<typeof zipsetListQuery>;

/** Trims the entries and keeps each once, in order; anything else is left for the schema to refuse. */
function uniqueTrimmed(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  for (const entry of value) {
    const v = typeof entry === 'string' ? entry.trim() : entry;
    if (!seen.has(v)) {
      seen.add(v);
      out.push(v);
    }
  }
  return out;
}

/** POST /api/zipset (admin §7): name, optional description, one or more 5-digit ZIPs (kept once each). */
export const zipsetCreateSchema = z.object(
  {
    name: requiredText(ZIP_MESSAGES.nameRequired, 200),
    description: optionalText(1000),
    zips: z.preprocess(
      uniqueTrimmed,
      // Entries are checked as a whole, so a bad one names the field `zips` (not `zips.3`).
      z
        .array(z.unknown(), { error: whenMissing(ZIP_MESSAGES.zipsRequired) })
        .min(1, ZIP_MESSAGES.zipsRequired)
        .max(MAX_ZIPSET_ZIPS, ZIP_MESSAGES.zipsTooMany)
        .refine((list) => list.every((zip) => typeof zip === 'string' && /^\d{5}$/.test(zip)), ZIP_MESSAGES.zipsFormat)
        .transform((list) => list as string[]),
    ),
  },
  { error: whenMissing(ZIP_MESSAGES.nameRequired) },
);
export type ZipsetCreate = z.infer<typeof zipsetCreateSchema>;

/** Words that already say what kind of area a county-level name is ("Caddo Parish", "Baltimore (city)"). */
const AREA_WORDS = /\b(county|parish|borough|census area|municipality)\b|\(city\)/i;

/** A county as people read it: "Kings County, NY"; names that carry their own kind stay as they are. */
export function countyDisplayName(county: string, state: string): string {
  return `${AREA_WORDS.test(county.trim()) ? county.trim() : `${county.trim()} County`}, ${state}`;
}

/** The county's name without a trailing "County" or "Parish": "Kings County" -> "Kings". */
export function countyBaseName(input: string): string {
  return input
    .trim()
    .replace(/\s+(county|parish)$/i, '')
    .trim();
}

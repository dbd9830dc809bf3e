import {
  countyBaseName,
  US_STATES,
  ZIP_MESSAGES,
  ZIP_SUGGESTIONS,
  type ZipSearchQuery,
  type ZipSearchResult,
  type ZipSuggestion,
  type Zipset,
  type ZipsetCreate,
  type ZipsetListQuery,
} from '@leadex/domain';
import type { Db, Tx } from '../../db/client';
import type { Engine } from '../../distribution/engine';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Viewer } from '../../plugins/auth';
import { toCountySuggestion, toZipSearchResult, toZipSuggestion, toZipset } from './zips.dto';
import { zipsRepo } from './zips.repo';

export interface ZipsServiceDeps {
  db: Db;
  clock: Clock;
  engine: Engine;
}

const STATES = new Set<string>(US_STATES);

/** The `name` error of a region named like one its viewers already see (issue 9: two "Dallas Metro"). */
export const ZIPSET_NAME_TAKEN = 'A region with this name already exists';

/**
 * Reads county search text: "Kings", "Kings County", "kings co", "Kings, NY", "Kings County NY".
 * A trailing state needs a comma or the word County before it ("Kings Co" is not Colorado); a
 * trailing, possibly half-typed "County" is dropped, since the ZIP table names counties bare.
 */
export function parseCountyText(text: string): { name: string; state?: string } {
  let rest = text.trim().replace(/\s+/g, ' ');
  let state: string | undefined;
  const trailing = /^(.*?)(?:,\s*|(?<=\bcounty)\s+)([a-z]{2})$/i.exec(rest);
  if (trailing?.[1] && STATES.has((trailing[2] as string).toUpperCase())) {
    rest = trailing[1].replace(/,\s*$/, '');
    state = (trailing[2] as string).toUpperCase();
  }
  const withoutWord = rest.replace(/\s+c(o(u(n(t(y)?)?)?)?)?$/i, '');
  return { name: countyBaseName(withoutWord.length >= 2 ? withoutWord : rest), state };
}

export function createZipsService({ db, clock, engine }: ZipsServiceDeps) {
  /** undefined for an admin (every region); a buyer's id otherwise ('' for a buyer user with none: exchange-wide only). */
  const scopeOf = (viewer: Viewer): string | undefined => (viewer.role === 'admin' ? undefined : (viewer.roleId ?? ''));

  return {
    /** ZIPs by prefix (digits) or counties by name (text); fewer than 2 characters answer nothing. */
    async suggestions(q: string): Promise<ZipSuggestion[]> {
      const text = q.trim();
      if (text.length < ZIP_SUGGESTIONS.minChars) return [];
      if (/^\d/.test(text)) {
        const digits = (/^\d+/.exec(text)?.[0] ?? '').slice(0, 5);
        if (digits.length < ZIP_SUGGESTIONS.minChars) return [];
        const rows = await zipsRepo.zipsWithPrefix(db, digits, ZIP_SUGGESTIONS.limit);
        return rows.map(toZipSuggestion);
      }
      const { name, state } = parseCountyText(text);
      if (name.length < ZIP_SUGGESTIONS.minChars) return [];
      const counties = await zipsRepo.countiesMatching(db, name, state, ZIP_SUGGESTIONS.limit);
      return counties.map(toCountySuggestion);
    },

    /** The ZIPs within a radius of a ZIP (nearest first), or every ZIP of a county (by ZIP). */
    async search(query: ZipSearchQuery): Promise<ZipSearchResult[]> {
      if (query.type === 'radius') {
        const zip = query.zip as string;
        const center = await zipsRepo.findZip(db, zip);
        if (!center) throw AppError.field('zip', `Zip ${zip} was not found`);
        if (center.lat === null || center.lon === null)
          throw AppError.field('zip', `Zip ${zip} has no location on record`);
        const hits = await zipsRepo.withinRadius(db, { lat: center.lat, lon: center.lon }, query.radius);
        return hits.map(toZipSearchResult);
      }
      const county = (query.county as string).toLowerCase();
      const base = countyBaseName(county);
      const names = [...new Set([county, base, `${base} county`, `${base} parish`])];
      const hits = await zipsRepo.inCounty(db, names, query.state as string);
      return hits.map(toZipSearchResult);
    },

    /** The regions the viewer may use: all for an admin (or one buyer's choice), else exchange-wide and its own. */
    async list(viewer: Viewer, query: ZipsetListQuery = {}): Promise<Zipset[]> {
      const scope = scopeOf(viewer) ?? query.buyer;
      const rows = await zipsRepo.listZipsets(db, scope);
      return rows.map(toZipset);
    },

    /** A region the viewer may use, or 404 (another buyer's region does not exist for this viewer). */
    async get(viewer: Viewer, id: string): Promise<Zipset> {
      const row = await zipsRepo.findZipset(db, id, scopeOf(viewer));
      if (!row) throw AppError.notFound('Region');
      return toZipset(row);
    },

    /**
     * Saves a region: an admin's is exchange-wide, a buyer's is its own. The engine version moves
     * in the same transaction (regions feed campaign eligibility) and this process reloads at once.
     */
    async create(viewer: Viewer, input: ZipsetCreate): Promise<Zipset> {
      const buyerId = viewer.role === 'buyer' ? viewer.roleId : null;
      if (viewer.role === 'buyer' && !buyerId) throw new AppError('forbidden', 'You do not have access to this');
      const row = await engine.change('zipsets', async (tx) => {
        await refuseTakenName(tx, input.name, buyerId);
        const inserted = await zipsRepo.insertZipset(tx, {
          id: newId('zst'),
          name: input.name,
          description: input.description ?? null,
          zips: input.zips,
          buyerId,
          createdAt: clock.now(),
        });
        return inserted;
      });
      return toZipset(row);
    },

    /**
     * Renames a region the viewer owns (an admin: any; a buyer: its own, not an exchange-wide one).
     * The name follows the create rule: no other region its viewers see may carry it.
     */
    async rename(viewer: Viewer, id: string, name: string): Promise<Zipset> {
      const scope = scopeOf(viewer);
      if (name.trim() === '') throw AppError.field('name', ZIP_MESSAGES.nameRequired);
      const row = await db.transaction(async (tx) => {
        const current = await zipsRepo.findZipset(tx, id, scope);
        if (!current) throw AppError.notFound('Region');
        if (scope !== undefined && current.buyerId !== scope)
          throw new AppError('forbidden', 'Only an admin can rename an exchange-wide region');
        await refuseTakenName(tx, name, current.buyerId, id);
        return zipsRepo.renameZipset(tx, id, name.trim());
      });
      if (!row) throw AppError.notFound('Region');
      // A name changes no eligibility: the engine needs no reload.
      return toZipset(row);
    },
  };
}

/**
 * Refuses a region name (trimmed, any case) that a viewer of the region would already see in the
 * picker: an exchange-wide region's name must be free everywhere, a buyer's among the exchange-wide
 * ones and its own. Concurrent saves of one name are serialised by the name lock; a unique index
 * cannot say "exchange-wide or the same buyer".
 */
async function refuseTakenName(tx: Tx, name: string, buyerId: string | null, exceptId?: string): Promise<void> {
  await zipsRepo.lockZipsetName(tx, name);
  if (await zipsRepo.findZipsetNamed(tx, name, buyerId, exceptId)) throw AppError.field('name', ZIPSET_NAME_TAKEN);
}

export type ZipsService = ReturnType<typeof createZipsService>;

import {
  AD_INTEGRATIONS,
  type AdIntegrationName,
  type AdSpendEntry,
  type AdSpendRow,
  type AdSpendUploadResult,
  adSpendEntrySchema,
} from '@leadex/domain';
import { parse } from 'csv-parse/sync';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { exchangeZone } from '../../lib/exchange-zone';
import type { Logger } from '../../lib/logger';
import { centsToDollars, dollarsToCents } from '../../lib/money';
import { dayInZone } from '../../lib/time';
import { type AdSpendDay, adSpendRepo } from './ad-spend.repo';
import { fetchSpend, ImportError } from './ad-spend-import';
import type { IntegrationsService } from './integrations.service';

const DAY_MS = 86_400_000;
/** The most lines one CSV upload may hold (a year of days for a few sources). */
const MAX_CSV_LINES = 5000;

const rowOf = (r: Awaited<ReturnType<typeof adSpendRepo.since>>[number]): AdSpendRow => ({
  _id: r.id,
  day: r.day,
  sourceId: r.sourceId,
  sourceName: r.sourceName,
  origin: r.origin as AdSpendRow['origin'],
  amount: centsToDollars(r.amountCents),
});

/**
 * Ad spend, the cost of internal sources (DESIGN.md §5, §11): entered by hand or uploaded by CSV (no
 * integration needed), and imported from the ad integrations by the hourly job (yesterday and today,
 * so a day's final figure replaces its partial one).
 */
export function createAdSpendService({
  db,
  clock,
  config,
  integrations,
  logger,
}: {
  db: Db;
  clock: Clock;
  config: Config;
  integrations: IntegrationsService;
  logger: Pick<Logger, 'error'>;
}) {
  async function internalSource(idOrName: string, field: string, prefix = '') {
    const sources = await adSpendRepo.internalSources(db);
    const wanted = idOrName.trim();
    const found =
      sources.find((s) => s.id === wanted) ?? sources.find((s) => s.name.toLowerCase() === wanted.toLowerCase());
    if (!found)
      throw AppError.field(
        field,
        `${prefix}${wanted || 'The source'} is not an internal source (one paid nothing per lead).`,
      );
    return found;
  }

  /** One parsed entry of a form or a CSV line, to the day row it writes. */
  async function dayOf(entry: AdSpendEntry, prefix = ''): Promise<AdSpendDay> {
    const source = await internalSource(entry.sourceId, 'sourceId', prefix);
    return { day: entry.day, sourceId: source.id, origin: 'manual', amountCents: dollarsToCents(entry.amount) };
  }

  return {
    /** Which internal source an ad integration's spend is the cost of; null for none. */
    async chooseSource(name: AdIntegrationName, sourceId: string | null) {
      const source = sourceId === null ? null : await internalSource(sourceId, 'sourceId');
      return integrations.setSource(name, source?.id ?? null);
    },

    async sources() {
      return { data: (await adSpendRepo.internalSources(db)).map((s) => ({ _id: s.id, name: s.name })) };
    },

    async list(days: number): Promise<{ data: AdSpendRow[] }> {
      const from = dayInZone(exchangeZone(), new Date(clock.now().getTime() - (days - 1) * DAY_MS));
      return { data: (await adSpendRepo.since(db, from)).map(rowOf) };
    },

    /** A day's spend entered by hand: replaces that day's manual entry of the source. */
    async save(entry: AdSpendEntry): Promise<AdSpendRow> {
      const day = await dayOf(entry);
      await adSpendRepo.upsert(db, [day], clock.now());
      const [saved] = await adSpendRepo.since(db, day.day, { sourceId: day.sourceId, origin: 'manual' });
      if (!saved) throw new AppError('internal', 'The ad spend was not recorded.');
      return rowOf(saved);
    },

    /**
     * A CSV of `date,source,amount` (source by name or id): every line is checked first and the file is
     * recorded whole or not at all, with the first bad line named.
     */
    async upload(csv: string): Promise<AdSpendUploadResult> {
      let records: Record<string, string>[];
      try {
        records = parse(csv, {
          columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
          skip_empty_lines: true,
          trim: true,
          bom: true,
        });
      } catch (error) {
        throw AppError.field('file', `The file is not a readable CSV: ${(error as Error).message}`);
      }
      if (records.length === 0) throw AppError.field('file', 'The file has no lines of ad spend under its header.');
      if (records.length > MAX_CSV_LINES)
        throw AppError.field('file', `The file has ${records.length} lines; upload at most ${MAX_CSV_LINES} at once.`);
      const missing = ['date', 'source', 'amount'].filter((c) => !(c in (records[0] ?? {})));
      if (missing.length > 0)
        throw AppError.field(
          'file',
          `The header must name the columns date, source and amount (missing: ${missing.join(', ')}).`,
        );
      const byKey = new Map<string, AdSpendDay>();
      for (const [i, record] of records.entries()) {
        // Line 1 is the header.
        const prefix = `Line ${i + 2}: `;
        const parsed = adSpendEntrySchema.safeParse({
          sourceId: record.source,
          day: record.date,
          amount: record.amount,
        });
        if (!parsed.success) throw AppError.field('file', `${prefix}${parsed.error.issues[0]?.message}`);
        const day = await dayOf(parsed.data, prefix);
        // The last line of a day wins, as a later entry would.
        byKey.set(`${day.day}|${day.sourceId}`, day);
      }
      await db.transaction(async (tx) => adSpendRepo.upsert(tx, [...byKey.values()], clock.now()));
      return { imported: byKey.size };
    },

    importFrom,

    /** The hourly job's round: every connected ad integration. */
    async importAll() {
      const results: Record<string, { imported: number; error: string | null }> = {};
      for (const name of AD_INTEGRATIONS) results[name] = await importFrom(name);
      return results;
    },
  };

  /** Imports yesterday's and today's spend of one ad integration into its internal source. */
  async function importFrom(name: AdIntegrationName): Promise<{ imported: number; error: string | null }> {
    const stored = await integrations.stored(name);
    if (stored.accessToken === null) return { imported: 0, error: null };
    let error: string | null = null;
    let imported = 0;
    try {
      if (!stored.sourceId) throw new ImportError('Choose the internal source its spend is the cost of.');
      const access = await integrations.accessToken(name);
      if (!access) throw new ImportError('The connection has expired: reconnect it.');
      const now = clock.now();
      const to = dayInZone(exchangeZone(), now);
      const from = dayInZone(exchangeZone(), new Date(now.getTime() - DAY_MS));
      const spend = await fetchSpend(name, config, access.token, from, to);
      const days: AdSpendDay[] = [];
      for (const day of [from, to])
        days.push({ day, sourceId: stored.sourceId, origin: name, amountCents: spend.get(day) ?? 0 });
      await adSpendRepo.upsert(db, days, clock.now());
      imported = days.length;
    } catch (caught) {
      if (caught instanceof ImportError || caught instanceof AppError) error = caught.message;
      else {
        logger.error({ err: caught, integration: name }, 'ad spend: an import failed');
        error = 'The import failed unexpectedly; the next hour tries again.';
      }
    }
    await integrations.recordImport(name, error);
    return { imported, error };
  }
}

export type AdSpendService = ReturnType<typeof createAdSpendService>;

import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { DROP_SPEC, type DropRun, type DropStatus, dropHashOfCell } from '@leadex/domain';
import { parse } from 'csv-parse';
import type { Db } from '../../db/client';
import { readSetting, writeSetting } from '../../db/settings';
import { type Clock, toEpochSeconds } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { pageWindow } from '../../lib/paging';
import type { Viewer } from '../../plugins/auth';
import { dropRepo } from './drop.repo';
import type { ErasureService } from './erasure.service';

/** The setting holding the directory the daily job reads deletion lists from. */
export const DROP_DIRECTORY_KEY = 'drop_directory';
/** Hashes written per statement while a list streams in. */
const BATCH = 5_000;
const DAY_MS = 86_400_000;

/**
 * DROP's `…_Removed.csv` (columns ID, Hash, ListType) lists requests the consumers withdrew: nothing in it
 * may be erased (the CPPA's technical documentation 1.2.0, "Working with the data").
 */
const REMOVED_FILE =
  'This is a DROP "Removed" file (ID, Hash, ListType): its consumers withdrew their requests, so nothing in it is erased';
const isRemovedFile = (name: string) => /_removed\.csv$/i.test(name);

/** A column's kind from its header: the DROP identifier it holds, `unknown` for a bare hash column. */
function kindOfHeader(cell: string): string | null {
  const h = cell.toLowerCase();
  if (h.includes('email')) return 'email';
  if (h.includes('phone')) return 'phone';
  if (h.includes('name') || h.includes('dob') || h.includes('birth')) return 'name_dob_zip';
  if (h.includes('hash') || h.includes('sha')) return 'unknown';
  return null;
}

export interface DropDeps {
  db: Db;
  clock: Clock;
  erasure: Pick<ErasureService, 'eraseLeads'>;
  /** Puts phone or email hashes on the exchange-wide suppression list (the suppression service's). */
  suppressHashes(kind: 'phone' | 'email', hexes: readonly string[]): Promise<unknown>;
}

/**
 * California's deletion lists (DROP, issue 35 item 3): a list of SHA-256 hashes, uploaded by the admin
 * or read by the daily job from a directory, is stored in batches as it streams in (its phone and email
 * hashes on the exchange-wide suppression list, so a listed person is refused before pricing), matched
 * against the leads' hashes in one join, and the matched people are erased as on request.
 */
export function createDropService({ db, clock, erasure, suppressHashes }: DropDeps) {
  async function flush(runId: string, batch: { hash: string; kind: string }[]) {
    await dropRepo.addEntries(db, runId, batch);
    for (const kind of ['phone', 'email'] as const) {
      // A bare hash may be either: kept on both lists (a phone's hash never equals an email's).
      const hexes = batch.filter((e) => e.kind === kind || e.kind === 'unknown').map((e) => e.hash);
      await suppressHashes(kind, hexes);
    }
  }

  /** Reads the file's hashes in batches; answers how many were read and how many lines held none. */
  async function readList(runId: string, body: Readable, onProgress?: (entries: number) => void) {
    const parser = body.pipe(
      parse({ relax_column_count: true, skip_empty_lines: true, trim: true, bom: true, max_record_size: 4096 }),
    );
    let kinds: (string | null)[] | null = null;
    let line = 0;
    let entries = 0;
    let invalid = 0;
    let batch: { hash: string; kind: string }[] = [];
    for await (const record of parser as AsyncIterable<string[]>) {
      line++;
      if (line === 1 && record.some((cell) => cell && dropHashOfCell(cell) === null)) {
        if (record.some((cell) => cell.toLowerCase() === 'listtype')) throw AppError.field('file', REMOVED_FILE);
        kinds = record.map(kindOfHeader);
        if (kinds.every((k) => k === null))
          throw AppError.field('file', 'The first line names no hash column (email, phone, name_dob_zip or hash)');
        continue;
      }
      let found = 0;
      record.forEach((cell, i) => {
        const kind = kinds ? kinds[i] : 'unknown';
        const hash = dropHashOfCell(cell);
        if (!kind || hash === null) return;
        batch.push({ hash, kind });
        found++;
      });
      if (found === 0) invalid++;
      entries += found;
      if (batch.length >= BATCH) {
        await flush(runId, batch);
        batch = [];
        onProgress?.(entries);
      }
    }
    await flush(runId, batch);
    return { entries, invalid };
  }

  function runOf(row: Awaited<ReturnType<typeof dropRepo.page>>['rows'][number], refused: number): DropRun {
    const r = row.record;
    return {
      _id: r.id,
      ts: toEpochSeconds(r.at),
      origin: r.origin as DropRun['origin'],
      file: r.fileName,
      status: r.status as DropRun['status'],
      entries: r.entries,
      invalid: r.invalid,
      matched: r.matched,
      erased: r.erased,
      refused_since: refused,
      ...(r.error ? { error: r.error } : {}),
      ...(row.userName ? { user: row.userName } : r.userId ? {} : { user: 'Daily job' }),
    };
  }

  async function one(id: string): Promise<DropRun> {
    const row = await dropRepo.run(db, id);
    if (!row) throw AppError.notFound('Deletion list run');
    const refused = await dropRepo.refusedSince(db, [row]);
    return runOf({ record: row, userName: null }, refused.get(id) ?? 0);
  }

  /**
   * One run: the file stored, matched and its people erased. `viewer` null is the daily job. A file that
   * cannot be read leaves a failed run (what was stored stays: running it again adds the rest).
   */
  async function runList(
    viewer: Viewer | null,
    input: { origin: 'upload' | 'directory'; fileName: string; fileKey?: string; body: Readable },
  ): Promise<DropRun> {
    const id = newId('drp');
    await dropRepo.insertRun(db, {
      id,
      at: clock.now(),
      origin: input.origin,
      fileName: input.fileName,
      fileKey: input.fileKey ?? null,
      status: 'running',
      userId: viewer?.userId ?? null,
    });
    try {
      if (isRemovedFile(input.fileName)) throw AppError.field('file', REMOVED_FILE);
      const { entries, invalid } = await readList(id, input.body);
      if (entries === 0) throw AppError.field('file', 'The file holds no SHA-256 hash (64 hexadecimal digits)');
      const matched = await dropRepo.matchedLeads(db, id);
      await dropRepo.updateRun(db, id, { entries, invalid, matched: matched.length });
      const erased =
        matched.length > 0
          ? await erasure.eraseLeads(viewer, matched, `California deletion list (DROP): ${input.fileName}, run ${id}`)
          : 0;
      await dropRepo.updateRun(db, id, { status: 'done', erased, finishedAt: clock.now() });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await dropRepo.updateRun(db, id, { status: 'failed', error: message.slice(0, 500), finishedAt: clock.now() });
      if (error instanceof AppError) throw error;
      throw AppError.field('file', `The deletion list could not be read: ${message}`);
    }
    return one(id);
  }

  async function directory(): Promise<string | null> {
    return (await readSetting<string | null>(db, DROP_DIRECTORY_KEY)) ?? null;
  }

  return {
    /** POST /api/compliance/deletion-lists/upload: the admin's file, streamed in the request body. */
    upload: (viewer: Viewer, fileName: string, body: Readable) => runList(viewer, { origin: 'upload', fileName, body }),

    /**
     * The daily job: every .csv or .txt file of the directory not run yet (by name, size and time),
     * oldest name first, but DROP's `…_Removed.csv`. Answers how many files it ran; a file that fails is
     * recorded and the next read.
     */
    async runDirectory(): Promise<number> {
      const dir = await directory();
      if (!dir) return 0;
      let ran = 0;
      // DROP's Removed files are no deletion lists: never run.
      const names = (await readdir(dir)).filter((n) => /\.(csv|txt)$/i.test(n) && !isRemovedFile(n)).sort();
      for (const name of names) {
        const path = join(dir, name);
        const info = await stat(path);
        if (!info.isFile()) continue;
        const fileKey = `${name}:${info.size}:${Math.floor(info.mtimeMs)}`;
        if (await dropRepo.ranFile(db, fileKey)) continue;
        await runList(null, { origin: 'directory', fileName: name, fileKey, body: createReadStream(path) }).catch(
          () => {},
        );
        ran++;
      }
      return ran;
    },

    /** GET /api/compliance/deletion-lists: the runs, newest first, each with the leads refused since. */
    async list(query: { page: number; pageSize: number }) {
      const { offset, limit } = pageWindow(query);
      const { rows, total } = await dropRepo.page(db, { offset, limit });
      const refused = await dropRepo.refusedSince(
        db,
        rows.map((r) => r.record),
      );
      return { data: rows.map((r) => runOf(r, refused.get(r.record.id) ?? 0)), total };
    },

    /** GET /api/compliance/deletion-lists/status: the last run, and the warning once 45 days pass without one. */
    async status(): Promise<DropStatus> {
      const last = await dropRepo.lastDone(db);
      const since = last ? last.at : new Date(`${DROP_SPEC.firstDue}T00:00:00Z`);
      const elapsed = clock.now().getTime() - since.getTime();
      const days = Math.max(0, Math.floor(elapsed / DAY_MS));
      const overdue = elapsed > DROP_SPEC.maxDaysBetweenRuns * DAY_MS;
      return {
        last_run_ts: last ? toEpochSeconds(last.at) : null,
        days_since: days,
        overdue,
        directory: await directory(),
        message: overdue
          ? last
            ? `No California deletion list (DROP) has been run for ${days} days: one is due at least every ${DROP_SPEC.maxDaysBetweenRuns} days.`
            : `No California deletion list (DROP) has been run: one is due at least every ${DROP_SPEC.maxDaysBetweenRuns} days since ${DROP_SPEC.firstDue}.`
          : null,
      };
    },

    directory,

    async setDirectory(value: string | null) {
      if (value !== null) {
        const info = await stat(value).catch(() => null);
        if (!info?.isDirectory()) throw AppError.field('directory', 'No such directory on the server');
      }
      await writeSetting(db, DROP_DIRECTORY_KEY, 'compliance', value, clock.now());
      return { directory: value };
    },
  };
}

export type DropService = ReturnType<typeof createDropService>;

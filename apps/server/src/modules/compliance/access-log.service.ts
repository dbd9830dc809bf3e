import { Readable } from 'node:stream';
import type { AccessAction, AccessLogEntry, AccessLogFilter, AccessLogQuery } from '@leadex/domain';
import { isoInZone } from '@leadex/domain';
import { stringify } from 'csv-stringify/sync';
import { addDays } from 'date-fns';
import type { Db, Tx } from '../../db/client';
import { type Clock, toEpochSeconds } from '../../lib/clock';
import { csvText } from '../../lib/csv-text';
import { orUndefined } from '../../lib/dto';
import { exchangeZone } from '../../lib/exchange-zone';
import { newId } from '../../lib/ids';
import { pageWindow } from '../../lib/paging';
import type { Viewer } from '../../plugins/auth';
import { dayStart, leadsToday } from '../leads/date-range';
import { type AccessLogListRow, type AccessLogWhere, accessLogRepo } from './access-log.repo';

/** What one access log entry says beyond who and when: the leads shown, or the filter used. */
export interface AccessRecord {
  leadIds?: readonly string[];
  /** The list's or export's filter, or the erasure's request id: never a contact. */
  detail?: Record<string, unknown>;
}

/** Rows the export reads per round trip. */
const EXPORT_BATCH = 1_000;

/** The CSV's columns. */
const CSV_COLUMNS = ['Date', 'User', 'Email', 'Role', 'Action', 'Leads', 'Detail', 'Address'];

/**
 * A name search kept whole in an append-only log would outlive the erasure of that name: the log
 * records that a name was searched for, with its first letter only.
 */
export function loggedFilter(filter: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = key === 'name' && typeof value === 'string' ? `${value.slice(0, 1)}…` : value;
  }
  return out;
}

/**
 * Who saw what (issue 35 item 5): every view of a lead's personal data, export, erasure and sealed
 * read is one inserted row (one statement on the read path); the admin pages, filters and exports it.
 */
export function createAccessLogService({ db, clock }: { db: Db; clock: Clock }) {
  function whereOf(f: AccessLogFilter): AccessLogWhere {
    return {
      user: f.user,
      action: f.action,
      from: f.begin ? dayStart(f.begin) : undefined,
      to: f.end ? addDays(dayStart(f.end), 1) : undefined,
      lead: f.lead,
    };
  }

  function entryOf(row: AccessLogListRow): AccessLogEntry {
    return {
      _id: row.id,
      ts: toEpochSeconds(row.at),
      user: row.userId
        ? { _id: row.userId, name: orUndefined(row.userName), email: orUndefined(row.userEmail) }
        : undefined,
      role: row.role,
      action: row.action as AccessAction,
      lead_ids: row.leadIds,
      detail: orUndefined(row.detail),
      address: orUndefined(row.address),
    };
  }

  return {
    /**
     * Records one access; `viewer` null is the system (the retention job). Inside `tx` it commits or
     * rolls back with what it records (an erasure).
     */
    async record(viewer: Viewer | null, action: AccessAction, what: AccessRecord = {}, tx?: Tx): Promise<void> {
      await accessLogRepo.insert(tx ?? db, {
        id: newId('acc'),
        at: clock.now(),
        userId: viewer?.userId ?? null,
        role: viewer ? (viewer.role ?? 'none') : 'system',
        action,
        leadIds: [...(what.leadIds ?? [])],
        detail: what.detail && Object.keys(what.detail).length > 0 ? what.detail : null,
        address: viewer?.address ?? null,
      });
    },

    /** GET /api/compliance/access-log: a page, newest first. */
    async list(query: AccessLogQuery) {
      const { offset, limit } = pageWindow(query);
      const { rows, total } = await accessLogRepo.page(db, whereOf(query), { offset, limit });
      return { data: rows.map(entryOf), total };
    },

    /** GET /api/compliance/access-log/export.csv: every matching entry, read in batches and streamed. */
    exportCsv(filter: AccessLogFilter): { fileName: string; body: Readable } {
      const where = whereOf(filter);
      async function* chunks() {
        yield stringify([CSV_COLUMNS]);
        let after: { at: Date; id: string } | undefined;
        for (;;) {
          const batch = await accessLogRepo.batch(db, where, EXPORT_BATCH, after);
          if (batch.length > 0)
            yield stringify(
              batch.map((r) => [
                isoInZone(r.at, exchangeZone()),
                csvText(r.userName),
                csvText(r.userEmail),
                r.role,
                r.action,
                r.leadIds.join(' '),
                r.detail ? JSON.stringify(r.detail) : '',
                r.address ?? '',
              ]),
            );
          const last = batch.at(-1);
          if (!last || batch.length < EXPORT_BATCH) return;
          after = { at: last.at, id: last.id };
        }
      }
      return { fileName: `access-log_${leadsToday(clock.now())}.csv`, body: Readable.from(chunks()) };
    },
  };
}

export type AccessLogService = ReturnType<typeof createAccessLogService>;

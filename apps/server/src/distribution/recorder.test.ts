import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/client';
import { MAX_QUEUED_RECORDS, Recorder } from './recorder';

// Pure unit tests (no database): the bound on the records waiting for a write (issue 28 item 6).
// The batches' SQL is exercised by every PGlite and PostgreSQL test that pings.

const AT = new Date('2026-01-15T15:00:00Z');

/** A database whose writes never finish (away, or far behind): every record noted after the first batch waits. */
function stuckDb() {
  let writes = 0;
  const db = {
    execute: () => {
      writes += 1;
      return new Promise(() => {});
    },
  } as unknown as Db;
  return { db, writes: () => writes };
}

const ping = (i: number) => ({
  id: `png_${i}`,
  sourceId: 'src_1',
  service: 'solar',
  zip: '10001',
  priceCents: 1000,
  createdAt: AT,
});

describe('Recorder', () => {
  it('holds at most MAX_QUEUED_RECORDS records while the database does not take them, and says so once', () => {
    const stuck = stuckDb();
    const errors: unknown[] = [];
    const recorder = new Recorder(stuck.db, (error) => errors.push(error));
    for (let i = 0; i < MAX_QUEUED_RECORDS * 2; i++) recorder.ping(ping(i));
    expect(recorder.queued).toBeLessThanOrEqual(MAX_QUEUED_RECORDS);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/dropping/);
  });

  it('queues no write behind a write under way: a ping past the batch size waits for it', async () => {
    const stuck = stuckDb();
    const recorder = new Recorder(stuck.db, () => {});
    for (let i = 0; i < 1000; i++) recorder.ping(ping(i));
    // The full batch's write starts, and never ends.
    for (let i = 0; i < 5; i++) await new Promise((next) => setImmediate(next));
    expect(stuck.writes()).toBe(1);
    const flush = vi.spyOn(recorder, 'flush');
    for (let i = 1000; i < 5000; i++) recorder.ping(ping(i));
    expect(flush).not.toHaveBeenCalled();
    expect(recorder.queued).toBe(4000);
  });
});

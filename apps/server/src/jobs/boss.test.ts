import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase, testDatabaseKind } from '../../test/database';
import { eventually } from '../../test/receivers';
import { openBoss, stopBoss, work } from './boss';

/**
 * The CI once went red on "Cannot use a pool after calling end on the pool", thrown by pg-boss after
 * a test file's database had closed: pg-boss 10's `stop` returns while a worker's fetch is still on
 * its way, and the job that fetch brings is run and completed afterwards. `stopBoss` returns only once
 * that job has run. The fetch is held on PostgreSQL by a lock on pg-boss's job table from a second
 * connection (PGlite runs one statement at a time), so this is skipped on PGlite, by name.
 */
describe.skipIf(testDatabaseKind !== 'postgres')('pg-boss stopping mid-fetch (PostgreSQL only)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('returns only after the job that fetch brings has run and is marked completed', async () => {
    const pool = (database.db as unknown as { $client: pg.Pool }).$client;
    const boss = openBoss(database.db, { maintenanceSeconds: 60 });
    await boss.start();
    const queue = 'boss-test-late-fetch';
    await boss.createQueue(queue, { name: queue });
    const jobId = await boss.send(queue, { n: 1 });
    if (!jobId) throw new Error('the job was not queued');

    const locker = await pool.connect();
    const order: string[] = [];
    try {
      await locker.query('begin');
      await locker.query('lock table pgboss.job in access exclusive mode');
      await work(boss, queue, { pollingIntervalSeconds: 0.5 }, async () => {
        await pool.query('select 1');
        order.push('job ran');
      });
      await eventually(
        async () => {
          const waiting = await pool.query(
            `select 1 from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock' and query ilike '%pgboss.job%'`,
          );
          return waiting.rowCount ? true : null;
        },
        10_000,
        "the worker's fetch to wait for the lock",
      );
      const bossStopped = new Promise((done) => boss.once('stopped', done));
      const stopped = stopBoss(boss, 5_000).then(() => order.push('stopBoss returned'));
      await bossStopped;
      order.push('pg-boss stopped');
      await locker.query('commit');
      await stopped;
    } finally {
      locker.release();
    }

    expect(order).toEqual(['pg-boss stopped', 'job ran', 'stopBoss returned']);
    const { rows } = await pool.query('select state from pgboss.job where id = $1', [jobId]);
    expect(rows).toEqual([{ state: 'completed' }]);
  });
});

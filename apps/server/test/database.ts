import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../src/db/client';

/** Which database this test project runs on: PGlite by default, PostgreSQL in the server-postgres project. */
export const testDatabaseKind = process.env.LEADEX_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

/** A test file's database; on PostgreSQL it keeps its URL, for tests that start server processes on it. */
export type TestDatabase = Database & { url?: string };

/** The PostgreSQL URL of a test file's own database (multi-process tests hand it to the servers they start). */
export function testDatabaseUrl(database: Database): string {
  const url = (database as TestDatabase).url;
  if (!url) throw new Error('only a PostgreSQL test database has a URL');
  return url;
}

/** A fresh, migrated database of the test file's own, copied from the run's template. */
export async function openTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind === 'pglite') {
    const dump = readFileSync(inject('pgliteTemplate'));
    return openDatabase({ loadDataDir: new Blob([dump]) });
  }
  const url = process.env.TEST_DATABASE_URL as string;
  const name = `leadex_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${inject('postgresTemplate')}`);
    // A test database is thrown away, never recovered after a crash: its commits need not wait for the
    // disk (each commit otherwise waits for its WAL flush: a third of the simulated month's time here).
    await admin.query(`alter database ${name} set synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const database = await openDatabase({ url: dbUrl.toString(), poolSize: 5 });
  return {
    ...database,
    url: dbUrl.toString(),
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

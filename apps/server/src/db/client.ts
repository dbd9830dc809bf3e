import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Logger } from '../lib/logger';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type business code sees, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction, or the database itself where no transaction is needed. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The driver underneath, for the few places that need it (pg-boss, tests). */
  pglite?: PGlite;
  pool?: pg.Pool;
  migrate(): Promise<void>;
  /**
   * Runs start-up work (migrate, load ZIPs, create the admin, seed) in one process at a time:
   * when several processes start on one PostgreSQL, the others wait, then find the work done.
   */
  withStartupLock<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Committed drizzle-kit migrations: beside src/ in development, beside dist/ when built. */
export function migrationsFolder(): string {
  for (const relative of ['../../drizzle', '../drizzle']) {
    const dir = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(`${dir}/meta/_journal.json`)) return dir;
  }
  throw new Error('drizzle migrations folder not found');
}

/** Any numbers to tell this application's advisory locks from others'. */
const MIGRATION_LOCK = 727_011;
const STARTUP_LOCK = 727_012;

/**
 * Holds a session-level advisory lock on a connection of its own while `work` runs; `work` may use
 * that connection, which has none of the pool's timeouts (a migration may rightly take minutes).
 */
async function withAdvisoryLock<T>(url: string, key: number, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  // Dropped by the server while `work` runs (a restart, a failover), the connection emits an 'error'
  // that would end the process unheard; the lock is gone with it, and `work` fails or finishes on its own.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [key]);
    return await work(client);
  } finally {
    await client.query('select pg_advisory_unlock($1)', [key]).catch(() => {});
    await client.end();
  }
}

export interface OpenOptions {
  /** A PostgreSQL URL; without it PGlite is used. */
  url?: string;
  /** PGlite's data directory; omitted = in memory. */
  dataDir?: string;
  /** A PGlite data directory dump to start from (tests copy a migrated template). */
  loadDataDir?: Blob;
  poolSize?: number;
  /**
   * PostgreSQL only: how long a query waits for a connection (a new one, or a free one of the pool)
   * before it fails, so a request answers 503 rather than hang while the database is unreachable.
   */
  connectTimeoutMs?: number;
  /** PostgreSQL only: the longest a statement may run (the server's statement_timeout; 0 or none = no limit). */
  statementTimeoutMs?: number;
  /** Where a dropped idle connection is reported (PostgreSQL only). */
  logger?: Pick<Logger, 'warn'>;
}

/** Opens PostgreSQL through `pg` when a URL is given, else the embedded PGlite. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.url) {
    const url = options.url;
    const statementTimeout = options.statementTimeoutMs ? ` -c statement_timeout=${options.statementTimeoutMs}` : '';
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
      // The server cancels a statement past its timeout; a connection whose server is gone without a
      // word (a network partition) answers nothing at all, so the client gives up a little later too.
      ...(options.statementTimeoutMs ? { query_timeout: options.statementTimeoutMs + 1000 } : {}),
      // Reading a page out of order costs about what reading the next one does on SSDs and in memory,
      // where the exchange's tables live; with PostgreSQL's default (4, for spinning disks) the planner
      // walked every buyer's sales by date rather than one buyer's own index (a buyer's list filtered by
      // name: 194 ms against 12 ms, docs/benchmarks.md). A server's own setting of it is overridden here.
      options: `-c random_page_cost=1.1${statementTimeout}`,
    });
    // An idle pooled connection that the server drops (restart, failover, admin) is discarded and
    // replaced by the pool; without a listener its error would end the process.
    pool.on('error', (error) =>
      options.logger?.warn({ err: error }, 'database: an idle connection failed; the pool replaces it'),
    );
    // The pool listens only to its idle connections: one checked out for a transaction that the
    // server terminates between two statements would emit an 'error' nobody hears, and end the
    // process (issue 28). Heard here, the connection is marked broken: its next statement rejects
    // (the request answers 503) and the pool discards it on release.
    pool.on('connect', (client) => client.on('error', () => {}));
    const nodeDb = drizzleNodePg(pool, { schema });
    const db = nodeDb as unknown as Db;
    return {
      db,
      kind: 'postgres',
      pool,
      // Several processes may start at once: one migrates, the others wait on the lock.
      migrate: () =>
        withAdvisoryLock(url, MIGRATION_LOCK, (client) =>
          migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: migrationsFolder() }),
        ),
      withStartupLock: (work) => withAdvisoryLock(url, STARTUP_LOCK, () => work()),
      close: () => pool.end(),
    };
  }
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  // pg_trgm and btree_gin: the leads lists' name search (migrations 0007, 0017), as on PostgreSQL.
  const pglite = new PGlite({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm, btree_gin },
  });
  await pglite.waitReady;
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    pglite,
    migrate: () => migratePglite(drizzlePglite(pglite), { migrationsFolder: migrationsFolder() }),
    // One process owns an embedded database: nothing to wait for.
    withStartupLock: (work) => work(),
    close: () => pglite.close(),
  };
}

/** The rows of a raw `db.execute(sql…)` result, the same shape on PGlite and node-postgres. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * The benches' own databases: each makes a fresh one on the PostgreSQL server of BENCH_DATABASE_URL
 * and drops it after, and the benches that call the services in their own process build the exchange
 * on it as a test would.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { loadConfig } from '../apps/server/src/config';
import type { Database } from '../apps/server/src/db/client';
import { seedReferenceData } from '../apps/server/src/demo/seed';
import { createDeps } from '../apps/server/src/deps';
import { FixedClock } from '../apps/server/src/lib/clock';

/** The server the benches make their databases on (its `postgres` database is only connected to). */
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchDatabase {
  name: string;
  /** The database's URL on the bench server. */
  url: string;
  /** LEADEX_SECRET for the exchange on it (its keys and ping ids are signed with it). */
  secret: string;
}

/**
 * A database for a bench run, not created yet: `name` when given (a database kept from an earlier run),
 * else `prefix` and 8 random hex digits.
 */
export function benchDatabase(prefix: string, name = `${prefix}_${randomBytes(4).toString('hex')}`): BenchDatabase {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), secret: randomBytes(32).toString('base64url') };
}

/** Drops a bench's database, whoever is still connected to it. */
export async function dropBenchDatabase(admin: pg.Client, name: string): Promise<void> {
  await admin.query(`drop database if exists "${name}" with (force)`);
}

/** The password of the in-process exchange's admin. */
export const IN_PROCESS_ADMIN_PASSWORD = 'admin-password-1';

/**
 * The exchange in this process on `database` (migrated here), as the tests build it: its reference data
 * seeded and `adminEmail` its admin (IN_PROCESS_ADMIN_PASSWORD), its clock fixed at `now`.
 */
export async function inProcessExchange(database: Database, adminEmail: string, now: Date) {
  await database.migrate();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ADMIN_EMAIL: adminEmail,
    ADMIN_PASSWORD: IN_PROCESS_ADMIN_PASSWORD,
    PUBLIC_URL: 'http://leadex.test',
    LEADEX_SECRET: randomBytes(32).toString('base64url'),
  });
  const deps = createDeps(config, database.db, new FixedClock(now));
  await seedReferenceData(deps);
  await deps.services.users.ensureAdmin();
  return { config, deps };
}

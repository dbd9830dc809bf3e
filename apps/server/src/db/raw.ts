import type { PGlite, Transaction } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Db } from './client';

/**
 * Plain SQL on the driver under Drizzle, for the few hot statements where Drizzle's query building
 * and PostgreSQL's parse-and-plan of every call cost more than the work itself (the sale path,
 * DESIGN.md §5 write path). On PostgreSQL a statement with a `name` is prepared once per pooled
 * connection and then only executed.
 */
export interface SqlRunner {
  query<T>(statement: NamedStatement, values: unknown[]): Promise<T[]>;
}

export interface RawDb extends SqlRunner {
  /** Runs `work` in one transaction on one connection: committed if it returns, rolled back if it throws. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

/** A statement whose text never changes, so it can be prepared once and reused by name. */
export interface NamedStatement {
  name: string;
  text: string;
}

/** A PostgreSQL error as both drivers report it: the SQLSTATE code and the message. */
export function sqlError(error: unknown): { code?: string; message: string } {
  const e = error as { code?: string; message?: string };
  return { code: e?.code, message: e?.message ?? String(error) };
}

function isPool(client: unknown): client is pg.Pool {
  return typeof (client as pg.Pool).connect === 'function' && 'totalCount' in (client as object);
}

/** The raw runner of a Drizzle database (node-postgres pool or PGlite). */
export function rawDb(db: Db): RawDb {
  const client = (db as unknown as { $client: pg.Pool | PGlite }).$client;
  if (isPool(client)) {
    const on = (c: pg.Pool | pg.PoolClient): SqlRunner => ({
      async query<T>(statement: NamedStatement, values: unknown[]) {
        const result = await c.query({ name: statement.name, text: statement.text, values });
        return result.rows as T[];
      },
    });
    return {
      ...on(client),
      async transaction(work) {
        const connection = await client.connect();
        try {
          await connection.query('begin');
          const result = await work(on(connection));
          await connection.query('commit');
          return result;
        } catch (error) {
          await connection.query('rollback').catch(() => {});
          throw error;
        } finally {
          connection.release();
        }
      },
    };
  }
  const on = (c: PGlite | Transaction): SqlRunner => ({
    async query<T>(statement: NamedStatement, values: unknown[]) {
      return (await c.query<T>(statement.text, values)).rows;
    },
  });
  return { ...on(client), transaction: (work) => client.transaction((tx) => work(on(tx))) };
}

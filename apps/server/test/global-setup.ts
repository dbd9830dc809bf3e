import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';
import { loadZipsIfEmpty } from '../src/db/zips';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory dump that each test file starts from. */
    pgliteTemplate: string;
    /** A migrated PostgreSQL database that each test file copies (CREATE DATABASE … TEMPLATE). */
    postgresTemplate: string;
  }
}

/**
 * Migrates one template database per run (with the ZIP table loaded); every test file then gets its own copy, so files run in
 * parallel and leave nothing behind.
 */
export default async function setup(project: TestProject) {
  // Global setup runs in the main process: the project's env (set in vitest.config.ts) says which database.
  if (project.config.env?.LEADEX_TEST_DB === 'postgres') return setupPostgres(project);
  const database = await openDatabase({});
  await database.migrate();
  await loadZipsIfEmpty(database.db);
  const dump = await database.pglite?.dumpDataDir('none');
  await database.close();
  const path = join(tmpdir(), `leadex-pglite-template-${process.pid}.tar`);
  writeFileSync(path, Buffer.from(await (dump as Blob).arrayBuffer()));
  project.provide('pgliteTemplate', path);
  // The dump is tens of megabytes: a run leaves nothing behind.
  return () => rmSync(path, { force: true });
}

async function setupPostgres(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('LEADEX_TEST_DB=postgres needs TEST_DATABASE_URL');
  const template = `leadex_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`drop database if exists ${template} with (force)`);
  await admin.query(`create database ${template}`);
  const templateUrl = new URL(url);
  templateUrl.pathname = `/${template}`;
  const database = await openDatabase({ url: templateUrl.toString(), poolSize: 1 });
  await database.migrate();
  await loadZipsIfEmpty(database.db);
  await database.close();
  project.provide('postgresTemplate', template);
  return async () => {
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.end();
  };
}

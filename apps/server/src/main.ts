import { resolve } from 'node:path';
import { buildApp } from './app';
import { DEVELOPMENT_ADMIN_PASSWORD, loadConfig } from './config';
import { openDatabase } from './db/client';
import { logBackgroundError } from './db/unavailable';
import { loadZipsIfEmpty } from './db/zips';
import { demoSignIns, seedDemo, seedReferenceData } from './demo/seed';
import { createDeps } from './deps';
import { OffsetClock, systemClock } from './lib/clock';
import { createLogger } from './lib/logger';

/** How often a process reads the shared mock date (outside production). */
const MOCK_DATE_REFRESH_MS = 2000;
/** How often a process reads the exchange's zone, which an admin may change through another process. */
const ZONE_REFRESH_MS = 5000;

/** Start: config -> database -> (one process at a time: migrate -> ZIPs -> admin -> seed) -> listen. */
async function main() {
  const config = loadConfig();
  const logger = createLogger(config);
  // A promise nobody awaited that rejected is a bug to fix at its source (issue 28: pg-boss's
  // unawaited job outcomes, now retried in jobs/boss.ts), but it left no state half-changed: the
  // process logs it and goes on serving, rather than drop every request in flight. An uncaught
  // exception still ends the process (Node's default): its state is unknown.
  process.on('unhandledRejection', (reason) =>
    logger.error({ err: reason }, 'process: an unhandled promise rejection (a bug); the process goes on'),
  );
  const database = await openDatabase({
    logger,
    url: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : resolve(config.DATA_DIR, 'pglite'),
    poolSize: config.DATABASE_POOL_SIZE,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
  });
  // Outside production the simulator may move the clock (its mock date); production runs on the real time.
  const clock = config.NODE_ENV === 'production' ? systemClock : new OffsetClock();
  const deps = createDeps(config, database.db, clock, { logger });
  await database.withStartupLock(async () => {
    await database.migrate();
    const zipCount = await loadZipsIfEmpty(database.db);
    if (zipCount) console.log(`Loaded ${zipCount} US ZIP codes (GeoNames, CC BY 4.0).`);
    await seedReferenceData(deps);
    await deps.services.users.ensureAdmin();
    if (config.SEED_DEMO && (await seedDemo(deps))) console.log('Seeded the demo exchange (an empty database).');
  });

  // A mock date set before this start (or by another process later) moves this process's clock too.
  if (deps.mockDate) {
    await deps.mockDate.refresh();
    deps.mockDate.watch(MOCK_DATE_REFRESH_MS, (error) =>
      logBackgroundError(logger, error, 'mock date: refresh failed'),
    );
  }

  deps.services.settings.watchZone(ZONE_REFRESH_MS, (error) =>
    logBackgroundError(logger, error, 'zone: refresh failed'),
  );

  // The ping checks the ZIP suppression lists from memory (issue 34): read before the first ping.
  await deps.services.suppression.warm();

  const app = await buildApp(deps);
  if (config.LEADEX_ROLE !== 'worker') {
    // PORT=0 takes any free port: the address line says which (tests start servers this way).
    const address = await app.listen({ port: config.PORT, host: config.HOST });
    const where = config.DATABASE_URL ? 'PostgreSQL' : `the embedded database in ${resolve(config.DATA_DIR)}`;
    console.log(`\nLeadex is running at ${config.PUBLIC_URL} on ${where} (listening on ${address}).`);
    // The admin password is printed only while it is the development default.
    const password = config.ADMIN_PASSWORD === DEVELOPMENT_ADMIN_PASSWORD ? config.ADMIN_PASSWORD : '(ADMIN_PASSWORD)';
    console.log(`  admin:  ${config.ADMIN_EMAIL} / ${password}`);
    if (config.SEED_DEMO) for (const line of demoSignIns()) console.log(line);
    console.log('');
  }
  // Job workers run with the server (all) or alone (worker: no HTTP, only jobs).
  if (config.LEADEX_ROLE !== 'api') {
    // pg-boss creates its schema and queues on a first start: one process at a time, like migrations.
    await database.withStartupLock(() => deps.jobs.start());
    if (config.LEADEX_ROLE === 'worker') console.log('Leadex worker started: running jobs, no HTTP.');
  }

  const stop = async (signal: string) => {
    app.log.info(`${signal}: shutting down`);
    // Running jobs finish (or are run again by another worker after their expiry).
    await deps.jobs.stop();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

/**
 * Issue 34: a 1,000,000-row CSV uploaded to a suppression list through the upload route, generated as
 * it is sent (never whole in memory on either side), on PostgreSQL (BENCH_DATABASE_URL, a fresh
 * database made and dropped) or PGlite (SUPPRESSION_UPLOAD_PGLITE=1). Prints the time and the
 * process's peak RSS and heap, sampled every 250 ms with the RSS every 100,000 rows sent, so a flat
 * line shows the memory stays bounded. `npx tsx bench/suppression-upload.ts` (SUPPRESSION_UPLOAD_ROWS
 * for another size).
 */
import { Readable } from 'node:stream';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { openDatabase } from '../apps/server/src/db/client';
import { ADMIN_URL, benchDatabase, dropBenchDatabase, IN_PROCESS_ADMIN_PASSWORD, inProcessExchange } from './database';
import { positive } from './env';

const ROWS = positive('SUPPRESSION_UPLOAD_ROWS', 1_000_000);
const onPglite = Boolean(process.env.SUPPRESSION_UPLOAD_PGLITE);
const mb = (n: number) => Math.round(n / 1024 / 1024);

async function main() {
  const target = benchDatabase('leadex_upload');
  const admin = onPglite ? null : new pg.Client({ connectionString: ADMIN_URL });
  if (admin) {
    await admin.connect();
    await admin.query(`create database "${target.name}"`);
  }
  const database = await openDatabase(admin ? { url: target.url, poolSize: 4 } : {});
  try {
    const { config, deps } = await inProcessExchange(database, 'admin@upload.test', new Date());
    const app = await buildApp(deps);
    await app.ready();
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: config.PUBLIC_URL },
      payload: { email: 'admin@upload.test', password: IN_PROCESS_ADMIN_PASSWORD },
    });
    const cookie = [signIn.headers['set-cookie']]
      .flat()
      .filter(Boolean)
      .map((c) => String(c).split(';')[0])
      .join('; ');
    const list = await app.inject({
      method: 'POST',
      url: '/api/suppression/list',
      headers: { origin: config.PUBLIC_URL, cookie },
      payload: { name: 'A million phones', kind: 'phone' },
    });
    const listId = list.json()._id as string;

    let peakRss = 0;
    let peakHeap = 0;
    const sample = () => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    };
    sample();
    const baseRss = process.memoryUsage().rss;
    const timer = setInterval(sample, 250);
    const rssLine: number[] = [];
    // Rows of the CSV as it is sent: a header, then ROWS phones (distinct), 1,000 rows a chunk.
    function* rows() {
      yield 'phone,name\n';
      for (let i = 0; i < ROWS; i += 1000) {
        let chunk = '';
        for (let j = i; j < Math.min(ROWS, i + 1000); j++)
          chunk += `${200 + (j % 800)}${String(2_000_000 + Math.floor(j / 800)).padStart(7, '0')},Person ${j}\n`;
        if (i % 100_000 === 0) rssLine.push(mb(process.memoryUsage().rss));
        yield chunk;
      }
    }
    const started = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: `/api/suppression/list/${listId}/upload`,
      headers: { origin: config.PUBLIC_URL, cookie, 'content-type': 'text/csv' },
      payload: Readable.from(rows()),
    });
    const seconds = (performance.now() - started) / 1000;
    clearInterval(timer);
    sample();
    console.log(
      JSON.stringify(
        {
          database: onPglite ? 'PGlite' : 'PostgreSQL',
          rows: ROWS,
          status: res.statusCode,
          answer: res.json(),
          seconds: Math.round(seconds * 10) / 10,
          rowsPerSecond: Math.round(ROWS / seconds),
          rssBeforeMb: mb(baseRss),
          peakRssMb: mb(peakRss),
          peakHeapMb: mb(peakHeap),
          rssEvery100kRowsMb: rssLine,
        },
        null,
        1,
      ),
    );
    await app.close();
  } finally {
    await database.close();
    if (admin) {
      await dropBenchDatabase(admin, target.name);
      await admin.end();
    }
  }
}

await main();

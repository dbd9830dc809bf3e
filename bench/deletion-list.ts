/**
 * Issue 35 item 3: a California deletion list of 100,000 SHA-256 hashes run against 1,000,000 leads on
 * PostgreSQL (BENCH_DATABASE_URL's server, a fresh database made and dropped). The leads are inserted
 * in batches (their DROP hashes written by the `leads_drop_hashes` trigger, as at intake); the list, of
 * which DROP_BENCH_MATCHED people hold a lead (their email, phone or name + DOB + ZIP hash in turn), is
 * run through the drop service as an admin's upload (streamed, stored 5,000 a statement, matched in one
 * join, the matched people erased as requests). Then the match join alone, EXPLAIN ANALYZE'd. Prints
 * the times. `npx tsx bench/deletion-list.ts` (DROP_BENCH_LEADS, DROP_BENCH_ENTRIES for other sizes).
 */
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { dropNameDobZip, dropNdzPreimage } from '@leadex/domain';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, rowsOf } from '../apps/server/src/db/client';
import { ADMIN_URL, benchDatabase, dropBenchDatabase, inProcessExchange } from './database';
import { positive } from './env';

const LEADS = positive('DROP_BENCH_LEADS', 1_000_000);
const ENTRIES = positive('DROP_BENCH_ENTRIES', 100_000);
const MATCHED = positive('DROP_BENCH_MATCHED', 1_000);
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const sha256Base64 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');
const seconds = (from: number) => Math.round((performance.now() - from) / 100) / 10;

/** Lead i's contact, as the bench inserts it (and as the list hashes it). */
const phoneOf = (i: number) => `${200 + (i % 800)}${String(2_000_000 + Math.floor(i / 800)).padStart(7, '0')}`;
const emailOf = (i: number) => `person.${i}@example.com`;

async function main() {
  const target = benchDatabase('leadex_drop');
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database "${target.name}"`);
  const database = await openDatabase({ url: target.url, poolSize: 4 });
  try {
    const { deps } = await inProcessExchange(database, 'admin@drop.test', new Date('2026-11-25T16:00:00Z'));
    const adminUser = rowsOf<{ id: string }>(
      await database.db.execute(sql`select id from "user" where email = 'admin@drop.test'`),
    )[0];

    // 1,000,000 leads in batches of 50,000, one statement each (the trigger hashes every row).
    let started = performance.now();
    const BATCH = 50_000;
    for (let from = 0; from < LEADS; from += BATCH) {
      const to = Math.min(LEADS, from + BATCH) - 1;
      await database.db.execute(sql`
        insert into leads (id, source_id, service, zip, first_name, last_name, phone, email, fields, created_at)
        select 'lead_bench_' || i, 'src_bench', 'roofing', lpad(((i % 90000) + 10000)::text, 5, '0'),
          'First' || chr(97 + i % 26), 'Last' || chr(97 + (i / 26) % 26),
          (200 + i % 800)::text || lpad((2000000 + i / 800)::text, 7, '0'),
          'person.' || i || '@example.com',
          jsonb_build_object('dob', '1980-01-' || lpad(((i % 28) + 1)::text, 2, '0')),
          now() - (i || ' seconds')::interval
        from generate_series(${from}::int, ${to}::int) as i`);
    }
    const insertSeconds = seconds(started);
    await database.db.execute(sql`analyze leads; analyze lead_drop_hashes`);
    const [hashRows] = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from lead_drop_hashes`),
    );

    // The list: MATCHED hashes of leads (spread over the million; email, phone, then name + DOB + ZIP in
    // turn), the rest random; a header, three columns, generated as it is sent.
    const stride = Math.floor(LEADS / MATCHED);
    function* rows() {
      yield 'email_sha256,phone_sha256,name_dob_zip_sha256\n';
      for (let i = 0; i < ENTRIES; i += 1000) {
        let chunk = '';
        for (let j = i; j < Math.min(ENTRIES, i + 1000); j++) {
          if (j < MATCHED) {
            const lead = j * stride;
            if (j % 3 === 0) chunk += `${sha256(emailOf(lead))},,\n`;
            else if (j % 3 === 1) chunk += `,${sha256(phoneOf(lead))},\n`;
            else {
              // DROP's NDZ (the CPPA's rules, @leadex/domain): each part's SHA-256 in Base64, joined, hashed again.
              const parts = dropNameDobZip({
                firstName: `First${String.fromCharCode(97 + (lead % 26))}`,
                lastName: `Last${String.fromCharCode(97 + (Math.floor(lead / 26) % 26))}`,
                dob: `1980-01-${String((lead % 28) + 1).padStart(2, '0')}`,
                zip: String((lead % 90000) + 10000).padStart(5, '0'),
              });
              if (parts) chunk += `,,${sha256(dropNdzPreimage(parts, sha256Base64))}\n`;
            }
          } else chunk += `${randomBytes(32).toString('hex')},,\n`;
        }
        yield chunk;
      }
    }
    started = performance.now();
    const run = await deps.services.drop.upload(
      { userId: adminUser?.id ?? '', role: 'admin', roleId: null },
      'bench-drop.csv',
      Readable.from(rows()),
    );
    const runSeconds = seconds(started);

    // The match join alone, on the same run's hashes (the matched leads' hashes are gone with them now,
    // so it probes the 100,000 and finds none: the work of the match without the erasure's).
    started = performance.now();
    const plan = rowsOf<{ 'QUERY PLAN': string }>(
      await database.db.execute(sql`explain (analyze, buffers off, timing off)
        select distinct h.lead_id from drop_entries e join lead_drop_hashes h on h.hash = e.hash
        where e.last_run_id = ${run._id}`),
    ).map((r) => r['QUERY PLAN']);
    const joinSeconds = seconds(started);

    console.log(
      JSON.stringify(
        {
          database: 'PostgreSQL',
          leads: LEADS,
          leadDropHashes: hashRows?.n,
          entries: ENTRIES,
          insertLeadsSeconds: insertSeconds,
          run,
          runSeconds,
          joinAloneSeconds: joinSeconds,
          plan,
        },
        null,
        1,
      ),
    );
  } finally {
    await database.close();
    await dropBenchDatabase(admin, target.name);
    await admin.end();
  }
}

await main();

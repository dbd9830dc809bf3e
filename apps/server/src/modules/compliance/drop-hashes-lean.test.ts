import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../../../test/database';
import { rowsOf } from '../../db/client';
import { leads } from '../../db/schema';
import { newId } from '../../lib/ids';

/**
 * Issue 36: migration 0041 makes the DROP hashes of a stored lead cheaper to compute; every hash must
 * stay byte for byte what migration 0039 wrote. 0039's own functions are loaded beside the migrated ones
 * (renamed `*_0039`) and both answer the same awkward inputs; the trigger's rows equal 0039's backfill
 * statement run with 0039's functions.
 */

let database: TestDatabase;

const MIGRATION_0039 = readFileSync(new URL('../../../drizzle/0039_sealed_evidence_drop.sql', import.meta.url), 'utf8');

/** 0039's definition of a function, renamed `<name>_0039`. */
function as0039(name: string): string {
  const statement = MIGRATION_0039.split('--> statement-breakpoint').find((s) =>
    s.includes(`CREATE FUNCTION "${name}"(`),
  );
  if (!statement) throw new Error(`migration 0039 defines no ${name}`);
  return statement.replace(`"${name}"(`, `"${name}_0039"(`);
}

const PHONES = [
  '5125550123',
  '15125550123',
  '25125550123',
  '+1 (512) 555-0123',
  ' 512.555.0123 ',
  '512555012',
  '151255501234',
  '1-800-FLOWERS',
  '５１２５５５０１２３',
  '',
  null,
];
const TEXTS = [
  'a.b@example.com',
  ' A.B@Example.COM ',
  'José Núñez',
  "María O'Brien-Ñúñez",
  '💡 emoji ünïcödé',
  'tab\there',
  '',
  null,
];

beforeAll(async () => {
  database = await openTestDatabase();
  for (const name of ['leadex_drop_phone', 'leadex_drop_hash']) await database.db.execute(sql.raw(as0039(name)));
}, 60_000);

afterAll(async () => {
  await database?.close();
});

describe('migration 0041: the DROP hashes as migration 0039 wrote them (issue 36)', () => {
  it('normalises every phone as 0039 did', async () => {
    for (const v of PHONES) {
      const [row] = rowsOf<{ now: string | null; before: string | null }>(
        await database.db.execute(sql`select leadex_drop_phone(${v}) as now, leadex_drop_phone_0039(${v}) as before`),
      );
      expect(row?.now, String(v)).toBe(row?.before);
    }
  });

  it('hashes every text as 0039 did', async () => {
    for (const v of [...PHONES, ...TEXTS]) {
      const [row] = rowsOf<{ now: string | null; before: string | null }>(
        await database.db.execute(sql`select leadex_drop_hash(${v}) as now, leadex_drop_hash_0039(${v}) as before`),
      );
      expect(row?.now, String(v)).toBe(row?.before);
    }
  });

  it('stores the rows 0039’s trigger stored, with and without a date of birth', async () => {
    const dobs: (Record<string, string> | undefined)[] = [
      undefined,
      { dob: '1985-02-03' },
      { date_of_birth: '2/3/1985' },
      { birth_date: '12/31/1999' },
      { dob: 'x' },
      { other: '1985-02-03' },
    ];
    let i = 0;
    for (const phone of PHONES)
      for (const fields of dobs) {
        const text = TEXTS[i % TEXTS.length] ?? null;
        const id = newId('lead');
        await database.db.insert(leads).values({
          id,
          sourceId: 'src_0041',
          service: 'roofing',
          zip: i % 3 === 0 ? ' 75201-1234' : '75201',
          firstName: i % 2 === 0 ? text : null,
          lastName: i % 2 === 0 ? 'Núñez' : null,
          name: i % 2 === 0 ? null : text,
          phone,
          email: text,
          fields: fields ?? {},
          pingId: newId('png'),
          createdAt: new Date('2026-11-28T12:00:00Z'),
        });
        i += 1;
      }
    const differ = rowsOf<{ lead_id: string; kind: string }>(
      await database.db.execute(sql`
        with before as (
          select l.id as lead_id, x.k as kind, leadex_drop_hash_0039(x.v) as hash
          from leads l
          cross join lateral (values
            ('email', leadex_drop_email(l.email)),
            ('phone', leadex_drop_phone_0039(l.phone)),
            ('name_dob_zip', leadex_drop_name_dob_zip(l.first_name, l.last_name, l.name,
              coalesce(l.fields->>'dob', l.fields->>'date_of_birth', l.fields->>'birth_date'), l.zip))
          ) as x(k, v)
          where x.v is not null and l.source_id = 'src_0041'
        ), now as (
          select h.lead_id, h.kind, h.hash from lead_drop_hashes h join leads l on l.id = h.lead_id where l.source_id = 'src_0041'
        )
        (select lead_id, kind from (select * from before except select * from now) a)
        union all
        (select lead_id, kind from (select * from now except select * from before) b)`),
    );
    expect(differ).toEqual([]);
    const kinds = rowsOf<{ kind: string; n: number }>(
      await database.db.execute(
        sql`select h.kind, count(*)::int as n from lead_drop_hashes h join leads l on l.id = h.lead_id
            where l.source_id = 'src_0041' group by 1 order by 1`,
      ),
    );
    // Not a vacuous comparison: emails, phones and names with a date of birth were hashed.
    expect(kinds).toEqual([
      { kind: 'email', n: expect.any(Number) },
      { kind: 'name_dob_zip', n: expect.any(Number) },
      { kind: 'phone', n: expect.any(Number) },
    ]);
    expect(Math.min(...kinds.map((k) => k.n))).toBeGreaterThan(5);
  });
});

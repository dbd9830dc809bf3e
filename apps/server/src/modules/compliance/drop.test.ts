import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  dropDob,
  dropEmail,
  dropHashOfCell,
  dropName,
  dropNameDobZip,
  dropNdzPreimage,
  dropPhone,
  dropZip,
} from '@leadex/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBuyerWithLogin,
  createCampaign,
  createSourceWithKey,
  leadInput,
  postSoldLead,
  uniquePhone,
} from '../../../test/factories';
import { expectFieldRefused, useAdminTestApp, useRoleCookies } from '../../../test/harness';
import { rowsOf } from '../../db/client';
import { consentEvidenceSeals, dropRuns, erasureRequests, leadDropHashes, leads } from '../../db/schema';
import { newId } from '../../lib/ids';
import { sha256Hex } from '../suppression/suppression.hash';

/**
 * Issue 35 item 3: California's deletion lists. The leads' hashes stored at intake (by the database,
 * agreeing with the domain's rules), a list uploaded or read from a directory, matched in one join,
 * the matched people erased as on request, a listed person refused at the next post, the runs and
 * the 45-day warning.
 */

const { t, admin } = useAdminTestApp({ PUBLIC_API_RATE_LIMIT: 0 });
const roles = useRoleCookies(t);
let apiKey: string;
let soldA: { leadId: string; phone: string; email: string };
let nameLeadId: string;
let danielleId: string;
let nearMissId: string;
let untouchedId: string;
let untouchedPhone: string;
const listedPhone = uniquePhone(); // on the list, never a lead before the list
let dir: string;

const sha256Base64 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');
/** The NDZ hash (hex, as the leads' are kept) of a person by the domain's rules. */
const ndzHex = (p: Parameters<typeof dropNameDobZip>[0]) => {
  const parts = dropNameDobZip(p);
  return parts && sha256Hex(dropNdzPreimage(parts, sha256Base64));
};
/** The CPPA's published NDZ example: Danielle Johnson, born July 4, 1985, ZIP 91790. */
const DANIELLE_NDZ = 'PQOfn1RffEKmqMmNAzDKKaoZCwxWbQZkQzPWmQo9REA=';

const hashesOf = async (leadId: string) =>
  Object.fromEntries(
    (await t.database.db.select().from(leadDropHashes).where(eq(leadDropHashes.leadId, leadId))).map((r) => [
      r.kind,
      r.hash,
    ]),
  );

const upload = (csv: string, as = admin.cookie, file = 'drop-2026-11-25.csv') =>
  t.request({
    method: 'POST',
    url: `/api/compliance/deletion-lists/upload?file=${encodeURIComponent(file)}`,
    as,
    headers: { 'content-type': 'text/csv' },
    payload: Readable.from([csv]),
  });

const status = async () =>
  (await t.request({ method: 'GET', url: '/api/compliance/deletion-lists/status', as: admin.cookie })).json();

beforeAll(async () => {
  t.clock.set('2026-11-25T16:00:00Z');
  const buyer = await createBuyerWithLogin(t);
  await createCampaign(t, buyer.buyer._id, { price: 30, services: ['roofing'], states: ['TX'] });
  ({ apiKey } = await createSourceWithKey(t, { maxCost: 10 }));
  const phone = uniquePhone();
  const email = `Drop.Person.${phone}@Example.com`;
  soldA = { ...(await postSoldLead(t, apiKey, { phone, email })), phone, email };
  untouchedPhone = uniquePhone();
  untouchedId = (await postSoldLead(t, apiKey, { phone: untouchedPhone })).leadId;
  // A lead with a date of birth (a service's field): inserted as the sale would, the trigger at work.
  nameLeadId = newId('lead');
  await t.database.db.insert(leads).values({
    id: nameLeadId,
    sourceId: 'src_x',
    service: 'roofing',
    zip: '75201',
    firstName: 'José',
    lastName: 'Núñez',
    fields: { date_of_birth: '11/11/1979' },
    createdAt: t.clock.now(),
  });
  // The CPPA's example person, and a near miss (born a day later): only the first is on the list.
  danielleId = newId('lead');
  nearMissId = newId('lead');
  await t.database.db.insert(leads).values([
    {
      id: danielleId,
      sourceId: 'src_x',
      service: 'roofing',
      zip: '91790',
      name: 'Danielle Johnson',
      fields: { dob: 'July 4, 1985' },
      createdAt: t.clock.now(),
    },
    {
      id: nearMissId,
      sourceId: 'src_x',
      service: 'roofing',
      zip: '91790',
      firstName: 'Danielle',
      lastName: 'Johnson',
      fields: { birth_date: '1985-07-05' },
      createdAt: t.clock.now(),
    },
  ]);
  dir = await mkdtemp(join(tmpdir(), 'leadex-drop-'));
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the hashes stored at intake (issue 35 item 3)', () => {
  it('are the SHA-256 of the email, the phone, and the NDZ composite, by the domain’s rules', async () => {
    expect(await hashesOf(soldA.leadId)).toEqual({
      email: sha256Hex(dropEmail(soldA.email) ?? ''),
      phone: sha256Hex(soldA.phone),
    });
    expect(await hashesOf(nameLeadId)).toEqual({
      name_dob_zip: ndzHex({ firstName: 'José', lastName: 'Núñez', dob: '11/11/1979', zip: '75201' }),
    });
  });

  it('give the CPPA’s published NDZ hash for its example person, and not for a near miss', async () => {
    expect((await hashesOf(danielleId)).name_dob_zip).toBe(dropHashOfCell(DANIELLE_NDZ));
    const near = (await hashesOf(nearMissId)).name_dob_zip;
    expect(near).toBe(ndzHex({ firstName: 'Danielle', lastName: 'Johnson', dob: '1985-07-05', zip: '91790' }));
    expect(near).not.toBe(dropHashOfCell(DANIELLE_NDZ));
  });

  it('standardise the same in the database as in the domain', async () => {
    const one = async <T>(query: ReturnType<typeof sql>) => rowsOf<T>(await t.database.db.execute(query))[0];
    const samples = [
      ' A.B@Example.COM ',
      'a b@x.io',
      '+1 (512) 555-0123',
      '15125550123',
      '+84(90)123 4567',
      '555-0123',
      'none',
      "María O'Brien-Ñúñez",
      'Juan Pablo',
      'Иван Щербакова',
      'Θεοδώρου',
      '田中 محمد שלום 김',
      'ＪＯＨＮ Louis XIV',
      'Jose\u0301',
    ];
    for (const v of samples) {
      const row = await one<{ e: string | null; p: string | null; n: string }>(
        sql`select leadex_drop_email(${v}) as e, leadex_drop_phone(${v}) as p, leadex_drop_name(${v}) as n`,
      );
      expect(row, v).toEqual({ e: dropEmail(v), p: dropPhone(v), n: dropName(v) });
    }
    const dobs = ['1985-02-03', '1985-02-03T10:00:00Z', '19850203', '2/3/1985', '12/31/1999', 'July 4, 1776'];
    const notDobs = ['Sept. 9, 1990', 'feb 29 2000', '1900-02-29', '1985-02-30', '1985-2-3', 'Junk 4, 1990', 'x'];
    for (const v of [...dobs, ...notDobs]) {
      const row = await one<{ d: string | null }>(sql`select leadex_drop_dob(${v}) as d`);
      expect(row?.d ?? null, v).toBe(dropDob(v));
    }
    for (const v of ['91790-3771', '91790 3771', 'M1B 1A1', '00712345', '02134', '0000', ' 75201 ', '']) {
      const row = await one<{ z: string | null }>(sql`select leadex_drop_zip(${v}) as z`);
      expect(row?.z ?? null, v).toBe(dropZip(v));
    }
    const person = { first: 'Danielle', last: 'Johnson', name: null, dob: 'July 4, 1985', zip: '91790-3771' };
    const row = await one<{ k: string | null }>(
      sql`select leadex_drop_ndz(${person.first}, ${person.last}, ${person.name}, ${person.dob}, ${person.zip}) as k`,
    );
    expect(row?.k).toBe(dropHashOfCell(DANIELLE_NDZ));
  });

  it('standardise every letter of the Latin, Greek and Cyrillic blocks (and others) the same in both', async () => {
    const blocks = [
      [0x20, 0x7e],
      [0xa0, 0x4ff],
      [0x590, 0x6ff],
      [0x1e00, 0x1eff],
      [0x2000, 0x206f],
      [0x3040, 0x30ff],
      [0x4e00, 0x4e3f],
      [0xac00, 0xac3f],
      [0xff01, 0xff5e],
    ] as const;
    const chars: string[] = [];
    for (const [from, to] of blocks)
      for (let cp = from; cp <= to; cp++)
        if (/\P{Cn}/u.test(String.fromCodePoint(cp))) chars.push(String.fromCodePoint(cp));
    const rows = rowsOf<{ c: string; n: string }>(
      await t.database.db.execute(
        sql`select c, leadex_drop_name(c) as n from jsonb_array_elements_text(${JSON.stringify(chars)}::jsonb) as x(c)`,
      ),
    );
    const differ = rows
      .filter((r) => r.n !== dropName(r.c))
      .map((r) => `${r.c} U+${r.c.codePointAt(0)?.toString(16)}: ${r.n} / ${dropName(r.c)}`);
    expect(differ).toEqual([]);
    expect(rows).toHaveLength(chars.length);
  });
});

describe('a deletion list run (issue 35 item 3)', () => {
  it('warns once 45 days pass without a run (never run: since 2026-08-01)', async () => {
    expect(await status()).toMatchObject({ last_run_ts: null, overdue: true, message: expect.stringMatching(/45/) });
  });

  it('matches the list’s hashes, erases the matched people as on request, and records the run', async () => {
    const csv = [
      'email_sha256,phone_sha256,name_dob_zip_sha256',
      `${sha256Hex(dropEmail(soldA.email) ?? '').toUpperCase()},,`,
      // DROP's own files carry the hash in Base64.
      `,${Buffer.from(sha256Hex(listedPhone), 'hex').toString('base64')},`,
      `,,${ndzHex({ firstName: 'José', lastName: 'Núñez', dob: '11/11/1979', zip: '75201' })}`,
      // The CPPA's published NDZ example, as its files carry it: Danielle's lead, not her near miss.
      `,,${DANIELLE_NDZ}`,
      'not a hash,,',
    ].join('\n');
    const res = await upload(csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      origin: 'upload',
      file: 'drop-2026-11-25.csv',
      status: 'done',
      entries: 4,
      invalid: 1,
      matched: 3,
      erased: 3,
      refused_since: 0,
    });
    const [a] = await t.database.db.select().from(leads).where(eq(leads.id, soldA.leadId));
    expect(a).toMatchObject({ phone: null, email: null, name: null });
    const [n] = await t.database.db.select().from(leads).where(eq(leads.id, nameLeadId));
    expect(n).toMatchObject({ firstName: null, lastName: null });
    const [d] = await t.database.db.select().from(leads).where(eq(leads.id, danielleId));
    expect(d).toMatchObject({ name: null, fields: {} });
    const [near] = await t.database.db.select().from(leads).where(eq(leads.id, nearMissId));
    expect(near).toMatchObject({ firstName: 'Danielle', lastName: 'Johnson' });
    const [u] = await t.database.db.select().from(leads).where(eq(leads.id, untouchedId));
    expect(u?.phone).not.toBeNull();
    // As a request: one record each (the person's phone, then the lead matched on name alone), their
    // hashes gone, their evidence sealed.
    const records = await t.database.db.select().from(erasureRequests).where(eq(erasureRequests.kind, 'deletion_list'));
    expect(records.flatMap((r) => r.leadIds).sort()).toEqual([soldA.leadId, nameLeadId, danielleId].sort());
    expect(records.every((r) => r.requestedBy.includes('drop-2026-11-25.csv'))).toBe(true);
    expect(await hashesOf(soldA.leadId)).toEqual({});
    expect(await hashesOf(nameLeadId)).toEqual({});
    expect(
      await t.database.db.select().from(consentEvidenceSeals).where(eq(consentEvidenceSeals.leadId, soldA.leadId)),
    ).toHaveLength(1);
    const s = await status();
    expect(s).toMatchObject({ overdue: false, message: null, days_since: 0 });
  });

  it('refuses the listed people’s next leads before pricing, and counts them on the run', async () => {
    const listed = await t.sourceApi('/api/lead', apiKey, leadInput({ phone: listedPhone }));
    expect(listed.json()).toMatchObject({ ok: false, reason: 'suppressed' });
    const sameEmail = await t.sourceApi('/api/lead', apiKey, leadInput({ email: soldA.email.toLowerCase() }));
    expect(sameEmail.json()).toMatchObject({ ok: false, reason: 'suppressed' });
    // Someone else is sold as before.
    await postSoldLead(t, apiKey);
    const runs = (await t.request({ method: 'GET', url: '/api/compliance/deletion-lists', as: admin.cookie })).json();
    expect(runs.total).toBe(1);
    expect(runs.data[0]).toMatchObject({ refused_since: 2, matched: 3, user: expect.any(String) });
  });

  it('reads new files from the configured directory daily, each once', async () => {
    // As DROP delivers a list: its work item's ID, the hash in Base64.
    const nobody = Buffer.from(sha256Hex('nobody@example.com'), 'hex').toString('base64');
    await writeFile(join(dir, '20261201_4821_Email.csv'), `ID,Hash\nA7kP2xQ9Lm4R,${nobody}\n`);
    await writeFile(join(dir, 'notes.md'), 'not a list');
    // DROP's withdrawn requests: never run, though it holds a lead's hash.
    await writeFile(
      join(dir, '20261201_4821_Removed.csv'),
      `ID,Hash,ListType\nA7kP2xQ9Lm4R,${sha256Hex(untouchedPhone)},Phone\n`,
    );
    const set = await t.request({
      method: 'PUT',
      url: '/api/compliance/deletion-lists/directory',
      as: admin.cookie,
      payload: { directory: dir },
    });
    expect(set.json()).toEqual({ directory: dir });
    expect(await t.deps.services.drop.runDirectory()).toBe(1);
    expect(await t.deps.services.drop.runDirectory()).toBe(0);
    const [run] = await t.database.db.select().from(dropRuns).where(eq(dropRuns.origin, 'directory'));
    expect(run).toMatchObject({
      fileName: '20261201_4821_Email.csv',
      status: 'done',
      entries: 1,
      invalid: 0,
      matched: 0,
    });
    expect((await status()).directory).toBe(dir);
  });

  it('warns on the 45th day after the last run, not before', async () => {
    const now = t.clock.now();
    try {
      t.clock.set(new Date(now.getTime() + 45 * 86_400_000));
      expect(await status()).toMatchObject({ overdue: false, days_since: 45 });
      t.clock.set(new Date(now.getTime() + 45 * 86_400_000 + 1_000));
      expect(await status()).toMatchObject({ overdue: true, message: expect.stringMatching(/for 45 days/) });
    } finally {
      t.clock.set(now);
    }
  });

  it('refuses a file without hashes and a directory that is not one, naming the field', async () => {
    expectFieldRefused(await upload('email_sha256\nnot-a-hash\n'), 'file');
    expectFieldRefused(await upload('name,city\nAnn,Austin\n'), 'file');
    // DROP's Removed file, by its name or its columns: refused, nobody erased.
    const removed = `ID,Hash,ListType\nA7kP2xQ9Lm4R,${sha256Hex(untouchedPhone)},Phone\n`;
    expectFieldRefused(await upload(removed, admin.cookie, '20261201_4821_Removed.csv'), 'file');
    expectFieldRefused(await upload(removed, admin.cookie, 'withdrawn.csv'), 'file');
    const [u] = await t.database.db.select().from(leads).where(eq(leads.id, untouchedId));
    expect(u?.phone).toBe(untouchedPhone);
    for (const directory of ['relative/path', join(dir, 'missing')])
      expectFieldRefused(
        await t.request({
          method: 'PUT',
          url: '/api/compliance/deletion-lists/directory',
          as: admin.cookie,
          payload: { directory },
        }),
        'directory',
      );
  });

  it('is the admin’s only: a buyer and a source get 403, a guest 401', async () => {
    const calls = [
      { method: 'GET' as const, url: '/api/compliance/deletion-lists' },
      { method: 'GET' as const, url: '/api/compliance/deletion-lists/status' },
      { method: 'PUT' as const, url: '/api/compliance/deletion-lists/directory', payload: { directory: null } },
      {
        method: 'POST' as const,
        url: '/api/compliance/deletion-lists/upload',
        payload: `${sha256Hex('x')}\n`,
        headers: { 'content-type': 'text/csv' },
      },
    ];
    for (const call of calls) {
      expect((await t.request({ ...call, as: roles.buyer })).statusCode, call.url).toBe(403);
      expect((await t.request({ ...call, as: roles.source })).statusCode, call.url).toBe(403);
      expect((await t.request(call)).statusCode, call.url).toBe(401);
    }
    expect((await t.request({ ...calls[0], as: roles.admin })).statusCode).toBe(200);
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { dropDob, dropEmail, dropName, dropNameDobZip, dropPhone } from '@leadex/domain';
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
let untouchedId: string;
const listedPhone = uniquePhone(); // on the list, never a lead before the list
let dir: string;

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
  untouchedId = (await postSoldLead(t, apiKey)).leadId;
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
  dir = await mkdtemp(join(tmpdir(), 'leadex-drop-'));
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the hashes stored at intake (issue 35 item 3)', () => {
  it('are the SHA-256 of the email, the phone, and name + date of birth + ZIP, by the domain’s rules', async () => {
    expect(await hashesOf(soldA.leadId)).toEqual({
      email: sha256Hex(dropEmail(soldA.email) ?? ''),
      phone: sha256Hex(soldA.phone),
    });
    expect(await hashesOf(nameLeadId)).toEqual({
      name_dob_zip: 'd2c0e8a49f4df252a5eb57ccc6873aceff8d93e6e1101adff0a1daf01d6c0c39', // josenunez1979111175201
    });
  });

  it('normalise the same in the database as in the domain', async () => {
    const samples = [' A.B@Example.COM ', '+1 (512) 555-0123', '15125550123', '512555012', "María O'Brien-Ñúñez"];
    const dobs = ['1985-02-03', '2/3/1985', '12/31/1999', '1985-2-3', 'x'];
    for (const v of samples) {
      const [row] = rowsOf<{ e: string | null; p: string | null; n: string }>(
        await t.database.db.execute(
          sql`select leadex_drop_email(${v}) as e, leadex_drop_phone(${v}) as p, leadex_drop_name(${v}) as n`,
        ),
      );
      expect(row, v).toEqual({ e: dropEmail(v), p: dropPhone(v), n: dropName(v) });
    }
    for (const v of dobs) {
      const [row] = rowsOf<{ d: string | null }>(await t.database.db.execute(sql`select leadex_drop_dob(${v}) as d`));
      expect(row?.d ?? null, v).toBe(dropDob(v));
    }
    const [row] = rowsOf<{ k: string | null }>(
      await t.database.db.execute(
        sql`select leadex_drop_name_dob_zip(null, null, ${' José  de la Núñez '}, ${'11/11/1979'}, ${'75201-1234'}) as k`,
      ),
    );
    expect(row?.k).toBe(dropNameDobZip({ name: ' José  de la Núñez ', dob: '11/11/1979', zip: '75201-1234' }));
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
      ',,d2c0e8a49f4df252a5eb57ccc6873aceff8d93e6e1101adff0a1daf01d6c0c39',
      'not a hash,,',
    ].join('\n');
    const res = await upload(csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      origin: 'upload',
      file: 'drop-2026-11-25.csv',
      status: 'done',
      entries: 3,
      invalid: 1,
      matched: 2,
      erased: 2,
      refused_since: 0,
    });
    const [a] = await t.database.db.select().from(leads).where(eq(leads.id, soldA.leadId));
    expect(a).toMatchObject({ phone: null, email: null, name: null });
    const [n] = await t.database.db.select().from(leads).where(eq(leads.id, nameLeadId));
    expect(n).toMatchObject({ firstName: null, lastName: null });
    const [u] = await t.database.db.select().from(leads).where(eq(leads.id, untouchedId));
    expect(u?.phone).not.toBeNull();
    // As a request: one record each (the person's phone, then the lead matched on name alone), their
    // hashes gone, their evidence sealed.
    const records = await t.database.db.select().from(erasureRequests).where(eq(erasureRequests.kind, 'deletion_list'));
    expect(records.flatMap((r) => r.leadIds).sort()).toEqual([soldA.leadId, nameLeadId].sort());
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
    expect(runs.data[0]).toMatchObject({ refused_since: 2, matched: 2, user: expect.any(String) });
  });

  it('reads new files from the configured directory daily, each once', async () => {
    await writeFile(join(dir, 'drop-2026-12-01.csv'), `hash\n${sha256Hex('nobody@example.com')}\n`);
    await writeFile(join(dir, 'notes.md'), 'not a list');
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
    expect(run).toMatchObject({ fileName: 'drop-2026-12-01.csv', status: 'done', entries: 1, matched: 0 });
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

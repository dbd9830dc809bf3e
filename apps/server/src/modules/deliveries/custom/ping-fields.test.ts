import { PING_FIELD_NAMES, PING_SERVICE_FIELD_MESSAGES, type ServiceField, type Webhook } from '@leadex/domain';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBuyerWithLogin, saveServiceFields } from '../../../../test/factories';
import { useAdminTestApp } from '../../../../test/harness';
import { fieldRows, pingPostDelivery, scriptedNetwork, useRoutedAnsweringServer } from '../../../../test/receivers';
import { webhooks } from '../../../db/schema';
import { pingPostDelivery as enginePingPostDelivery } from '../../../distribution/ports';
import { createPinger, pingLead } from './ping';

// Issue 33: a Ping/Post delivery's ping may map the services' non-personal ping fields (`fields.<key>`);
// a personal field, or one sent with the post only, never travels in a ping.

const net = scriptedNetwork({ 'bids.buyer.test': ['93.184.216.41'] });
const { t, admin } = useAdminTestApp({}, { network: net.network });
const { server: buyers, hitsOn } = useRoutedAnsweringServer('{"ok":true,"bid":12,"id":"B-1"}');
const base = (path: string) => `http://bids.buyer.test:${buyers.port}${path}`;

const FIELDS = [
  { key: 'bill', label: 'Monthly Bill', type: 'money', stage: 'ping' },
  { key: 'roof_kind', label: 'Roof Kind', type: 'choice', options: ['Shingle', 'Metal'], stage: 'post' },
  { key: 'birth', label: 'Birth Date', type: 'date', personal: true },
  { key: 'stories', label: 'Stories', type: 'number', stage: 'ping' },
];

let buyer: Awaited<ReturnType<typeof createBuyerWithLogin>>;

beforeAll(async () => {
  await saveServiceFields(t, admin.cookie, 'roofing', FIELDS);
  await t.deps.engine.flush();
  buyer = await createBuyerWithLogin(t, { name: 'Ping Fields Roofing' });
});

const delivery = (path: string, pingMap: Record<string, string>) =>
  pingPostDelivery({
    buyer: buyer.buyer._id,
    name: `Bids ${path}`,
    base: base(path),
    map: { phone: 'Phone' },
    pingMap: { zip: 'Zip', ...pingMap },
  });
const create = (payload: object, as = admin.cookie) => t.request({ method: 'POST', url: '/api/webhook', as, payload });

describe('the template', () => {
  it('offers a ping the lead’s ping fields and the services’ non-personal ping fields, nothing else', async () => {
    for (const as of [admin.cookie, buyer.cookie]) {
      const res = await t.request({ method: 'GET', url: '/api/webhook/new', as });
      expect(res.statusCode, res.body).toBe(200);
      const pingFields = res.json().ping_fields as string[];
      expect(pingFields.slice(0, PING_FIELD_NAMES.length)).toEqual([...PING_FIELD_NAMES]);
      expect(pingFields).toContain('fields.bill');
      expect(pingFields).toContain('fields.stories');
      expect(pingFields).not.toContain('fields.roof_kind');
      expect(pingFields).not.toContain('fields.birth');
      // The post's mapping still offers every field.
      const postFields = (res.json().fields as { field: string }[]).map((f) => f.field);
      expect(postFields).toEqual(expect.arrayContaining(['fields.bill', 'fields.roof_kind', 'fields.birth']));
    }
  });
});

describe('saving a ping’s mapping', () => {
  it('takes a non-personal ping field; refuses a personal one, a post-only one and an unknown one on its row', async () => {
    const before = (await t.database.db.select().from(webhooks)).length;
    const refused: [string, string][] = [
      ['fields.birth', PING_SERVICE_FIELD_MESSAGES.personal('birth')],
      ['fields.roof_kind', PING_SERVICE_FIELD_MESSAGES.postOnly('roof_kind')],
      ['fields.nope', PING_SERVICE_FIELD_MESSAGES.unknown('nope')],
    ];
    for (const [field, message] of refused) {
      for (const as of [admin.cookie, buyer.cookie]) {
        const res = await create(delivery('/refused', { [field]: 'X' }), as);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toMatchObject({ ok: false, message, errors: { 'ping.map.1.field': message } });
      }
    }
    expect((await t.database.db.select().from(webhooks)).length).toBe(before);

    const saved = await create(delivery('/taken', { 'fields.bill': 'Bill' }), buyer.cookie);
    expect(saved.statusCode, saved.body).toBe(201);
    // A change naming a personal field is refused the same way, and the stored ping is kept.
    const id = saved.json()._id as string;
    const ping = saved.json().ping;
    const change = await t.request({
      method: 'PUT',
      url: `/api/webhook/${id}`,
      as: admin.cookie,
      payload: { ping: { ...ping, map: [...ping.map, { field: 'fields.birth', value: 'Birth' }] } },
    });
    expect(change.statusCode, change.body).toBe(400);
    expect(change.json().errors).toEqual({ 'ping.map.2.field': PING_SERVICE_FIELD_MESSAGES.personal('birth') });
    const [row] = await t.database.db.select().from(webhooks).where(eq(webhooks.id, id));
    expect(row?.ping?.map).toEqual(fieldRows({ zip: 'Zip', 'fields.bill': 'Bill' }));
  });
});

describe('the ping sent', () => {
  it('carries the non-personal ping fields it maps, money in dollars; the Test call sends them typed', async () => {
    const saved = await create(delivery('/test', { 'fields.bill': 'Bill', 'fields.stories': 'Stories' }));
    expect(saved.statusCode, saved.body).toBe(201);
    const res = await t.request({
      method: 'POST',
      url: `/api/webhook/${saved.json()._id}/test`,
      as: buyer.cookie,
      payload: { 'test_fields.bill': '99.50', test_zip: '75201' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [sent] = hitsOn('/test/ping');
    expect(JSON.parse(sent?.body ?? '{}')).toEqual({ Zip: '75201', Bill: 99.5, Stories: 3 });
  });

  it('leaves out a personal or post-only field even when a stored mapping names it, and other services’ fields', async () => {
    const saved = await create(delivery('/real', { 'fields.bill': 'Bill' }));
    expect(saved.statusCode, saved.body).toBe(201);
    const webhook = saved.json() as Webhook;
    // Rows that slipped past the save (stored before the rule, or a field since made personal).
    const ping = {
      ...(webhook.ping as NonNullable<Webhook['ping']>),
      map: fieldRows({ zip: 'Zip', 'fields.bill': 'Bill', 'fields.birth': 'Birth', 'fields.roof_kind': 'Roof' }),
    };
    const definitions = t.deps.engine.snapshot().fieldsOf('roofing') as readonly ServiceField[];
    const pinger = createPinger({
      clock: t.clock,
      secret: t.deps.config.LEADEX_SECRET,
      deliverOptions: () => t.deps.services.webhooks.deliverOptions(),
      fieldsOf: (service) => (service === 'roofing' ? definitions : []),
    });
    const facts = {
      service: 'roofing',
      zip: '75201',
      state: 'TX',
      channel: null,
      pubId: null,
      subId: null,
      trustedFormPingUrl: null,
      at: t.clock.now(),
      test: false,
      fields: { bill: 12050, roof_kind: 'Metal', birth: '1970-05-01' },
    };
    const [call] = await pinger.pingAll([enginePingPostDelivery(webhook, ping)], facts, 'ping-key-1');
    expect(call?.outcome).toBe('bid');
    const [sent] = hitsOn('/real/ping');
    // The rows still name their fields (as a contact field's row would), but their values never travel.
    expect(JSON.parse(sent?.body ?? '{}')).toEqual({ Zip: '75201', Bill: 120.5, Birth: null, Roof: null });
    expect(sent?.body).not.toContain('1970');
    expect(sent?.body).not.toContain('Metal');

    // A lead of a service without the field sends none of it; a ping without fields sends the lead's own.
    expect(pingLead({ ...facts, service: 'solar' }, [])).not.toHaveProperty('fields.bill');
    expect(pingLead({ ...facts, fields: undefined }, definitions)).not.toHaveProperty('fields.bill');
    const lead = pingLead(facts, definitions);
    expect(Object.keys(lead).filter((k) => k.startsWith('fields.'))).toEqual(['fields.bill']);
  });
});

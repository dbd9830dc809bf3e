import { describe, expect, it } from 'vitest';
import { messages } from './test-support';
import {
  CONTACT_FIELDS,
  DELIVERY_FIELD_NAMES,
  newWebhookDraft,
  PING_FIELD_NAMES,
  testFields,
  testOutcome,
  toWebhookPayload,
  WEBHOOK_MESSAGES,
  type WebhookFormValues,
  webhookChanges,
  webhookCreateSchema,
  webhookFormSchema,
  webhookFormValues,
  webhookListQuery,
  webhookTestSchema,
  webhookUpdateSchema,
} from './webhook';

const valid = { name: 'Summit CRM', buyer: 'buy_1', url: 'https://crm.example.com/leads' };

const template = newWebhookDraft();

/** A new delivery's form from the template, filled in; override any field. */
function form(overrides: Partial<WebhookFormValues> = {}): WebhookFormValues {
  return {
    ...webhookFormValues(template, { buyer: 'buy_1', fromTemplate: true }),
    name: 'Summit CRM',
    url: 'https://crm.example.com/leads',
    ...overrides,
  };
}

describe('delivery validation (admin spec §5 Delivery, portals §5 Delivery form)', () => {
  it('accepts a minimal delivery and fills the defaults: POST, json both ways, draft', () => {
    const parsed = webhookCreateSchema.parse(valid);
    expect(parsed).toMatchObject({
      method: 'POST',
      send_content_type: 'json',
      return_content_type: 'json',
      status: 'draft',
      headers: [],
      accept: [],
      map: [],
      static: [],
      tags: [],
      ping_id: 'no_ping',
    });
  });

  it("requires a name: 'Name is required'", () => {
    expect(messages(webhookCreateSchema, { ...valid, name: undefined }).name).toBe('Name is required');
    expect(messages(webhookCreateSchema, { ...valid, name: '  ' }).name).toBe('Name is required');
  });

  it("requires a buyer in the form: 'Buyer is required'", () => {
    expect(messages(webhookFormSchema, form({ buyer: '' })).buyer).toBe('Buyer is required');
  });

  it("requires a URL: 'URL is required', and a web address", () => {
    expect(messages(webhookCreateSchema, { ...valid, url: undefined }).url).toBe('URL is required');
    expect(messages(webhookCreateSchema, { ...valid, url: '' }).url).toBe('URL is required');
    expect(messages(webhookCreateSchema, { ...valid, url: 'ftp://crm.example.com' }).url).toBe(
      'URL must be a valid http:// or https:// address',
    );
    expect(messages(webhookCreateSchema, { ...valid, url: 'not a url' }).url).toBe(
      'URL must be a valid http:// or https:// address',
    );
  });

  it('takes POST or PUT only, in any case', () => {
    expect(webhookCreateSchema.parse({ ...valid, method: 'put' }).method).toBe('PUT');
    expect(messages(webhookCreateSchema, { ...valid, method: 'GET' }).method).toBe('Method must be POST or PUT');
  });

  it('takes json, xml or form as send and return content types', () => {
    const parsed = webhookCreateSchema.parse({ ...valid, send_content_type: 'XML', return_content_type: 'form' });
    expect([parsed.send_content_type, parsed.return_content_type]).toEqual(['xml', 'form']);
    expect(messages(webhookCreateSchema, { ...valid, send_content_type: 'yaml' }).send_content_type).toBe(
      'Send content type must be json, xml or form',
    );
    expect(messages(webhookCreateSchema, { ...valid, return_content_type: 'csv' }).return_content_type).toBe(
      'Return content type must be json, xml or form',
    );
  });

  // What the form says on a header row's header and value (nothing where a key is absent).
  it.each([
    { row: { header: '', value: 'x' }, header: 'Header is required' },
    { row: { header: 'X-Api-Key' }, value: 'Value is required' },
    { row: { header: 'X-Ok', value: 'yes' } },
    // Malformed header names, the headers the exchange sets itself, a value on two lines.
    {
      row: { header: 'Bad Header', value: 'x' },
      header: 'Header name contains a character that cannot be sent (a space)',
    },
    { row: { header: 'Content-Length', value: '1' }, header: 'This header is set by the exchange' },
    { row: { header: 'X-A', value: 'line\nbreak' }, value: 'Value must be on one line' },
    // Node's HTTP client throws on these instead of sending (ERR_INVALID_CHAR): one buyer's row would fail
    // every sale to it. The message names the header and the character.
    {
      row: { header: 'X-Currency', value: '10 €' },
      value: "Header X-Currency's value contains a character that cannot be sent (€)",
    },
    {
      row: { header: 'X-Bell', value: 'a\u0007b' },
      value: "Header X-Bell's value contains a character that cannot be sent (U+0007)",
    },
    {
      row: { header: 'X-Del', value: 'a\u007fb' },
      value: "Header X-Del's value contains a character that cannot be sent (U+007F)",
    },
    {
      row: { header: 'X-Emoji', value: 'ok 👍' },
      value: "Header X-Emoji's value contains a character that cannot be sent (👍)",
    },
    // Tab and Latin-1 are sent as they are.
    { row: { header: 'X-Latin', value: 'café\tß' } },
  ] as { row: { header: string; value?: string }; header?: string; value?: string }[])(
    'says on the header row $row.header: $header / $value',
    ({ row, header, value }) => {
      const out = messages(webhookCreateSchema, { ...valid, headers: [row] });
      expect(out['headers.0.header']).toBe(header);
      expect(out['headers.0.value']).toBe(value);
    },
  );

  it("names a ping's header as the ping's, in the API and in the form", () => {
    const ping = {
      url: 'https://crm.example.com/ping',
      price_field: 'bid',
      headers: [{ header: 'X-Key', value: '€1' }],
    };
    const out = messages(webhookCreateSchema, { ...valid, ping_id: 'ping_post', ping });
    expect(out['ping.headers.0.value']).toBe("Ping header X-Key's value contains a character that cannot be sent (€)");
    expect(messages(webhookUpdateSchema, { ping })['ping.headers.0.value']).toBe(out['ping.headers.0.value']);
  });

  it('shows the same message on the form row', () => {
    const out = messages(webhookFormSchema, form({ headers: [{ header: 'X-Token', value: 'abc\u0001' }] }));
    expect(out['headers.0.value']).toBe("Header X-Token's value contains a character that cannot be sent (U+0001)");
  });

  it.each(['accept', 'map', 'static'])(
    "needs a field and a value on each %s row: 'Field is required', 'Value is required'",
    (list) => {
      const out = messages(webhookCreateSchema, {
        ...valid,
        [list]: [{ field: '', value: 'ok' }, { field: 'status' }],
      });
      expect(out[`${list}.0.field`]).toBe('Field is required');
      expect(out[`${list}.1.value`]).toBe('Value is required');
    },
  );

  it('takes tags as a list of strings', () => {
    expect(webhookCreateSchema.parse({ ...valid, tags: ['crm', 'tx'] }).tags).toEqual(['crm', 'tx']);
    expect(messages(webhookCreateSchema, { ...valid, tags: 'crm' }).tags).toBeDefined();
  });

  it('takes the status as a word or as the flags, one of live, draft, pause', () => {
    expect(webhookCreateSchema.parse({ ...valid, status: 'live' }).status).toBe('live');
    expect(webhookCreateSchema.parse({ ...valid, status: 'Paused' }).status).toBe('pause');
    expect(webhookCreateSchema.parse({ ...valid, status: { live: false, draft: false, pause: true } }).status).toBe(
      'pause',
    );
    expect(messages(webhookCreateSchema, { ...valid, status: { live: true, pause: true } }).status).toBe(
      'Status must be Live, Draft or Paused',
    );
  });

  it('updates take only the changed fields; the buyer cannot change; an empty optional text clears it', () => {
    expect(webhookUpdateSchema.parse({ name: 'New name' })).toEqual({ name: 'New name' });
    expect(messages(webhookUpdateSchema, { buyer: 'buy_2' }).buyer).toBe('Buyer cannot be changed');
    expect(messages(webhookUpdateSchema, { name: '' }).name).toBe('Name is required');
    expect(messages(webhookUpdateSchema, { url: '' }).url).toBe('URL is required');
    const cleared = webhookUpdateSchema.parse({ wrap_key: '' });
    expect('wrap_key' in cleared && cleared.wrap_key === undefined).toBe(true);
  });

  it('lists 25 a page, filtered by name, buyer name and tag', () => {
    expect(webhookListQuery.parse({})).toMatchObject({ page: 1, pageSize: 25 });
    expect(webhookListQuery.parse({ name: 'crm', buyer_name: 'summit', tag: 'tx' })).toMatchObject({
      name: 'crm',
      buyer_name: 'summit',
      tag: 'tx',
    });
  });

  it('takes test values as text', () => {
    expect(webhookTestSchema.parse({ test_phone: '5125550100', test_price: 45 })).toEqual({
      test_phone: '5125550100',
      test_price: 45,
    });
    expect(webhookTestSchema.safeParse({ test_phone: { nested: true } }).success).toBe(false);
  });
});

describe('the Delivery form and its payload', () => {
  it('a new delivery starts as a draft with the template fields in the map', () => {
    const values = form();
    expect(values.status).toBe('draft');
    expect(values.map.map((r) => r.field)).toEqual(DELIVERY_FIELD_NAMES);
    expect(messages(webhookFormSchema, values)).toEqual({});
  });

  it('on a new delivery the map is emptied if no mapping row has a value', () => {
    expect(toWebhookPayload(form()).map).toEqual([]);
  });

  it('drops the template rows left without a value, keeps the filled ones', () => {
    const values = form();
    values.map = values.map.map((r) =>
      r.field === 'phone' ? { ...r, value: 'PhoneNumber' } : r.field === 'zip' ? { ...r, value: 'Zip' } : r,
    );
    expect(toWebhookPayload(values).map).toEqual([
      { field: 'phone', value: 'PhoneNumber' },
      { field: 'zip', value: 'Zip' },
    ]);
  });

  it("checks a mapping row added by hand: 'Field is required', 'Value is required'", () => {
    const out = messages(
      webhookFormSchema,
      form({
        map: [
          { field: '', value: 'X' },
          { field: 'phone', value: '' },
        ],
      }),
    );
    expect(out['map.0.field']).toBe('Field is required');
    expect(out['map.1.value']).toBe('Value is required');
  });

  it("shows every spec message of a blank form at once: 'Name is required', 'URL is required'", () => {
    const out = messages(webhookFormSchema, form({ name: '', url: '' }));
    expect(out).toMatchObject({ name: 'Name is required', url: 'URL is required' });
  });

  it('drops empty optional texts and trims rows', () => {
    const payload = toWebhookPayload(
      form({ key: ' k1 ', keyname: '', static: [{ field: ' source ', value: ' leadex ' }] }),
    );
    expect(payload.key).toBe('k1');
    expect('keyname' in payload).toBe(false);
    expect(payload.static).toEqual([{ field: 'source', value: 'leadex' }]);
  });

  it('an edit sends only what changed, lists whole, and a cleared optional text as empty', () => {
    const before = form({ wrap_key: 'lead', accept: [{ field: 'status', value: 'ok' }] });
    const after = {
      ...before,
      name: 'Renamed',
      wrap_key: '',
      accept: [...before.accept, { field: 'code', value: '1' }],
    };
    expect(webhookChanges(before, after)).toEqual({
      name: 'Renamed',
      wrap_key: '',
      accept: [
        { field: 'status', value: 'ok' },
        { field: 'code', value: '1' },
      ],
    });
    expect(webhookChanges(before, { ...before })).toEqual({});
  });

  it('the Test modal asks for each mapped field with a value, once', () => {
    expect(
      testFields([
        { field: 'phone', value: 'Phone' },
        { field: 'zip', value: '' },
        { field: 'phone', value: 'Phone2' },
        { field: 'email', value: 'Email' },
      ]),
    ).toEqual(['phone', 'email']);
  });

  it('the test badge: Error at status 400 or higher or without an answer, else Accepted or Not Accepted', () => {
    expect(testOutcome({ status: 500, accept: false })).toBe('Error');
    expect(testOutcome({ status: 400, accept: true })).toBe('Error');
    expect(testOutcome({ status: 0, accept: false, error: 'timeout' })).toBe('Error');
    expect(testOutcome({ status: 200, accept: true })).toBe('Accepted');
    expect(testOutcome({ status: 200, accept: false })).toBe('Not Accepted');
  });
});

describe('a Ping/Post delivery (DESIGN.md §6)', () => {
  const ping = { url: 'https://crm.example.com/bid', price_field: 'bid' };
  const pingPost = { ...valid, ping_id: 'ping_post', ping };

  it('takes its ping and fills the defaults: POST, json both ways, a 1,000 ms timeout', () => {
    expect(webhookCreateSchema.parse(pingPost)).toMatchObject({
      ping_id: 'ping_post',
      ping: {
        url: 'https://crm.example.com/bid',
        method: 'POST',
        send_content_type: 'json',
        return_content_type: 'json',
        headers: [],
        map: [],
        static: [],
        accept: [],
        price_field: 'bid',
        timeout_ms: 1000,
      },
    });
  });

  it('the type is no_ping (Direct) or ping_post (Ping/Post), and Ping/Post needs its ping', () => {
    expect(webhookCreateSchema.parse({ ...valid, ping_id: 'PING_POST', ping }).ping_id).toBe('ping_post');
    expect(messages(webhookCreateSchema, { ...valid, ping_id: 'ping' }).ping_id).toBe(WEBHOOK_MESSAGES.type);
    expect(messages(webhookCreateSchema, { ...valid, ping_id: 'ping_post' }).ping).toBe(
      'A Ping/Post delivery needs its ping: URL and bid price field',
    );
    expect(messages(webhookUpdateSchema, { ping_id: 'other' }).ping_id).toBe(
      'Type must be no_ping (Direct) or ping_post (Ping/Post)',
    );
    expect(webhookUpdateSchema.parse({ ping: null })).toEqual({ ping: null });
  });

  it("needs the ping's URL and the answer's price field, with their own messages", () => {
    expect(messages(webhookCreateSchema, { ...pingPost, ping: { price_field: 'bid' } })['ping.url']).toBe(
      'Ping URL is required',
    );
    expect(messages(webhookCreateSchema, { ...pingPost, ping: { ...ping, url: 'ftp://x.example' } })['ping.url']).toBe(
      'Ping URL must be a valid http:// or https:// address',
    );
    expect(messages(webhookCreateSchema, { ...pingPost, ping: { url: ping.url } })['ping.price_field']).toBe(
      'Bid price field is required',
    );
  });

  it('the timeout is a whole number of milliseconds from 1 to 3000, both bounds included', () => {
    const timeout = (timeout_ms: unknown) =>
      webhookCreateSchema.safeParse({ ...pingPost, ping: { ...ping, timeout_ms } });
    expect(timeout(1).data?.ping?.timeout_ms).toBe(1);
    expect(timeout(3000).data?.ping?.timeout_ms).toBe(3000);
    expect(timeout('250').data?.ping?.timeout_ms).toBe(250);
    expect(timeout('').data?.ping?.timeout_ms).toBe(1000);
    for (const wrong of [0, 3001, 1.5, -5, 'soon'])
      expect(
        messages(webhookCreateSchema, { ...pingPost, ping: { ...ping, timeout_ms: wrong } })['ping.timeout_ms'],
      ).toBe('Ping timeout must be a whole number of milliseconds from 1 to 3000');
  });

  it('a ping mapping sends non-personal fields only: a contact field is refused by name', () => {
    const mapped = (field: string) =>
      messages(webhookCreateSchema, { ...pingPost, ping: { ...ping, map: [{ field, value: 'X' }] } })[
        'ping.map.0.field'
      ];
    for (const field of PING_FIELD_NAMES) expect(mapped(field)).toBeUndefined();
    for (const field of CONTACT_FIELDS)
      expect(mapped(field)).toBe(
        `'${field}' is contact data: a ping never sends name, phone, email, address or other contact fields`,
      );
    expect(mapped('phone')).toContain('contact data');
    expect(mapped('lead_id')).toBe(WEBHOOK_MESSAGES.pingField);
    expect(mapped('price')).toBe(
      'A ping sends only these lead fields: service, zip, state, channel, pub_id, sub_id, ts, test, trusted_form_ping_url, and the services’ non-personal ping fields (fields.<key>)',
    );
    // A service's field by its key passes here; the server checks it is a non-personal ping field (issue 33).
    expect(mapped('fields.electric_bill')).toBeUndefined();
    expect(mapped('fields.')).toBe(WEBHOOK_MESSAGES.pingField);
    expect(mapped('fields.Bad-Key')).toBe(WEBHOOK_MESSAGES.pingField);
    // Every template field is either one a ping may send or contact data or the sale's own (id, price, the echo,
    // and the consumer's calling window: read from the phone when the ZIP does not tell, so never pinged).
    for (const field of DELIVERY_FIELD_NAMES)
      expect(
        PING_FIELD_NAMES.includes(field) ||
          (CONTACT_FIELDS as readonly string[]).includes(field) ||
          [
            'lead_id',
            'price',
            'homeowner',
            'buyer_ping_id',
            'consumer_time_zone',
            'calling_window',
            'calling_window_max_per_24h',
          ].includes(field),
      ).toBe(true);
  });

  it('the message listing the ping fields names exactly PING_FIELD_NAMES', () => {
    expect(WEBHOOK_MESSAGES.pingField).toBe(
      `A ping sends only these lead fields: ${PING_FIELD_NAMES.join(', ')}, and the services’ non-personal ping fields (fields.<key>)`,
    );
  });
});

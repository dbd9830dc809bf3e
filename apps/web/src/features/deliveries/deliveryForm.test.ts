import { CONTACT_FIELDS, newWebhookDraft, PING_FIELD_NAMES, WEBHOOK_MESSAGES, type Webhook } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import {
  blankPing,
  type DeliveryFormValues,
  deliveryChanges,
  deliveryFormSchema,
  deliveryFormValues,
  toDeliveryPayload,
} from './deliveryForm';

/** The form's messages by path ('ping.url'), as the form shows them under the inputs: the first for each. */
function messages(values: DeliveryFormValues): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const issue of deliveryFormSchema.safeParse(values).error?.issues ?? [])
    shown[issue.path.join('.')] ??= issue.message;
  return shown;
}

/** A new delivery as the template starts it, named and aimed, of the given type. */
function newDelivery(type: DeliveryFormValues['ping_id']): DeliveryFormValues {
  const values = deliveryFormValues(newWebhookDraft(), { buyer: 'buy_1', fromTemplate: true });
  return { ...values, name: 'Summit bids', url: 'https://crm.example.com/leads', ping_id: type };
}

/** A Ping/Post delivery's filled ping: the service and ZIP mapped, the rest of the template rows left blank. */
function filledPing(values: DeliveryFormValues): DeliveryFormValues {
  const map = values.ping.map.map((row) =>
    row.field === 'service' ? { ...row, value: 'Service' } : row.field === 'zip' ? { ...row, value: ' Zip ' } : row,
  );
  return {
    ...values,
    ping: { ...values.ping, url: ' https://crm.example.com/bid ', price_field: 'bid', ping_id_field: 'id', map },
  };
}

const stored: Webhook = {
  ...newWebhookDraft(),
  _id: 'whk_1',
  buyer: 'buy_1',
  buyer_name: 'Summit Roofing Co.',
  name: 'Summit bids',
  url: 'https://crm.example.com/leads',
  map: [{ field: 'buyer_ping_id', value: 'BidId' }],
  ping_id: 'ping_post',
  ping: {
    url: 'https://crm.example.com/bid',
    method: 'POST',
    headers: [],
    send_content_type: 'json',
    return_content_type: 'json',
    map: [{ field: 'zip', value: 'Zip' }],
    static: [],
    accept: [],
    price_field: 'bid',
    timeout_ms: 800,
  },
  ts: 1767225600,
  tsdate: '2026-01-01T00:00:00.000Z',
};

describe('the Delivery form with its type and ping', () => {
  it('starts a new delivery as Direct, with a blank ping offering every ping field unmapped', () => {
    const values = deliveryFormValues(newWebhookDraft(), { fromTemplate: true });
    expect(values.ping_id).toBe('no_ping');
    expect(values.ping).toEqual(blankPing());
    expect(values.ping.timeout_ms).toBe(1000);
    expect(values.ping.map.map((row) => row.field)).toEqual(PING_FIELD_NAMES);
  });

  it("reads a stored delivery's type and ping; any ping_id but no_ping is Ping/Post", () => {
    const values = deliveryFormValues(stored);
    expect(values.ping_id).toBe('ping_post');
    expect(values.ping).toMatchObject({ url: 'https://crm.example.com/bid', timeout_ms: 800, ping_id_field: '' });
    expect(values.ping.map).toEqual([{ field: 'zip', value: 'Zip' }]);
    expect(deliveryFormValues({ ...stored, ping_id: 'legacy-ping' }).ping_id).toBe('ping_post');
  });

  it('a Direct delivery sends its type and no ping, and its blank ping is never checked', () => {
    const values = newDelivery('no_ping');
    expect(messages(values)).toEqual({});
    const payload = toDeliveryPayload(values);
    expect(payload.ping_id).toBe('no_ping');
    expect('ping' in payload).toBe(false);
  });

  it('a Ping/Post delivery needs the ping URL and the bid price field, with the shared messages', () => {
    expect(messages(newDelivery('ping_post'))).toEqual({
      'ping.url': WEBHOOK_MESSAGES.pingUrl,
      'ping.price_field': WEBHOOK_MESSAGES.priceField,
    });
  });

  it('the timeout is 1 to 3000 ms, both bounds included; blank takes the default', () => {
    const at = (timeout_ms: number | string) => {
      const values = filledPing(newDelivery('ping_post'));
      return { ...values, ping: { ...values.ping, timeout_ms } };
    };
    for (const fine of [1, 3000, '250']) expect(messages(at(fine))).toEqual({});
    for (const wrong of [0, 3001, 'soon'])
      expect(messages(at(wrong))).toEqual({ 'ping.timeout_ms': WEBHOOK_MESSAGES.pingTimeout });
    expect(toDeliveryPayload(at('')).ping).not.toHaveProperty('timeout_ms');
    expect(toDeliveryPayload(at(3000)).ping?.timeout_ms).toBe(3000);
  });

  it("a contact field in the ping's mapping is refused on its own row, counting the unused template rows", () => {
    const values = filledPing(newDelivery('ping_post'));
    const row = values.ping.map.length;
    const withContact = {
      ...values,
      ping: { ...values.ping, map: [...values.ping.map, { field: CONTACT_FIELDS[4], value: 'Email' }] },
    };
    expect(messages(withContact)).toEqual({
      [`ping.map.${row}.field`]: `'email' is contact data: a ping never sends name, phone, email, address or other contact fields`,
    });
  });

  it('sends the ping trimmed, without the unused template rows or empty optional texts', () => {
    const payload = toDeliveryPayload(filledPing(newDelivery('ping_post')));
    expect(payload.ping_id).toBe('ping_post');
    expect(payload.ping).toEqual({
      url: 'https://crm.example.com/bid',
      method: 'POST',
      send_content_type: 'json',
      return_content_type: 'json',
      headers: [],
      map: [
        { field: 'service', value: 'Service' },
        { field: 'zip', value: 'Zip' },
      ],
      static: [],
      accept: [],
      price_field: 'bid',
      ping_id_field: 'id',
      timeout_ms: 1000,
    });
  });

  it('an edit sends the ping whole when it changed, the type alone when switched to Direct, nothing when unchanged', () => {
    const before = deliveryFormValues(stored);
    expect(deliveryChanges(before, structuredClone(before))).toEqual({});
    const slower = { ...before, ping: { ...before.ping, timeout_ms: 1500 } };
    expect(deliveryChanges(before, slower)).toEqual({
      ping: expect.objectContaining({ url: 'https://crm.example.com/bid', timeout_ms: 1500 }),
    });
    expect(deliveryChanges(before, { ...before, ping_id: 'no_ping' })).toEqual({ ping_id: 'no_ping' });
    const direct = deliveryFormValues({ ...stored, ping_id: 'no_ping', ping: undefined });
    const switched = filledPing({ ...direct, ping_id: 'ping_post' });
    expect(deliveryChanges(direct, switched)).toEqual({
      ping_id: 'ping_post',
      ping: expect.objectContaining({ url: 'https://crm.example.com/bid', price_field: 'bid' }),
    });
  });
});

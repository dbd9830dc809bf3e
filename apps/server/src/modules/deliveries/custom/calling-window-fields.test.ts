import { DELIVERY_FIELD_NAMES } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { fieldRows } from '../../../../test/receivers';
import type { DeliverableLead, DeliveryTarget } from '../../../distribution/ports';
import { leadForDelivery, renderRequest } from './render';

/** A Miami lead that arrived on Wednesday 2026-11-18 at 10am ET. */
const row: DeliverableLead = {
  id: 'lead_1',
  createdAt: new Date('2026-11-18T15:00:00Z'),
  service: 'roofing',
  name: 'Jane Doe',
  firstName: 'Jane',
  lastName: 'Doe',
  phone: '3055550100',
  email: 'jane@example.com',
  address: null,
  city: 'Miami',
  state: 'FL',
  zip: '33101',
  homeowner: true,
  tcpaConsent: true,
  tcpaLanguage: 'I agree',
  trustedForm: null,
  trustedFormPingUrl: null,
  jornaya: null,
  ip: null,
  userAgent: null,
  pubId: null,
  subId: null,
  channel: null,
  test: false,
  priceCents: 4500,
  consentPageUrl: 'https://quotes.example.com/roofing',
  fields: {},
};

const target: DeliveryTarget = {
  url: 'https://buyer.example/leads',
  method: 'POST',
  headers: [],
  accept: [],
  send_content_type: 'json',
  return_content_type: 'json',
  map: fieldRows({
    phone: 'Phone',
    calling_window: 'CallWindow',
    consumer_time_zone: 'TZ',
    calling_window_max_per_24h: 'MaxCalls',
    consent_page_url: 'ConsentPage',
  }),
  static: [],
} as unknown as DeliveryTarget;

describe('the calling window in a delivery (issue 34 item 5)', () => {
  it('is in the template field list', () => {
    for (const field of ['consumer_time_zone', 'calling_window', 'calling_window_max_per_24h', 'consent_page_url'])
      expect(DELIVERY_FIELD_NAMES).toContain(field);
  });

  it('is sent with the lead as its mapping names it', () => {
    const lead = leadForDelivery(row);
    expect(lead).toMatchObject({
      consumer_time_zone: 'America/New_York',
      calling_window: 'May call 8am-8pm ET; at most 3 calls or texts per 24 hours',
      calling_window_max_per_24h: 3,
      consent_page_url: 'https://quotes.example.com/roofing',
    });
    const body = JSON.parse(renderRequest(target, lead).body as string);
    expect(body).toMatchObject({
      Phone: '3055550100',
      CallWindow: 'May call 8am-8pm ET; at most 3 calls or texts per 24 hours',
      TZ: 'America/New_York',
      MaxCalls: 3,
      ConsentPage: 'https://quotes.example.com/roofing',
    });
  });

  it('is empty when neither the ZIP nor the phone tells the zone', () => {
    expect(leadForDelivery({ ...row, zip: '00000', phone: '5555550100', state: null })).toMatchObject({
      consumer_time_zone: null,
      calling_window: null,
      calling_window_max_per_24h: null,
    });
  });
});

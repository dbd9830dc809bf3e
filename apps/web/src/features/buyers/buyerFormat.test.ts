import type { Buyer } from '@leadex/domain';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../lib/format';
import { changedFields } from '../../lib/forms';
import { NEW_BUYER, toFormValues, updateSchema, WHOLE_FIELDS } from './buyerForm';
import { formatBillDate, locationSummary } from './buyerFormat';

describe('the Campaigns table cells', () => {
  it('summarises the location: states, the region by name, or the first ZIPs', () => {
    const base = { state: [], zips: [] };
    expect(locationSummary({ ...base, location: 'state', state: ['TX', 'OK'] })).toBe('TX, OK');
    expect(locationSummary({ ...base, location: 'zipset', zipset_name: 'Dallas Metro' })).toBe('Region: Dallas Metro');
    expect(locationSummary({ ...base, location: 'zip', zips: ['75201', '75202'] })).toBe('75201, 75202');
    expect(locationSummary({ ...base, location: 'zip', zips: ['75201', '75202', '75203', '75204', '75205'] })).toBe(
      '75201, 75202, 75203 +2 more',
    );
  });

  it('shows dollars with cents', () => {
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(undefined)).toBe('');
  });

  it('shows bill dates as New York days, whatever the browser’s zone', () => {
    // 2026-03-31 23:59:59 in New York is already April 1st in UTC.
    expect(formatBillDate(Date.UTC(2026, 3, 1, 3, 59, 59) / 1000)).toBe('03/31/2026');
  });
});

describe('the buyer form', () => {
  const buyer: Buyer = {
    _id: 'buy_1',
    username: 'acme',
    name: 'Acme',
    email: 'ops@acme.example',
    phone: '5550102000',
    tags: [],
    notify: { email: ['a@acme.example'], sms: [], broadcast_webhooks: [] },
    bill: { pay: 'invoice', prepay: 0, period: 'monthly', grace: 3, threshold: 0 },
    autoApproveReturns: 0.05,
    legal_names: [],
    showSource: false,
    budget_daily: null,
    ts: 1,
  };

  it('starts a new buyer billed by invoice, monthly, 3 days’ grace, with no delivery', () => {
    expect(NEW_BUYER.bill).toEqual({ pay: 'invoice', prepay: 0, period: 'monthly', grace: '3', threshold: 0 });
    expect(NEW_BUYER.notify).toEqual({ email: [], sms: [], webhook: '', broadcast_webhooks: [] });
    expect(NEW_BUYER.autoApproveReturns).toBe(0);
  });

  it('sends the whole Lead Delivery when one list changed, and the slider as a share', () => {
    const before = toFormValues(buyer);
    const after = {
      ...before,
      notify: { ...before.notify, sms: ['(555) 010-2000'] },
      autoApproveReturns: 0.25,
    };
    const changes = changedFields(before, after, WHOLE_FIELDS);
    expect(changes).toEqual({
      notify: { email: ['a@acme.example'], sms: ['(555) 010-2000'], webhook: '', broadcast_webhooks: [] },
      autoApproveReturns: 0.25,
    });
    expect(updateSchema.parse(changes)).toEqual({
      notify: { email: ['a@acme.example'], sms: ['(555) 010-2000'], broadcast_webhooks: [] },
      autoApproveReturns: 0.25,
    });
  });
});

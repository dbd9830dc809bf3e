import { describe, expect, it } from 'vitest';
import { buyerCreateSchema, buyerPauseSchema, buyerUpdateSchema, buyerUserSchema, PAUSE_ALL_REASON } from './buyer';
import { itRequiresContactFields, itRequiresNameAndEmail, messages, VALID_BUYER } from './test-support';

describe('buyer form (admin spec §5)', () => {
  it('accepts a complete buyer and fills the billing defaults', () => {
    const parsed = buyerCreateSchema.parse(VALID_BUYER);
    expect(parsed.bill).toEqual({ pay: 'invoice', prepay: 0, period: 'monthly', grace: 3, threshold: 0 });
    expect(parsed.tags).toEqual([]);
  });

  it('requires a username', () => {
    expect(messages(buyerCreateSchema, { ...VALID_BUYER, username: undefined }).username).toBe('Username is required');
    expect(messages(buyerCreateSchema, { ...VALID_BUYER, username: '' }).username).toBe('Username is required');
  });

  it('needs at least 4 characters in a username', () => {
    expect(messages(buyerCreateSchema, { ...VALID_BUYER, username: 'ab' }).username).toBe(
      'Usernames must be at least 4 characters long.',
    );
  });

  it('allows only lowercase letters, digits, underscore and hyphen in a username', () => {
    const message = 'Username must contain only alphanumeric, underscore or hyphen characters.';
    expect(messages(buyerCreateSchema, { ...VALID_BUYER, username: 'Acme Roofing' }).username).toBe(message);
    expect(messages(buyerCreateSchema, { ...VALID_BUYER, username: 'acme.roofing' }).username).toBe(message);
    expect(messages(buyerCreateSchema, { ...VALID_BUYER, username: 'acme_roofing-2' })).toEqual({});
  });

  itRequiresContactFields(buyerCreateSchema, VALID_BUYER);

  it('requires billing information and a payment method', () => {
    expect(messages(buyerCreateSchema, { ...VALID_BUYER, bill: undefined }).bill).toBe(
      'Billing information is required',
    );
    expect(messages(buyerCreateSchema, { ...VALID_BUYER, bill: {} })['bill.pay']).toBe('Payment method is required');
    expect(messages(buyerCreateSchema, { ...VALID_BUYER, bill: { pay: 'cash' } })['bill.pay']).toBe(
      'Payment method must be auto, invoice, prepay or credit',
    );
  });

  it('takes prepay and credit threshold in whole dollars from 0 to 100000', () => {
    const bill = (extra: object) => ({ ...VALID_BUYER, bill: { pay: 'prepay', ...extra } });
    expect(messages(buyerCreateSchema, bill({ prepay: 100000, threshold: 0 }))).toEqual({});
    expect(messages(buyerCreateSchema, bill({ prepay: 100001 }))['bill.prepay']).toBe(
      'Prepay must be less than or equal to 100000',
    );
    expect(messages(buyerCreateSchema, bill({ prepay: -1 }))['bill.prepay']).toBe('Prepay must be at least 0');
    expect(messages(buyerCreateSchema, bill({ prepay: 10.5 }))['bill.prepay']).toBe(
      'Prepay must be a whole number of dollars',
    );
    expect(messages(buyerCreateSchema, bill({ threshold: -5 }))['bill.threshold']).toBe(
      'Credit threshold must be at least 0',
    );
  });

  it('checks the email address', () => {
    expect(messages(buyerCreateSchema, { ...VALID_BUYER, email: 'not-an-email' }).email).toBe('Invalid email address.');
  });

  it('keeps an update to the changed fields and refuses a new username', () => {
    expect(buyerUpdateSchema.parse({ city: 'Denver' })).toEqual({ city: 'Denver' });
    expect(messages(buyerUpdateSchema, { username: 'other' }).username).toBe('Username cannot be changed');
    expect(messages(buyerUpdateSchema, { name: '' }).name).toBe('Name is required');
  });

  it('clears an optional field sent empty', () => {
    const parsed = buyerUpdateSchema.parse({ address: '' });
    expect('address' in parsed && parsed.address === undefined).toBe(true);
  });
});

describe('buyer user (Buyer User Details modal)', () => {
  itRequiresNameAndEmail(buyerUserSchema, { name: 'Jo Doe', email: 'jo@example.com' });
});

describe('buyer update', () => {
  it('changes only the billing fields sent', () => {
    expect(buyerUpdateSchema.parse({ bill: { pay: 'auto' } })).toEqual({ bill: { pay: 'auto' } });
  });
});

describe('buyer billing limits (admin spec §5 and §9)', () => {
  const bill = (extra: object) => ({ ...VALID_BUYER, bill: { pay: 'credit', ...extra } });

  it('caps the credit threshold at 100000 whole dollars, no negatives', () => {
    expect(messages(buyerCreateSchema, bill({ threshold: 100000 }))).toEqual({});
    expect(messages(buyerCreateSchema, bill({ threshold: 100001 }))['bill.threshold']).toBe(
      'Credit threshold must be less than or equal to 100000',
    );
    expect(messages(buyerCreateSchema, bill({ threshold: 99.99 }))['bill.threshold']).toBe(
      'Credit threshold must be a whole number of dollars',
    );
    expect(messages(buyerCreateSchema, bill({ threshold: 'lots' }))['bill.threshold']).toBe(
      'Credit threshold must be a number',
    );
    expect(messages(buyerCreateSchema, bill({ prepay: 'abc' }))['bill.prepay']).toBe('Prepay must be a number');
  });

  it('applies the same limits to a changed bill on an update', () => {
    expect(messages(buyerUpdateSchema, { bill: { prepay: 100001 } })['bill.prepay']).toBe(
      'Prepay must be less than or equal to 100000',
    );
    expect(messages(buyerUpdateSchema, { bill: { threshold: -1 } })['bill.threshold']).toBe(
      'Credit threshold must be at least 0',
    );
    expect(messages(buyerUpdateSchema, { bill: { pay: '' } })['bill.pay']).toBe('Payment method is required');
  });

  it('offers the pay methods auto, invoice, prepay and credit', () => {
    for (const pay of ['auto', 'invoice', 'prepay', 'credit'])
      expect(messages(buyerCreateSchema, { ...VALID_BUYER, bill: { pay } })).toEqual({});
  });

  it('takes a weekly or monthly period and 0, 3, 5 or 7 grace days', () => {
    expect(messages(buyerCreateSchema, bill({ period: 'weekly', grace: 0 }))).toEqual({});
    expect(messages(buyerCreateSchema, bill({ period: 'daily' }))['bill.period']).toBe(
      'Billing period must be weekly or monthly',
    );
    for (const grace of [0, 3, 5, 7, '7']) expect(messages(buyerCreateSchema, bill({ grace }))).toEqual({});
    for (const grace of [1, 14, 'soon'])
      expect(messages(buyerCreateSchema, bill({ grace }))['bill.grace']).toBe('Grace period must be 0, 3, 5 or 7 days');
  });
});

describe('buyer lead delivery and returns', () => {
  it('checks the email list, SMS list, webhook and broadcast webhooks', () => {
    const notify = (n: object) => messages(buyerUpdateSchema, { notify: n });
    expect(notify({ email: ['ok@example.com'], sms: ['+1 (555) 010-2000'], webhook: 'https://x.example/h' })).toEqual(
      {},
    );
    expect(notify({ email: ['ok@example.com', 'not-an-email'] })['notify.email']).toBe(
      'Please enter valid email addresses',
    );
    expect(notify({ sms: ['call me'] })['notify.sms']).toBe('Please enter valid phone numbers');
    expect(notify({ webhook: 'ftp://x.example' })['notify.webhook']).toBe('Webhook must be a valid URL');
    expect(notify({ broadcast_webhooks: ['nope'] })['notify.broadcast_webhooks']).toBe(
      'Broadcast webhooks must be valid URLs',
    );
  });

  it('needs no default delivery, and drops an empty webhook and empty entries', () => {
    expect(buyerUpdateSchema.parse({ notify: { email: [' a@example.com ', ''], webhook: '' } })).toEqual({
      notify: { email: ['a@example.com'], sms: [], broadcast_webhooks: [] },
    });
  });

  it('keeps Auto Approve Returns between 0 and 1 (the slider shows 0 to 100%)', () => {
    expect(buyerUpdateSchema.parse({ autoApproveReturns: 0.37 })).toEqual({ autoApproveReturns: 0.37 });
    expect(messages(buyerUpdateSchema, { autoApproveReturns: 1.5 }).autoApproveReturns).toBe(
      'Auto Approve Returns must be at most 100%',
    );
    expect(messages(buyerUpdateSchema, { autoApproveReturns: -0.01 }).autoApproveReturns).toBe(
      'Auto Approve Returns must be at least 0',
    );
  });
});

describe('pause all campaigns (admin spec §4)', () => {
  it('takes the reason the screen sends and requires one', () => {
    expect(buyerPauseSchema.parse({ reason: PAUSE_ALL_REASON })).toEqual({ reason: 'Admin paused all campaigns' });
    expect(messages(buyerPauseSchema, {}).reason).toBe('Reason is required');
    expect(messages(buyerPauseSchema, { reason: '  ' }).reason).toBe('Reason is required');
  });
});

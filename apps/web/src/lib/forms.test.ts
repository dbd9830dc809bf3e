import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from './api';
import { applyFieldErrors, changedFields, fieldError, inputProps, isEqual } from './forms';

describe('changedFields', () => {
  const original = {
    name: 'Acme',
    city: '',
    tags: ['a'],
    bill: { pay: 'invoice', grace: '3', prepay: 0 },
    notify: { email: ['x@example.com'], sms: [] as string[] },
  };

  it('is empty when nothing changed, counting "" and absent as the same', () => {
    expect(changedFields(original, { ...original, city: '' })).toEqual({});
    expect(changedFields({ ...original, city: undefined }, original)).toEqual({});
  });

  it('sends only the changed fields, nested objects as partials', () => {
    const current = { ...original, city: 'Austin', bill: { ...original.bill, grace: '7' } };
    expect(changedFields(original, current)).toEqual({ city: 'Austin', bill: { grace: '7' } });
  });

  it('sends a cleared field as "" so the API clears it', () => {
    expect(changedFields({ ...original, city: 'Austin' }, original)).toEqual({ city: '' });
  });

  it('sends arrays whole, and the objects named whole whole', () => {
    const current = { ...original, tags: ['a', 'b'], notify: { ...original.notify, sms: ['5125550100'] } };
    expect(changedFields(original, current, ['notify'])).toEqual({
      tags: ['a', 'b'],
      notify: { email: ['x@example.com'], sms: ['5125550100'] },
    });
  });

  it('treats a number input holding 5 and a record holding "5" as equal', () => {
    expect(isEqual(5, '5')).toBe(true);
    expect(isEqual(0, '')).toBe(false);
  });
});

describe('applyFieldErrors', () => {
  it('marks every field a 400 names, focusing the first', () => {
    const setError = vi.fn();
    const error = new ApiRequestError(400, 'Username is already taken.', {
      username: 'Username is already taken.',
      'bill.pay': 'Payment method is required',
    });
    expect(applyFieldErrors(error, setError)).toBe(true);
    expect(setError).toHaveBeenCalledWith(
      'username',
      { type: 'server', message: 'Username is already taken.' },
      { shouldFocus: true },
    );
    expect(setError).toHaveBeenCalledWith(
      'bill.pay',
      { type: 'server', message: 'Payment method is required' },
      { shouldFocus: false },
    );
  });

  it('leaves the form alone for other failures', () => {
    const setError = vi.fn();
    expect(applyFieldErrors(new ApiRequestError(409, 'Conflict', { name: 'x' }), setError)).toBe(false);
    expect(applyFieldErrors(new Error('boom'), setError)).toBe(false);
    expect(setError).not.toHaveBeenCalled();
  });
});

describe('inputProps', () => {
  type Values = { email: string; name: string; bill: { pay: string } };
  const register = vi.fn((name: string) => ({ name, onChange: vi.fn(), onBlur: vi.fn(), ref: vi.fn() }));
  const errors = { email: { message: 'Email is required' }, bill: { pay: { message: 'Pick one' } } };
  // Only register and formState.errors are read: a stand-in form, not a rendered one.
  const form = { register, formState: { errors } } as never;

  it('registers the field and shows its own error, a nested one too', () => {
    expect(inputProps<Values>(form, 'email')).toMatchObject({ name: 'email', error: 'Email is required' });
    expect(inputProps<Values>(form, 'bill.pay')).toMatchObject({ name: 'bill.pay', error: 'Pick one' });
    expect(inputProps<Values>(form, 'name').error).toBeUndefined();
  });
});

describe('fieldError', () => {
  it('gives the message a 400 names the field with, and nothing for another field or no failure', () => {
    const error = new ApiRequestError(400, 'Invalid input', { reason: 'Say why you read it' });
    expect(fieldError(error, 'reason')).toBe('Say why you read it');
    expect(fieldError(error, 'lead_days')).toBeUndefined();
    expect(fieldError(null, 'reason')).toBeUndefined();
    expect(fieldError(new Error('offline'), 'reason')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import {
  emailHash,
  normalizeEmail,
  normalizePhone,
  normalizeSha256Hex,
  normalizeZip,
  parseBoolean,
  phoneHash,
  sha256Hex,
} from './normalize';

// Computed outside the code under test: printf '2125550100' | sha256sum
const PHONE_2125550100 = 'c9da529d00387a0a82748dfcb1a3e2fb46e3cf54440b6e3b12b0d77129c72693';
// printf 'jane.doe@example.com' | sha256sum
const EMAIL_JANE = '86e0b9e56c17cc4d12387e1949b85053fbe73bc3ce5a1188713a9d300cc6133d';

/** A test of each raw value and what `normalize` makes of it. */
const itNormalizes = (normalize: (raw: string) => string | null, cases: [string, string][]) =>
  it.each(cases)('%s → %s', (raw, expected) => {
    expect(normalize(raw)).toBe(expected);
  });

/** A test of each named case that `normalize` refuses (answers null); `name` formats the case's name and value. */
const itRefuses = (normalize: (raw: string) => string | null, cases: [string, string][], name = 'refuses %s') =>
  it.each(cases)(name, (_, raw) => {
    expect(normalize(raw)).toBeNull();
  });

describe('normalizePhone', () => {
  itNormalizes(normalizePhone, [
    ['2125550100', '2125550100'],
    ['(212) 555-0100', '2125550100'],
    ['212.555.0100', '2125550100'],
    [' 212 555 0100 ', '2125550100'],
    ['+1 (212) 555-0100', '2125550100'],
    ['1-212-555-0100', '2125550100'],
    ['12125550100', '2125550100'],
    ['(214) 555-0142', '2145550142'],
  ]);

  itRefuses(
    normalizePhone,
    [
      ['too short', '555-0100'],
      ['nine digits', '212555010'],
      ['eleven digits not starting with 1', '22125550100'],
      ['twelve digits', '112125550100'],
      ['an extension', '212-555-0100 x12'],
      ['a foreign number', '+44 20 7946 0958'],
      ['area code starting with 0', '0125550100'],
      ['area code starting with 1', '1125550100'],
      ['exchange starting with 0', '2120550100'],
      ['exchange starting with 1', '2121550100'],
      ['country code then a bad area code', '1 (112) 555-0100'],
      ['no digits', 'call me'],
      ['empty', ''],
    ],
    'refuses %s (%s)',
  );
});

describe('normalizeEmail', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Jane.Doe@Example.COM ')).toBe('jane.doe@example.com');
  });

  it('keeps plus tags and dots (provider-specific, not ours to strip)', () => {
    expect(normalizeEmail('jane.doe+solar@gmail.com')).toBe('jane.doe+solar@gmail.com');
  });

  itRefuses(normalizeEmail, [
    ['no @', 'jane.example.com'],
    ['no domain', 'jane@'],
    ['no local part', '@example.com'],
    ['no dot in the domain', 'jane@localhost'],
    ['a space inside', 'jane doe@example.com'],
    ['two @', 'jane@doe@example.com'],
    ['empty', ''],
    ['blank', '   '],
    ['too long', `${'a'.repeat(250)}@example.com`],
  ]);
});

describe('normalizeZip', () => {
  itNormalizes(normalizeZip, [
    ['10001', '10001'],
    [' 02134 ', '02134'],
    ['12345-6789', '12345'],
    ['99999', '99999'],
  ]);

  it.each(['1234', '123456', '2134', 'ABCDE', '12345-678', '12345 6789', '123456789', '12-345', ''])(
    'refuses %j',
    (raw) => {
      expect(normalizeZip(raw)).toBeNull();
    },
  );
});

describe('parseBoolean', () => {
  it.each([true, 'true', 'TRUE', 'True', 'yes', 'YES', '1', 1, 'on', 'On', ' yes '])('%j → true', (raw) => {
    expect(parseBoolean(raw)).toBe(true);
  });

  it.each([false, 'false', 'FALSE', 'no', 'No', '0', 0, 'off', 'OFF'])('%j → false', (raw) => {
    expect(parseBoolean(raw)).toBe(false);
  });

  it.each([undefined, null, '', '   '])('%j → undefined (not sent)', (raw) => {
    expect(parseBoolean(raw)).toBeUndefined();
  });

  it.each(['maybe', 'y', 'n', 't', '2', 2, -1, 0.5, Number.NaN, {}, [], ['true']])('%j → null (malformed)', (raw) => {
    expect(parseBoolean(raw)).toBeNull();
  });
});

describe('duplicate hashes', () => {
  it('hash the normalised phone, so every spelling of one number matches', () => {
    expect(phoneHash('2125550100')).toBe(PHONE_2125550100);
    expect(phoneHash('+1 (212) 555-0100')).toBe(PHONE_2125550100);
    expect(phoneHash('212.555.0100')).toBe(PHONE_2125550100);
    expect(phoneHash('2125550101')).not.toBe(PHONE_2125550100);
  });

  it('hash the normalised email', () => {
    expect(emailHash('jane.doe@example.com')).toBe(EMAIL_JANE);
    expect(emailHash(' Jane.Doe@EXAMPLE.com')).toBe(EMAIL_JANE);
  });

  it('are null for invalid input rather than a hash of garbage', () => {
    expect(phoneHash('123')).toBeNull();
    expect(emailHash('not an email')).toBeNull();
  });

  it('sha256Hex is lower-case hex SHA-256', () => {
    expect(sha256Hex('2125550100')).toBe(PHONE_2125550100);
  });
});

describe('normalizeSha256Hex', () => {
  it('accepts 64 hex digits in any case, trimmed, and lower-cases them', () => {
    expect(normalizeSha256Hex(` ${PHONE_2125550100.toUpperCase()} `)).toBe(PHONE_2125550100);
  });

  itRefuses(normalizeSha256Hex, [
    ['too short', PHONE_2125550100.slice(1)],
    ['too long', `${PHONE_2125550100}0`],
    ['not hex', `${PHONE_2125550100.slice(1)}g`],
    ['the plain phone', '2125550100'],
    ['empty', ''],
  ]);
});

describe('email length limit (mutation testing)', () => {
  it('accepts an address of exactly 254 characters (RFC 5321) and refuses a longer one', () => {
    const local = 'a'.repeat(64);
    const domain = `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    const longest = `${local}@${domain}`;
    expect(longest).toHaveLength(254);
    expect(normalizeEmail(longest)).toBe(longest);
    expect(normalizeEmail(` ${longest.toUpperCase()} `)).toBe(longest);
    expect(normalizeEmail(`${local}@b${domain.slice(2)}.x`)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import {
  emailHash,
  fillerPhoneProblem,
  normalizeEmail,
  normalizePhone,
  normalizeSha256Hex,
  normalizeState,
  normalizeZip,
  parseBoolean,
  phoneHash,
  readPhone,
  sha256Hex,
  stateOfLead,
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
    // ZIP+4 as sources also write it (issue 32 item 4): with a space, run together, spaced dash.
    ['12345 6789', '12345'],
    ['123456789', '12345'],
    ['12345 - 6789', '12345'],
    ['12345-', '12345'],
    ['99999', '99999'],
  ]);

  it.each(['1234', '123456', '2134', 'ABCDE', '12345-678', '1234567890', '12-345', ''])('refuses %j', (raw) => {
    expect(normalizeZip(raw)).toBeNull();
  });
});

describe('parseBoolean', () => {
  it.each([
    true,
    'true',
    'TRUE',
    'True',
    'yes',
    'YES',
    '1',
    1,
    'on',
    'On',
    ' yes ',
    'y',
    'Y',
    't',
    'T',
    'Yes.',
    '"yes"',
  ])('%j → true', (raw) => {
    expect(parseBoolean(raw)).toBe(true);
  });

  it.each([false, 'false', 'FALSE', 'no', 'No', '0', 0, 'off', 'OFF', 'n', 'N', 'f', 'F', 'No!'])(
    '%j → false',
    (raw) => {
      expect(parseBoolean(raw)).toBe(false);
    },
  );

  it.each([undefined, null, '', '   '])('%j → undefined (not sent)', (raw) => {
    expect(parseBoolean(raw)).toBeUndefined();
  });

  it.each(['maybe', 'yes please', '-1', '2', 2, -1, 0.5, Number.NaN, {}, [], ['true']])(
    '%j → null (malformed)',
    (raw) => {
      expect(parseBoolean(raw)).toBeNull();
    },
  );
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

describe('readPhone (issue 32 item 4)', () => {
  it.each([
    ['5127891111x44', { phone: '5127891111', extension: '44' }],
    ['(512) 789-1111 ext. 44', { phone: '5127891111', extension: '44' }],
    ['512-789-1111 extension 7', { phone: '5127891111', extension: '7' }],
    ['+1 512 789 1111 #123', { phone: '5127891111', extension: '123' }],
    ['512.789.1111 (h)', { phone: '5127891111' }],
    ['5127891111 x', { phone: '5127891111' }],
    ['5127891111', { phone: '5127891111' }],
  ])('%s → %j', (raw, expected) => {
    expect(readPhone(raw)).toEqual(expected);
  });

  it.each([
    ['letters', '512-789-CALL'],
    ['nine digits', '512789111'],
    ['a bad area code', '0127891111'],
  ])('reads %s as a problem', (_, raw) => {
    expect(readPhone(raw)).toEqual({ problem: expect.any(String) });
  });

  it('keeps the 10 digits for the duplicate hash, the extension dropped', () => {
    expect(normalizePhone('2125550100 x12')).toBe('2125550100');
  });
});

describe('fillerPhoneProblem', () => {
  it.each(['5125550100', '5125550199', '2125550142', '5555555555', '2222222222'])('%s is filler', (phone) => {
    expect(fillerPhoneProblem(phone)).toEqual(expect.any(String));
  });

  // Both sides of each boundary: 555-0099 and 555-0200 are outside the fictional block.
  it.each(['5125550099', '5125550200', '5125551212', '5125552100', '5555555556', '5127891111'])(
    '%s may be real',
    (phone) => {
      expect(fillerPhoneProblem(phone)).toBeNull();
    },
  );
});

describe('normalizeEmail, as people write it', () => {
  it.each([
    ['Jane Doe <Jane.Doe@Example.com>', 'jane.doe@example.com'],
    ['"Doe, Jane" < jane@example.com >', 'jane@example.com'],
    ['<jane@example.com>', 'jane@example.com'],
    ['mailto:jane@example.com', 'jane@example.com'],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeEmail(raw)).toBe(expected);
  });

  it.each(['Jane <not an address>', 'jane@example.com>', 'Jane <jane@example.com'])('refuses %j', (raw) => {
    expect(normalizeEmail(raw)).toBeNull();
  });
});

describe('normalizeState', () => {
  it.each([
    ['TX', 'TX'],
    ['tx', 'TX'],
    [' T.X. ', 'TX'],
    ['Texas', 'TX'],
    ['new york', 'NY'],
    ['New  York', 'NY'],
    ['District of Columbia', 'DC'],
    ['dc', 'DC'],
    ['PR', 'PR'],
    ['Puerto Rico', 'PR'],
    ['U.S. Virgin Islands', 'VI'],
  ])('%j → %s', (raw, expected) => {
    expect(normalizeState(raw)).toBe(expected);
  });

  it.each(['ZZ', 'Ontario', 'ON', 'Tex', 'T', 'Texass', ''])('refuses %j', (raw) => {
    expect(normalizeState(raw)).toBeNull();
  });
});

describe('stateOfLead', () => {
  it('takes the ZIP’s state when none was sent', () => {
    expect(stateOfLead(undefined, '78701', 'TX')).toEqual({ state: 'TX' });
  });

  it('takes the sent state when it agrees with the ZIP, or the ZIP is not in the table', () => {
    expect(stateOfLead({ code: 'TX', raw: 'Texas' }, '78701', 'TX')).toEqual({ state: 'TX' });
    expect(stateOfLead({ code: 'TX', raw: 'TX' }, '00000', null)).toEqual({ state: 'TX' });
  });

  it('routes by the ZIP’s state when the two disagree, keeping what was sent in a flag', () => {
    expect(stateOfLead({ code: 'NY', raw: 'NY' }, '78701', 'TX')).toEqual({
      state: 'TX',
      flag: {
        field: 'state',
        value: 'NY',
        problem: 'NY does not match ZIP 78701, which is in TX: the lead is routed and delivered as TX.',
      },
    });
  });

  it('has no state when neither the ZIP nor what was sent gives one', () => {
    expect(stateOfLead({ code: null, raw: 'ZZ' }, '00000', null)).toEqual({ state: null });
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DROP_HASH, dropDob, dropEmail, dropHashOfCell, dropName, dropNameDobZip, dropPhone } from './drop';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The worked examples of docs/compliance.md ("California's deletion lists"): each raw value, its
 * normalised form and its SHA-256 (checked with `printf %s … | sha256sum` as well).
 */
describe('DROP normalisation and hashing (issue 35 item 3)', () => {
  it('email: trimmed and lower-cased', () => {
    expect(dropEmail('  Jane.Doe@Example.COM ')).toBe('jane.doe@example.com');
    expect(sha256(dropEmail('  Jane.Doe@Example.COM ') ?? '')).toBe(
      '86e0b9e56c17cc4d12387e1949b85053fbe73bc3ce5a1188713a9d300cc6133d',
    );
    expect(dropEmail('no-at-sign')).toBeNull();
    expect(dropEmail('@example.com')).toBeNull();
    expect(dropEmail('')).toBeNull();
  });

  it('reads a file’s hash in DROP’s Base64 (its published phone example) or in hex, and nothing else', () => {
    // The CPPA's example: +1(415)555-9317 -> 4155559317 -> vGM7y5n+hBXRSEAklhHDPCbysyNgYTmXdMcagGUOY8E=
    expect(dropPhone('+1(415)555-9317')).toBe('4155559317');
    const hex = sha256('4155559317');
    expect(dropHashOfCell('vGM7y5n+hBXRSEAklhHDPCbysyNgYTmXdMcagGUOY8E=')).toBe(hex);
    expect(dropHashOfCell(` ${hex.toUpperCase()} `)).toBe(hex);
    // One character short or long, or no padding: not a hash.
    expect(dropHashOfCell('vGM7y5n+hBXRSEAklhHDPCbysyNgYTmXdMcagGUOY8=')).toBeNull();
    expect(dropHashOfCell('vGM7y5n+hBXRSEAklhHDPCbysyNgYTmXdMcagGUOY8EE=')).toBeNull();
    expect(dropHashOfCell('vGM7y5n+hBXRSEAklhHDPCbysyNgYTmXdMcagGUOY8EE')).toBeNull();
    expect(dropHashOfCell(hex.slice(1))).toBeNull();
    expect(dropHashOfCell('ID')).toBeNull();
  });

  it('phone: the 10 digits, a leading 1 dropped', () => {
    for (const raw of ['+1 (512) 555-0123', '512.555.0123', '15125550123', '5125550123'])
      expect(dropPhone(raw), raw).toBe('5125550123');
    expect(sha256('5125550123')).toBe('442633539fd5787d4c343b7dd9563c1cffacb64b98f5fda541f5d6dae4c449ef');
    // Both sides of the length: 9 and 12 digits, and 11 not starting with 1.
    for (const raw of ['512555012', '151255501234', '25125550123', '']) expect(dropPhone(raw), raw).toBeNull();
  });

  it('name + date of birth + ZIP: letters only, YYYYMMDD, 5 digits, run together', () => {
    const key = dropNameDobZip({ firstName: 'María', lastName: 'García', dob: '1985-02-03', zip: '94110-1234' });
    expect(key).toBe('mariagarcia1985020394110');
    expect(sha256(key ?? '')).toBe('09bee283c5c55e5fa2223425225eee010c6e32b6303bf086182fe3537ce934ef');
    // The full name's first and last words when first and last are not sent; a US date.
    expect(dropNameDobZip({ name: ' José  de la Núñez ', dob: '11/11/1979', zip: '75201' })).toBe(
      'josenunez1979111175201',
    );
    expect(dropName("O'Brien-Smith Jr.")).toBe('obriensmithjr');
    expect(dropDob('2/3/1985')).toBe('19850203');
    expect(dropDob('1985-2-3')).toBeNull();
    // Any part missing: no hash.
    expect(dropNameDobZip({ name: 'Cher', dob: '1946-05-20', zip: '90210' })).toBeNull();
    expect(dropNameDobZip({ firstName: 'Ann', lastName: 'Lee', zip: '90210' })).toBeNull();
    expect(dropNameDobZip({ firstName: 'Ann', lastName: 'Lee', dob: '1990-01-01', zip: '9021' })).toBeNull();
  });

  it('a list hash is 64 hexadecimal digits', () => {
    expect(DROP_HASH.test(sha256('x'))).toBe(true);
    expect(DROP_HASH.test(sha256('x').slice(1))).toBe(false);
    expect(DROP_HASH.test(`${sha256('x')}0`)).toBe(false);
  });
});

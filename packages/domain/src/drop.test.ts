import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DROP_HASH,
  dropDob,
  dropEmail,
  dropHashOfCell,
  dropName,
  dropNameDobZip,
  dropNdzPreimage,
  dropPhone,
  dropZip,
} from './drop';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const sha256Base64 = (text: string) => createHash('sha256').update(text, 'utf8').digest('base64');
/** The NDZ hash (Base64) of a lead's parts, as DROP's files carry it; null without all four parts. */
const ndz = (p: Parameters<typeof dropNameDobZip>[0]) => {
  const parts = dropNameDobZip(p);
  return parts && sha256Base64(dropNdzPreimage(parts, sha256Base64));
};

/**
 * The CPPA's published examples (DROP technical documentation 1.2.0, "Working with the data", hashing:
 * each raw value, its standardised form and its SHA-256 in Base64), and a near miss beside each.
 */
describe('DROP standardisation and hashing, the CPPA’s examples (issue 35 item 3)', () => {
  const published: [(raw: string) => string | null, string, string, string][] = [
    [dropName, 'Juan Pablo', 'juanpablo', '91hIbrbzNeqHs3o81O5yNrXUj7wDd2shvZ6THKi9qz8='],
    [dropName, 'Martinez', 'martinez', '2wRPGbwBNxhShjRczx8GfS2c4cjvs4NJskeWloUNtp8='],
    [dropDob, 'July 4, 1776', '17760704', 'skXYXxBER6HQTZ3rXSZH1wVGLQ054mS5rbR/bwvzy4I='],
    [dropZip, '91790-3771', '91790', '2FPZucR4x7U8KlM+SFAX4LPGhwNz/PIZUCSUdDh0o/s='],
    [dropZip, 'M1B 1A1', 'm1b1a', 'n8L9q8mVeT6Xt9/EeUNiTukGDrkbPJ3DvOEx14uElxk='],
    [dropZip, '00712345', '71234', 'aeNUYKh7Xw5sqpxSbSP9eOHsj6iXewbUyavv89DIuhQ='],
    [dropEmail, 'Anna.Smith@Domain.com', 'anna.smith@domain.com', 'KA18MT/ph6IHYjzT9zwETySDQyvSh87YuoSBpOQtkhE='],
    [dropPhone, '+1(415)555-9317', '4155559317', 'vGM7y5n+hBXRSEAklhHDPCbysyNgYTmXdMcagGUOY8E='],
  ];
  for (const [standardise, raw, standard, hash] of published)
    it(`${standardise.name}(${raw}) -> ${standard} -> ${hash}`, () => {
      expect(standardise(raw)).toBe(standard);
      expect(sha256Base64(standard)).toBe(hash);
      expect(dropHashOfCell(hash)).toBe(sha256(standard));
    });

  it('NDZ: each part hashed, the four Base64 hashes joined and hashed again (Danielle Johnson)', () => {
    const parts = dropNameDobZip({ firstName: 'Danielle', lastName: 'Johnson', dob: 'July 4, 1985', zip: '91790' });
    expect(parts).toEqual(['danielle', 'johnson', '19850704', '91790']);
    expect(parts?.map(sha256Base64)).toEqual([
      '5dUD1FgiKcTJq+JQ5JZUdlyIXrSbtJ338YYbt5/HNG4=',
      'K+TjOqPiH2/3rRRPj9WCKKHM47UDQLSAX/DGNIDuxIg=',
      'IWi7qxOAbBJe0fNciDj76Eg84gmj40rB7aNMK/VnFOI=',
      '2FPZucR4x7U8KlM+SFAX4LPGhwNz/PIZUCSUdDh0o/s=',
    ]);
    const published = 'PQOfn1RffEKmqMmNAzDKKaoZCwxWbQZkQzPWmQo9REA=';
    expect(ndz({ firstName: 'Danielle', lastName: 'Johnson', dob: 'July 4, 1985', zip: '91790' })).toBe(published);
    // The same person as a lead may send it: another date format, a ZIP+4, a full name only.
    expect(ndz({ firstName: ' DANIELLE ', lastName: 'Johnson', dob: '1985-07-04', zip: '91790-3771' })).toBe(published);
    expect(ndz({ name: 'Danielle Johnson', dob: '7/4/1985', zip: '91790' })).toBe(published);
    // Near misses: a day off, another ZIP, a letter off, the names swapped, the parts run together unhashed.
    for (const near of [
      { firstName: 'Danielle', lastName: 'Johnson', dob: '1985-07-05', zip: '91790' },
      { firstName: 'Danielle', lastName: 'Johnson', dob: '1985-07-04', zip: '91791' },
      { firstName: 'Daniele', lastName: 'Johnson', dob: '1985-07-04', zip: '91790' },
      { firstName: 'Johnson', lastName: 'Danielle', dob: '1985-07-04', zip: '91790' },
    ])
      expect(ndz(near), JSON.stringify(near)).not.toBe(published);
    expect(sha256Base64('danielle' + 'johnson' + '19850704' + '91790')).not.toBe(published);
  });

  it('phone: digits only, the last 10 (or all when fewer)', () => {
    expect(dropPhone('+84(90)123 4567')).toBe('4901234567'); // the near-miss country code: its last 10
    for (const raw of ['+1 (512) 555-0123', '512.555.0123', '15125550123', '5125550123'])
      expect(dropPhone(raw), raw).toBe('5125550123');
    expect(dropPhone('555-0123')).toBe('5550123');
    expect(dropPhone('no digits')).toBeNull();
  });

  it('email: every whitespace removed, lower-cased, nothing else touched', () => {
    expect(dropEmail(' A.Lice+Tag @Co.COM\t')).toBe('a.lice+tag@co.com');
    expect(dropEmail('no-at-sign')).toBeNull();
    expect(dropEmail('@example.com')).toBeNull();
    expect(dropEmail('')).toBeNull();
  });

  it('name: Unicode normalised, Greek and Cyrillic transliterated, Latin folded, letters and digits kept', () => {
    const cases: [string, string][] = [
      ['Иван', 'ivan'], // the CPPA processor's published example
      ['José', 'jose'],
      ['María José', 'mariajose'],
      ["O'Brien-Smith Jr.", 'obriensmithjr'],
      ['Straße', 'strasse'],
      ['Łukasz Ø', 'lukaszo'],
      ['Щербакова', 'shcherbakova'],
      ['Ёлкина', 'yolkina'],
      ['Θεοδώρου', 'theodoroy'],
      ['田中', '田中'], // not transliterated: kept
      ['Louis XIV 2nd', 'louisxiv2nd'], // digits kept
      ['ＪＯＨＮ', 'john'], // full-width: NFKC
      ['Jose\u0301', 'jose'], // a decomposed accent
    ];
    for (const [raw, standard] of cases) expect(dropName(raw), raw).toBe(standard);
  });

  it('date of birth: YYYYMMDD from the formats a lead sends; no such day, no date', () => {
    const cases: [string, string | null][] = [
      ['1985-02-03', '19850203'],
      ['1985-02-03T00:00:00Z', '19850203'],
      ['19850203', '19850203'],
      ['2/3/1985', '19850203'],
      ['Feb 3 1985', '19850203'],
      ['Sept. 9, 1990', '19900909'],
      ['2000-02-29', '20000229'],
      ['1900-02-29', null],
      ['1985-02-30', null],
      ['1985-13-01', null],
      ['1985-2-3', null],
      ['Junk 4, 1990', null],
      ['', null],
    ];
    for (const [raw, standard] of cases) expect(dropDob(raw), raw).toBe(standard);
  });

  it('ZIP: the +4 dropped, alphanumerics, leading zeros removed, five characters', () => {
    const cases: [string, string | null][] = [
      ['02134', '2134'],
      ['00501-1234', '501'],
      [' 94110 ', '94110'],
      ['000000123456', '12345'],
      ['0000', null],
      ['', null],
    ];
    for (const [raw, standard] of cases) expect(dropZip(raw), raw).toBe(standard);
  });

  it('NDZ needs all four parts', () => {
    expect(dropNameDobZip({ name: 'Cher', dob: '1946-05-20', zip: '90210' })).toBeNull();
    expect(dropNameDobZip({ firstName: 'Ann', lastName: 'Lee', zip: '90210' })).toBeNull();
    expect(dropNameDobZip({ firstName: 'Ann', lastName: 'Lee', dob: '1990-01-01', zip: '000' })).toBeNull();
    expect(dropNameDobZip({ name: ' José  de la Núñez ', dob: '11/11/1979', zip: '75201' })).toEqual([
      'jose',
      'nunez',
      '19791111',
      '75201',
    ]);
  });

  it('reads a file’s hash in DROP’s Base64 or in hex, and nothing else', () => {
    const hex = sha256('4155559317');
    expect(dropHashOfCell(` ${hex.toUpperCase()} `)).toBe(hex);
    // One character short or long, or no padding: not a hash.
    expect(dropHashOfCell('vGM7y5n+hBXRSEAklhHDPCbysyNgYTmXdMcagGUOY8=')).toBeNull();
    expect(dropHashOfCell('vGM7y5n+hBXRSEAklhHDPCbysyNgYTmXdMcagGUOY8EE=')).toBeNull();
    expect(dropHashOfCell('vGM7y5n+hBXRSEAklhHDPCbysyNgYTmXdMcagGUOY8EE')).toBeNull();
    expect(dropHashOfCell(hex.slice(1))).toBeNull();
    expect(dropHashOfCell('ID')).toBeNull();
    expect(dropHashOfCell('A7kP2xQ9Lm4R')).toBeNull(); // a DROP work item's ID
  });

  it('a list hash is 64 hexadecimal digits', () => {
    expect(DROP_HASH.test(sha256('x'))).toBe(true);
    expect(DROP_HASH.test(sha256('x').slice(1))).toBe(false);
    expect(DROP_HASH.test(`${sha256('x')}0`)).toBe(false);
  });
});

import { createCipheriv, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { trustedFormIdKind } from '@leadex/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { trustedFormCreatedAt } from './trustedform';

/**
 * Agreement with ActiveProspect's own decoder, `@activeprospect/trustedform-cert-id` (a dev
 * dependency): the same kinds, the same creation times, on a corpus of its own examples, ids sealed
 * here with its test key, and ids one character off. The module reads its key from the environment
 * once, when it is loaded: a copy of its own is loaded here, after the key is set.
 */
// The key of the module's own tests (its first 32 characters are the key).
const SECRET = 'qy3Sjay3D/bXAAx7jMUvSoum54R5JEPs000';
type Decoded = { type: string | null; createdAt: Date | null; isPing?: boolean } | null;
let decrypt: (id: string) => Decoded;
beforeAll(() => {
  const saved = { web: process.env.CERT_IDS_SECRET_KEY, zero: process.env.TF_CONFIG_CERT_ID_SECRET };
  process.env.CERT_IDS_SECRET_KEY = SECRET;
  process.env.TF_CONFIG_CERT_ID_SECRET = SECRET;
  // A fresh copy with the key: leadconduit-types requires the module too, and where a worker ran its
  // tests first (isolate: false), the cached copy read no key. Others keep the copy they loaded.
  const require = createRequire(import.meta.url);
  const folder = dirname(require.resolve('@activeprospect/trustedform-cert-id'));
  const inFolder = () => Object.keys(require.cache).filter((file) => file.startsWith(folder));
  const cached = inFolder().map((file) => [file, require.cache[file]] as const);
  for (const [file] of cached) delete require.cache[file];
  ({ decrypt } = require('@activeprospect/trustedform-cert-id'));
  for (const file of inFolder()) delete require.cache[file];
  for (const [file, module] of cached) require.cache[file] = module;
  for (const [name, value] of [
    ['CERT_IDS_SECRET_KEY', saved.web],
    ['TF_CONFIG_CERT_ID_SECRET', saved.zero],
  ] as const)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});

/** A web id as TrustedForm seals one: 7 bytes of iv, 8 of GCM tag, then the type byte and the epoch seconds. */
function sealWebId(type: string, createdAt: Date, secret = SECRET): string {
  const iv = randomBytes(7);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(secret.slice(0, 32)), iv, { authTagLength: 8 });
  const plain = Buffer.alloc(5);
  plain.write(type, 0, 'latin1');
  plain.writeUInt32BE(Math.floor(createdAt.getTime() / 1000), 1);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('hex');
}

/** The same bytes as a mobile id: base64 (URL-safe), with more bytes after the 20 the decoders read. */
const asMobileId = (webId: string) => Buffer.concat([Buffer.from(webId, 'hex'), randomBytes(40)]).toString('base64url');

/** Changes the character at `at` to another of the same alphabet: the id keeps its shape, not its seal. */
const oneCharOff = (id: string, at: number) =>
  `${id.slice(0, at)}${id[at] === 'a' ? 'b' : id[at] === 'A' ? 'B' : 'a'}${id.slice(at + 1)}`;

describe('certificate ids: agreement with @activeprospect/trustedform-cert-id', () => {
  const times = [new Date('2022-03-08T20:20:16Z'), new Date('2026-11-27T12:00:00Z'), new Date('2019-01-01T00:00:00Z')];
  const corpus = () => {
    const sealed = times.flatMap((at) => [sealWebId('w', at), sealWebId('m', at), sealWebId('x', at)]);
    return {
      // The module's own examples (its tests), then ids sealed here.
      web: ['eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947', 'ff5e209f324c43e2cf57ce1a080e778fecbf8285', ...sealed],
      mobile: sealed.map(asMobileId),
      zero: [
        '0.1JT7QUPI1sOFZxpr72ZK45K0ck75kEBO9H3jNJuX8NkqMTv4UF-zrapBUlsefTP3lkXWh6qM.fF0DNrov0zNUNVRCqDV5dw.E2eYOJ5-dnAgiX02-96FNQ',
        '0.rpM21ddljS9BNNUOm6FZVVqb5C5JMk1cofI4nDGdwy5ezucyxjok9qLyUXMu9diW62Xac8xNMpomBf1B-XDpfbYvaFMr0YC-54TzHcLrni4.OHOMoMFXaX9YW9DoX_xeng.1vnf6DTWU7sJo6XAxlRP_w',
      ],
    };
  };

  it('every id the module decodes has the shape the exchange takes, of the kind the module read it as', () => {
    const ids = corpus();
    for (const [kind, list] of Object.entries(ids))
      for (const id of list) {
        expect(decrypt(id), id).not.toBeNull();
        expect(trustedFormIdKind(id), id).toBe(kind);
      }
  });

  it('reads the same creation time as the module from web and mobile ids', () => {
    const ids = corpus();
    for (const id of [...ids.web, ...ids.mobile]) {
      const theirs = decrypt(id);
      expect(trustedFormCreatedAt(id, SECRET)?.toISOString(), id).toBe(theirs?.createdAt?.toISOString());
    }
    expect(trustedFormCreatedAt('eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947', SECRET)).toEqual(new Date(1646770816000));
    // Facebook and ping ids seal their time otherwise: no time is read from them, none is made up.
    for (const id of ids.zero) expect(trustedFormCreatedAt(id, SECRET)).toBeNull();
  });

  it('every id of the wrong shape is refused: where the module has no answer, and where it would read made-up bytes', () => {
    const web = sealWebId('w', times[1] as Date);
    // Too short for any kind: the module answers null as well.
    for (const id of [web.slice(1), web.slice(0, 30), 'N/A', '']) {
      expect(trustedFormIdKind(id), id).toBeNull();
      expect(decrypt(id), id).toBeNull();
    }
    // The module takes any 40 characters as hex and more than 40 as base64, and reads the sealed bytes
    // without a tag check: from these it may read a made-up type and time. The shape refuses them first.
    for (const id of [`${web.slice(0, 39)}g`, `${web}a`, `${web.slice(0, 20)}-${web.slice(21)}`]) {
      expect(trustedFormIdKind(id), id).toBeNull();
      expect(trustedFormCreatedAt(id, SECRET), id).toBeNull();
    }
  });

  it('an id one character off keeps its shape; its time is the module’s, or none when that is before TrustedForm', () => {
    const web = sealWebId('w', times[1] as Date);
    const began = new Date('2011-01-01T00:00:00Z');
    for (let at = 0; at < 40; at++) {
      const altered = oneCharOff(web, at);
      expect(trustedFormIdKind(altered)).toBe('web');
      const theirs = decrypt(altered)?.createdAt ?? null;
      const expected = theirs && theirs >= began ? theirs.toISOString() : undefined;
      expect(trustedFormCreatedAt(altered, SECRET)?.toISOString(), altered).toBe(expected);
    }
  });
});

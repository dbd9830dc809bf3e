import { describe, expect, it } from 'vitest';
import {
  isTrustedFormExpired,
  jornayaToken,
  readTrustedFormUrl,
  SAMPLE_JORNAYA_TOKEN,
  SAMPLE_TRUSTEDFORM_CERT_URL,
  SAMPLE_TRUSTEDFORM_PING_URL,
  trustedFormCertificateUrl,
  trustedFormIdKind,
  trustedFormPingUrl,
} from './evidence';

const WEB_ID = 'eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947';
const MOBILE_ID = '11NgkzK_mroUbOD1-x66NigDliU1kdvbaCtLGvyja1K80vU1sKh9grlwP78vzKSp4ncwAfJAlNPNVY8f';
const ZERO_ID =
  '0.1JT7QUPI1sOFZxpr72ZK45K0ck75kEBO9H3jNJuX8NkqMTv4UF-zrapBUlsefTP3lkXWh6qM.fF0DNrov0zNUNVRCqDV5dw.E2eYOJ5-dnAgiX02-96FNQ';

describe('TrustedForm certificate ids (as @activeprospect/trustedform-cert-id tells them apart)', () => {
  it('reads the module’s own examples of each kind', () => {
    expect(trustedFormIdKind(WEB_ID)).toBe('web');
    expect(trustedFormIdKind(WEB_ID.toUpperCase())).toBe('web');
    expect(trustedFormIdKind(MOBILE_ID)).toBe('mobile');
    expect(trustedFormIdKind(ZERO_ID)).toBe('zero');
  });

  it('refuses an id one character off: 39 or 41 hex characters, a non-hex character, a zero id missing a part', () => {
    expect(trustedFormIdKind(WEB_ID.slice(1))).toBeNull();
    expect(trustedFormIdKind(`${WEB_ID}a`)).toBeNull();
    expect(trustedFormIdKind(`${WEB_ID.slice(1)}g`)).toBeNull();
    expect(trustedFormIdKind(ZERO_ID.slice(0, ZERO_ID.lastIndexOf('.')))).toBeNull();
    expect(trustedFormIdKind(`${ZERO_ID}.x`)).toBeNull();
    expect(trustedFormIdKind(`${ZERO_ID.slice(0, 10)}!${ZERO_ID.slice(11)}`)).toBeNull();
    expect(trustedFormIdKind(`${MOBILE_ID.slice(0, 10)}!${MOBILE_ID.slice(11)}`)).toBeNull();
    expect(trustedFormIdKind('')).toBeNull();
    expect(trustedFormIdKind('N/A')).toBeNull();
  });
});

describe('readTrustedFormUrl', () => {
  it('takes https on cert.trustedform.com with an id, in one spelling', () => {
    expect(readTrustedFormUrl(`https://cert.trustedform.com/${WEB_ID}`)).toEqual({
      kind: 'certificate',
      url: `https://cert.trustedform.com/${WEB_ID}`,
      id: WEB_ID,
      idKind: 'web',
    });
    expect(trustedFormCertificateUrl(`  HTTPS://CERT.TrustedForm.com:443/${WEB_ID}  `)).toBe(
      `https://cert.trustedform.com/${WEB_ID}`,
    );
    expect(trustedFormCertificateUrl(`https://cert.trustedform.com/${MOBILE_ID}`)).not.toBeNull();
    expect(trustedFormCertificateUrl(SAMPLE_TRUSTEDFORM_CERT_URL)).toBe(SAMPLE_TRUSTEDFORM_CERT_URL);
  });

  it('refuses http, look-alike hosts, a user part, a port, a query and anything that is no URL', () => {
    const refused = [
      `http://cert.trustedform.com/${WEB_ID}`,
      `https://cert.trustedform.com.evil.io/${WEB_ID}`,
      `https://evil-cert.trustedform.com/${WEB_ID}`,
      `https://trustedform.com/${WEB_ID}`,
      `https://cert.trustedform.co/${WEB_ID}`,
      `https://cert.trustedform.com@evil.io/${WEB_ID}`,
      `https://trustedform.com@evil.io/${WEB_ID}`,
      `https://evil.io/cert.trustedform.com/${WEB_ID}`,
      `https://evil.io/?u=https://cert.trustedform.com/${WEB_ID}`,
      `https://cert.trustedform.com:8443/${WEB_ID}`,
      `https://cert.trustedform.com/${WEB_ID}?next=https://evil.io`,
      `https://cert.trustedform.com/${WEB_ID}#x`,
      `https://cert.trustedform.com/${WEB_ID}/extra`,
      `https://cert.trustedform.com/${WEB_ID.slice(1)}`,
      `https://cert.trustedform.com/`,
      `javascript:alert(1)//cert.trustedform.com/${WEB_ID}`,
      `//cert.trustedform.com/${WEB_ID}`,
      `cert.trustedform.com/${WEB_ID}`,
      'N/A',
      'yes',
      '',
    ];
    for (const raw of refused) {
      expect(readTrustedFormUrl(raw).kind, raw).toBe('invalid');
      expect(trustedFormCertificateUrl(raw), raw).toBeNull();
    }
  });

  it('says why, in words naming the host or the scheme', () => {
    expect(readTrustedFormUrl(`https://cert.trustedform.com.evil.io/${WEB_ID}`)).toMatchObject({
      problem: expect.stringContaining('cert.trustedform.com.evil.io, not on TrustedForm'),
    });
    expect(readTrustedFormUrl(`http://cert.trustedform.com/${WEB_ID}`)).toMatchObject({
      problem: expect.stringContaining('not https'),
    });
    expect(readTrustedFormUrl('N/A')).toMatchObject({ problem: expect.stringContaining('is not a URL') });
  });

  it('tells a ping URL apart: never a certificate', () => {
    expect(readTrustedFormUrl(SAMPLE_TRUSTEDFORM_PING_URL)).toMatchObject({ kind: 'ping', id: ZERO_ID });
    expect(trustedFormCertificateUrl(SAMPLE_TRUSTEDFORM_PING_URL)).toBeNull();
    expect(trustedFormPingUrl(SAMPLE_TRUSTEDFORM_PING_URL)).toBe(SAMPLE_TRUSTEDFORM_PING_URL);
    expect(trustedFormPingUrl(`http://ping.trustedform.com/${ZERO_ID}`)).toBeNull();
    expect(trustedFormPingUrl(`https://ping.trustedform.com.evil.io/${ZERO_ID}`)).toBeNull();
    expect(trustedFormPingUrl(SAMPLE_TRUSTEDFORM_CERT_URL)).toBeNull();
  });
});

describe('TrustedForm’s claim period', () => {
  const created = new Date('2026-01-01T00:00:00Z');
  it('is 90 days: a certificate is expired a moment after, not at', () => {
    expect(isTrustedFormExpired(created, new Date('2026-04-01T00:00:00Z'))).toBe(false);
    expect(isTrustedFormExpired(created, new Date('2026-04-01T00:00:01Z'))).toBe(true);
  });
});

describe('Jornaya LeadiD tokens', () => {
  it('take 36 hexadecimal characters as a GUID, in upper case', () => {
    expect(jornayaToken(SAMPLE_JORNAYA_TOKEN)).toBe(SAMPLE_JORNAYA_TOKEN);
    expect(jornayaToken(` ${SAMPLE_JORNAYA_TOKEN.toLowerCase()} `)).toBe(SAMPLE_JORNAYA_TOKEN);
  });

  it('refuse a token one character off, or of another shape', () => {
    for (const raw of [
      SAMPLE_JORNAYA_TOKEN.slice(1),
      `${SAMPLE_JORNAYA_TOKEN}0`,
      `${SAMPLE_JORNAYA_TOKEN.slice(0, -1)}G`,
      SAMPLE_JORNAYA_TOKEN.replaceAll('-', ''),
      SAMPLE_JORNAYA_TOKEN.replace('-', '_'),
      'LEADID-0123-4567-89AB',
      'N/A',
      '',
    ])
      expect(jornayaToken(raw), raw).toBeNull();
  });
});

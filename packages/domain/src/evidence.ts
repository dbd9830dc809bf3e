/**
 * Consent evidence as checked evidence (issue 32 item 8): a TrustedForm certificate URL, a TrustedForm
 * ping URL and a Jornaya LeadiD token are read here, once, for the source API, the screens and the
 * deliveries. A value that is not what it claims to be is never shown as valid nor sent to a buyer.
 */

/** TrustedForm's certificate host, and only it: a buyer claims certificates there with its API key. */
export const TRUSTEDFORM_CERT_HOST = 'cert.trustedform.com';

/** TrustedForm's ping host: a ping URL lets a buyer check a certificate at the ping, before the lead is sold. */
export const TRUSTEDFORM_PING_HOST = 'ping.trustedform.com';

/**
 * How old a certificate may be before it reads as expired: TrustedForm deletes a certificate nobody
 * claimed 3 days after its creation, and one whose form submission it saw (most) after 90 days, its
 * extended claim period; so past 90 days no buyer can claim it any more. Days.
 */
export const TRUSTEDFORM_CLAIM_DAYS = 90;

const HEX_40 = /^[0-9a-f]{40}$/i;
const HEX_ONLY = /^[0-9a-f]+$/i;
const BASE64URL_PART = /^[A-Za-z0-9_-]+$/;
/** A mobile id's base64 (URL-safe, as in the module's example): never a `/`, which would end the URL's path segment. */
const BASE64_TEXT = /^[A-Za-z0-9+_-]+={0,2}$/;
/** A web id's iv (7 bytes), auth tag (8) and sealed type and time (5): what the module reads of an id. */
const SEALED_ID_BYTES = 20;

/** The kinds of certificate id `@activeprospect/trustedform-cert-id` tells apart. */
export type TrustedFormIdKind = 'web' | 'mobile' | 'zero';

/**
 * The kind of a TrustedForm certificate id, as `@activeprospect/trustedform-cert-id`'s `decrypt` tells
 * them apart, or null when it is none: 40 characters is a web id (hex: the module reads it as hex),
 * `0.` and three base64url parts (sealed text, iv, tag) is a "zero" id (Facebook certificates and
 * ping ids), and more than 40 characters of base64 is a mobile id (base64 of at least the 20 bytes the
 * module reads). A hex text longer than 40 is a web id with characters too many, not a mobile one.
 */
export function trustedFormIdKind(id: string): TrustedFormIdKind | null {
  if (id.length === 40) return HEX_40.test(id) ? 'web' : null;
  if (id.startsWith('0.')) {
    const parts = id.slice(2).split('.');
    return parts.length === 3 && parts.every((p) => BASE64URL_PART.test(p)) ? 'zero' : null;
  }
  if (id.length > 40 && BASE64_TEXT.test(id) && !HEX_ONLY.test(id)) {
    const bytes = Math.floor((id.replace(/=+$/, '').length * 6) / 8);
    return bytes >= SEALED_ID_BYTES ? 'mobile' : null;
  }
  return null;
}

/** What a TrustedForm URL a source sent turned out to be. */
export type TrustedFormUrl =
  /** A certificate URL, in its one spelling (`https://cert.trustedform.com/<id>`). */
  | { kind: 'certificate'; url: string; id: string; idKind: TrustedFormIdKind }
  /** A ping URL (`https://ping.trustedform.com/<id>`): not a certificate; may travel in pings. */
  | { kind: 'ping'; url: string; id: string; idKind: TrustedFormIdKind }
  /** Neither: `problem` says why, in a sentence a supplier understands. */
  | { kind: 'invalid'; problem: string };

/**
 * Reads a TrustedForm URL: https on TrustedForm's own host (`cert.` or `ping.trustedform.com`
 * exactly: never a look-alike such as `cert.trustedform.com.evil.io` or `cert.trustedform.com@evil.io`),
 * no user, port, query or fragment, and one path segment that is a certificate id of the right shape.
 */
export function readTrustedFormUrl(raw: string): TrustedFormUrl {
  const text = raw.trim();
  const invalid = (problem: string): TrustedFormUrl => ({ kind: 'invalid', problem });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid('is not a URL: a TrustedForm certificate URL starts with https://cert.trustedform.com/');
  }
  const host = url.hostname.toLowerCase();
  if (host !== TRUSTEDFORM_CERT_HOST && host !== TRUSTEDFORM_PING_HOST)
    return invalid(`is on ${host || 'no host'}, not on TrustedForm's host ${TRUSTEDFORM_CERT_HOST}`);
  if (url.protocol !== 'https:') return invalid(`is not https: a TrustedForm URL starts with https://${host}/`);
  if (url.username || url.password || url.port || url.search || url.hash)
    return invalid('carries a user, a port, a query or a fragment, which a TrustedForm URL never has');
  // Not decoded: an id's alphabet needs no escapes, so an escaped character is one the shape refuses.
  const id = url.pathname.slice(1);
  const idKind = trustedFormIdKind(id);
  if (!idKind) return invalid(`has no TrustedForm certificate id of the right shape (${id ? `'${id}'` : 'none'})`);
  return host === TRUSTEDFORM_PING_HOST
    ? { kind: 'ping', url: `https://${TRUSTEDFORM_PING_HOST}/${id}`, id, idKind }
    : { kind: 'certificate', url: `https://${TRUSTEDFORM_CERT_HOST}/${id}`, id, idKind };
}

/** The certificate URL in its one spelling, or null for anything else (a ping URL, another host, malformed, absent). */
export function trustedFormCertificateUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const read = readTrustedFormUrl(raw);
  return read.kind === 'certificate' ? read.url : null;
}

/** The ping URL in its one spelling, or null for anything else. */
export function trustedFormPingUrl(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const read = readTrustedFormUrl(raw);
  return read.kind === 'ping' ? read.url : null;
}

/** Whether a certificate created at `createdAt` is past TrustedForm's claim period at `now`. */
export function isTrustedFormExpired(createdAt: Date, now: Date): boolean {
  return now.getTime() - createdAt.getTime() > TRUSTEDFORM_CLAIM_DAYS * 86_400_000;
}

/** A Jornaya LeadiD token: 36 hexadecimal characters as a GUID, XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX. */
const LEADID_TOKEN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The LeadiD token in its one spelling (upper case, as Jornaya writes it), or null when it is not one. */
export function jornayaToken(raw: string | null | undefined): string | null {
  const text = raw?.trim();
  return text && LEADID_TOKEN.test(text) ? text.toUpperCase() : null;
}

/** What the Test modal and the documentation show as a certificate URL: one of the right shape. */
export const SAMPLE_TRUSTEDFORM_CERT_URL = 'https://cert.trustedform.com/eb9fc4dd9bed9ad451a5648946cf4bf09b5bb947';
/** What they show as a LeadiD token. */
export const SAMPLE_JORNAYA_TOKEN = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';
/** What they show as a ping URL. */
export const SAMPLE_TRUSTEDFORM_PING_URL =
  'https://ping.trustedform.com/0.1JT7QUPI1sOFZxpr72ZK45K0ck75kEBO9H3jNJuX8NkqMTv4UF-zrapBUlsefTP3lkXWh6qM.fF0DNrov0zNUNVRCqDV5dw.E2eYOJ5-dnAgiX02-96FNQ';

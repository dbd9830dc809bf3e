import {
  isTrustedFormExpired,
  jornayaToken,
  type LeadFieldFlag,
  readTrustedFormUrl,
  TRUSTEDFORM_CLAIM_DAYS,
} from '@leadex/domain';
import { trustedFormCreatedAt } from '../../lib/trustedform';

/** The consent evidence a source may send with a lead (issue 32 item 8). */
export interface EvidenceFields {
  /** TrustedForm certificate URL. */
  trusted_form?: string;
  /** TrustedForm ping URL. */
  trusted_form_ping_url?: string;
  /** Jornaya LeadiD token. */
  jornaya?: string;
}

/** What the evidence checks need besides the fields: the time, and TrustedForm's id key when the exchange has it. */
export interface EvidenceOptions {
  now: Date;
  certIdSecret?: string;
}

const NOT_SENT =
  'The lead was kept without it: it is not shown as a certificate nor sent to buyers, who claim certificates on TrustedForm only.';

/**
 * Checks the consent evidence of a lead: a certificate URL must be https on TrustedForm's own host
 * with an id of the right shape, and not past TrustedForm's claim period when its time can be read; a
 * ping URL goes to `trusted_form_ping_url` whichever field it came in; a LeadiD token must have Jornaya's
 * shape. What fails is left out of the lead and flagged with the value as sent: the lead is never
 * refused for its evidence, and a link to another host never reaches a screen's button or a buyer.
 */
export function checkEvidence(
  fields: EvidenceFields,
  options: EvidenceOptions,
): { fields: EvidenceFields; flags: LeadFieldFlag[] } {
  const flags: LeadFieldFlag[] = [];
  const checked: EvidenceFields = {};
  const flag = (field: keyof EvidenceFields, value: string, problem: string) => flags.push({ field, value, problem });

  const certificate = (field: keyof EvidenceFields, value: string, url: string, id: string) => {
    const createdAt = options.certIdSecret ? trustedFormCreatedAt(id, options.certIdSecret) : null;
    if (createdAt && isTrustedFormExpired(createdAt, options.now)) {
      flag(
        field,
        value,
        `The TrustedForm certificate looks expired: it was made on ${createdAt.toISOString().slice(0, 10)}, more than ${TRUSTEDFORM_CLAIM_DAYS} days ago, past TrustedForm's claim period. ${NOT_SENT}`,
      );
      return;
    }
    if (checked.trusted_form) flag(field, value, 'A second TrustedForm certificate URL: the lead keeps the first.');
    else checked.trusted_form = url;
  };

  // The certificate field first: a certificate URL sent there is the one the lead keeps.
  for (const field of ['trusted_form', 'trusted_form_ping_url'] as const) {
    const value = fields[field];
    if (!value) continue;
    const read = readTrustedFormUrl(value);
    if (read.kind === 'certificate') certificate(field, value, read.url, read.id);
    else if (read.kind === 'ping') {
      if (checked.trusted_form_ping_url) flag(field, value, 'A second TrustedForm ping URL: the lead keeps the first.');
      else checked.trusted_form_ping_url = read.url;
      if (field === 'trusted_form')
        flag(
          field,
          value,
          'This is a TrustedForm ping URL, not a certificate: it is kept as trusted_form_ping_url (it may travel in pings), and the lead has no certificate URL.',
        );
    } else
      flag(
        field,
        value,
        `The ${field === 'trusted_form' ? 'TrustedForm certificate' : 'TrustedForm ping'} URL ${read.problem}. ${field === 'trusted_form' ? NOT_SENT : 'The lead was kept without it.'}`,
      );
  }

  if (fields.jornaya) {
    const token = jornayaToken(fields.jornaya);
    if (token) checked.jornaya = token;
    else
      flag(
        'jornaya',
        fields.jornaya,
        'This is not a Jornaya LeadiD token (36 hexadecimal characters as XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX). The lead was kept without it.',
      );
  }
  return { fields: checked, flags };
}

/** The ping URL a ping may carry to Ping/Post buyers: one on TrustedForm's ping host, else none. */
export function checkedPingUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const read = readTrustedFormUrl(value);
  return read.kind === 'ping' ? read.url : undefined;
}

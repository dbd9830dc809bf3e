import { newId } from '../../lib/ids';
import type { Engine } from '../engine';
import type { LeadRecord } from './sale.repo';
import type { SaleRequest } from './types';

/** The lead as it will be stored; the answer, explanation and prices are filled by the sale. */
export function leadRecord(engine: Engine, req: SaleRequest, now: Date): LeadRecord {
  const contact = req.contact;
  return {
    id: newId('lead'),
    sourceId: req.caller.source.id,
    apiKeyId: req.caller.key.id,
    channel: req.channel,
    service: req.service,
    zip: req.zip,
    state: contact.state?.toUpperCase() ?? engine.stateOf(req.zip),
    city: contact.city ?? null,
    name: contact.name ?? ([contact.first_name, contact.last_name].filter(Boolean).join(' ') || null),
    firstName: contact.first_name ?? null,
    lastName: contact.last_name ?? null,
    address: contact.address ?? null,
    phone: contact.phone ?? null,
    email: contact.email ?? null,
    tcpaConsent: contact.tcpa_consent ?? null,
    tcpaLanguage: contact.tcpa_language ?? null,
    trustedForm: contact.trusted_form ?? null,
    trustedFormPingUrl: contact.trusted_form_ping_url ?? null,
    jornaya: contact.jornaya ?? null,
    // The consumer's, as the source sent them: the request's own address and client are the poster's.
    ip: contact.ip ?? null,
    userAgent: contact.user_agent ?? null,
    request: {
      ip: req.meta.ip,
      ...(req.meta.userAgent ? { user_agent: req.meta.userAgent } : {}),
      ...(contact.page_url || contact.consent_snapshot
        ? { consent: { page_url: contact.page_url, snapshot: contact.consent_snapshot } }
        : {}),
    },
    pubId: contact.pub_id ?? null,
    subId: contact.sub_id ?? null,
    homeowner: contact.homeowner ?? null,
    metadata: contact.metadata ?? null,
    fieldFlags: contact.flags?.length ? contact.flags : null,
    fields: req.fields ?? {},
    pingId: req.pingId ?? 'no_ping',
    test: req.test,
    answer: {},
    explanation: [],
    priceCents: 0,
    costCents: 0,
    createdAt: now,
  };
}

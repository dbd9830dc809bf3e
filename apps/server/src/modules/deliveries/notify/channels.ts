import { createHash } from 'node:crypto';
import { type ServiceField, trustedFormCertificateUrl } from '@leadex/domain';
import twilio from 'twilio';
import type { Config } from '../../../config';
import type { Db } from '../../../db/client';
import type { Clock } from '../../../lib/clock';
import { excerpt } from '../../../lib/excerpt';
import { newId } from '../../../lib/ids';
import { centsToDollars, formatMoney } from '../../../lib/money';
import {
  OutboundError,
  type OutboundNetwork,
  type OutboundResponse,
  outboundRequest,
} from '../../../lib/outbound-http';
import { deriveSigningSecret, signWebhook } from '../../../lib/webhook-signature';
import { attemptOf, customMessageId } from '../custom/inline';
import {
  callingWindowFields,
  consentEvidenceFields,
  deliverCustom,
  isRetryable,
  leadForDelivery,
} from '../custom/render';
import { toWebhook } from '../custom/webhooks.dto';
import { webhooksRepo } from '../custom/webhooks.repo';
import type { Mailer } from '../outbox/mailer';
import { outboxRepo } from '../outbox/outbox.repo';
import { NOT_WHITELISTED, type Whitelist } from '../outbox/whitelist';
import { type NotifyLead, notifyRepo } from './notify.repo';

/** The notify channels of DESIGN.md §6, and `custom`: a buyer's live custom delivery, retried as a job. */
export type NotifyChannel = 'email' | 'sms' | 'webhook' | 'broadcast' | 'custom';

/** What one attempt did, as the delivery logs keep it. */
export interface AttemptResult {
  accepted: boolean;
  statusCode: number | null;
  request: string | null;
  response: string | null;
  error: string | null;
  providerId: string | null;
  durationMs: number;
  /** The target said no in a way a retry will not change (a custom delivery's Not Accepted). */
  final?: boolean;
  /** A custom delivery's answer: the buyer's own reason for not accepting (its `reason_field`). */
  reason?: string | null;
}

/** The lead's fields a buyer receives, in a fixed order. */
export function leadFields(lead: NotifyLead): [string, string][] {
  const fields: [string, string | number | boolean | null | undefined][] = [
    ['Lead', lead.id],
    ['Service', lead.service],
    ['Name', lead.name],
    ['Phone', lead.phone],
    ['Email', lead.email],
    ['Address', lead.address],
    ['City', lead.city],
    ['State', lead.state],
    ['ZIP', lead.zip],
    ['Homeowner', lead.homeowner == null ? null : lead.homeowner ? 'Yes' : 'No'],
    ['TCPA consent', lead.tcpaConsent == null ? null : lead.tcpaConsent ? 'Yes' : 'No'],
    // The consumer's calling window goes with every delivery (issue 34 item 5), not only the mapped ones.
    ['Calling window', callingWindowFields(lead).calling_window],
    ['Campaign', lead.campaignName],
    ['Price', `$${formatMoney(lead.priceCents)}`],
  ];
  return fields
    .filter((f): f is [string, string | number | boolean] => f[1] != null && f[1] !== '')
    .map(([k, v]) => [k, String(v)]);
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/**
 * The JSON body of a webhook: the lead as sold to this buyer, with its consent evidence (issue 34 item
 * 3) under the names a custom delivery maps it by; `publicUrl` (PUBLIC_URL) starts its download links.
 */
export function webhookPayload(lead: NotifyLead, at: Date, publicUrl = '') {
  return {
    type: 'lead.sold',
    timestamp: at.toISOString(),
    data: {
      lead_id: lead.id,
      match_id: lead.matchId,
      campaign: { _id: lead.campaignId, name: lead.campaignName },
      price: centsToDollars(lead.priceCents),
      kind: lead.kind,
      service: lead.service,
      name: lead.name,
      first_name: lead.firstName,
      last_name: lead.lastName,
      phone: lead.phone,
      email: lead.email,
      address: lead.address,
      city: lead.city,
      state: lead.state,
      zip: lead.zip,
      homeowner: lead.homeowner,
      tcpa_consent: lead.tcpaConsent,
      tcpa_language: lead.tcpaLanguage,
      // Only a certificate on TrustedForm's host (a lead stored before the check may hold anything).
      trusted_form: trustedFormCertificateUrl(lead.trustedForm),
      trusted_form_ping_url: lead.trustedFormPingUrl,
      jornaya: lead.jornaya,
      consent_page_url: lead.consentPageUrl,
      ...consentEvidenceFields(lead.id, lead.consentEvidence, publicUrl),
      ...callingWindowFields(lead),
      ts: Math.floor(lead.createdAt.getTime() / 1000),
    },
  };
}

/**
 * The webhook-id of one lead to one URL: the same on every retry and after a crash, so the
 * receiver can drop a duplicate (Standard Webhooks).
 */
export function webhookId(matchId: string, target: string): string {
  return `msg_${createHash('sha256').update(`${matchId}|${target}`).digest('hex').slice(0, 32)}`;
}

/**
 * POSTs a JSON payload to one of a buyer's webhook URLs (a lead, a notice), signed as Standard Webhooks
 * under the buyer's secret derived from LEADEX_SECRET. Throws OutboundError when no answer came.
 */
export function postBuyerWebhook(
  {
    config,
    network = {},
  }: { config: Pick<Config, 'LEADEX_SECRET' | 'ALLOW_PRIVATE_DELIVERY_TARGETS'>; network?: OutboundNetwork },
  buyerId: string,
  url: string,
  message: { id: string; timestamp: Date; payload: string },
): Promise<OutboundResponse> {
  return outboundRequest({
    url,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Leadex-Webhooks/1.0',
      ...signWebhook(deriveSigningSecret(config.LEADEX_SECRET, buyerId), message),
    },
    body: message.payload,
    allowPrivate: config.ALLOW_PRIVATE_DELIVERY_TARGETS,
    ...network,
  });
}

/** A notice to a buyer in each channel's form (channels.notice). */
export interface ChannelNotice {
  /** The notice's own id: a webhook's id is derived from it, the same on every retry. */
  id: string;
  buyerId: string;
  subject: string;
  text: string;
  sms: string;
  /** The webhook's body (a `timestamp` is added). */
  json: Record<string, unknown>;
}

export interface ChannelDeps {
  db: Db;
  clock: Clock;
  config: Config;
  mailer: Mailer;
  /** Outside production: texts to other numbers are kept back (DESIGN.md §11 Simulator). */
  whitelist?: Whitelist;
  /** How the HTTP channels find and reach a buyer's address: the system's by default (tests inject one). */
  network?: OutboundNetwork;
  /** A service's own fields (issue 33): a custom delivery sends money fields in dollars. */
  fieldsOf?: (service: string) => Promise<readonly ServiceField[]>;
}

/** What an email attempt's log says of its outbox row. */
const EMAIL_OUTCOMES: Record<string, string> = {
  sent: 'accepted by the SMTP server',
  pending: 'kept in the outbox (no SMTP_URL)',
  [NOT_WHITELISTED]: 'kept in the outbox: not whitelisted',
};

/** Sends one lead on one channel to one target; never throws for the target's own failure. */
export function createChannels({
  db,
  clock,
  config,
  mailer,
  whitelist,
  network = {},
  fieldsOf = async () => [],
}: ChannelDeps) {
  const sms =
    config.TWILIO_ACCOUNT_SID && config.TWILIO_AUTH_TOKEN && config.TWILIO_FROM
      ? twilio(config.TWILIO_ACCOUNT_SID, config.TWILIO_AUTH_TOKEN)
      : null;

  async function email(lead: NotifyLead, to: string): Promise<AttemptResult> {
    const started = performance.now();
    const fields = leadFields(lead);
    const subject = `New ${lead.service} lead: ${lead.name ?? lead.id}`;
    const text = `A new lead was sold to you.\n\n${fields.map(([k, v]) => `${k}: ${v}`).join('\n')}\n`;
    const html = `<p>A new lead was sold to you.</p><table>${fields
      .map(([k, v]) => `<tr><th align="left">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`)
      .join('')}</table>`;
    const row = await mailer.send({ to, subject, text, html });
    // Without SMTP the message waits in the outbox the admin reads: kept, not lost (DESIGN.md §6).
    return {
      accepted: row.status !== 'failed',
      statusCode: null,
      request: excerpt(`To: ${to}\nSubject: ${subject}\n\n${text}`),
      response: EMAIL_OUTCOMES[row.status] ?? null,
      error: row.error ?? null,
      providerId: row.id,
      durationMs: Math.round(performance.now() - started),
    };
  }

  async function text(lead: NotifyLead, to: string): Promise<AttemptResult> {
    const started = performance.now();
    const body = `Leadex: new ${lead.service} lead ${[lead.name, lead.phone, lead.zip].filter(Boolean).join(', ')}`;
    const kept = whitelist && !(await whitelist.allows('sms', to));
    if (!sms || kept) {
      const row = await outboxRepo.insert(db, {
        id: newId('out'),
        channel: 'sms',
        to,
        text: body,
        status: kept ? NOT_WHITELISTED : 'pending',
        createdAt: clock.now(),
      });
      return {
        accepted: true,
        statusCode: null,
        request: body,
        response: kept ? 'kept in the outbox: not whitelisted' : 'kept in the outbox (no TWILIO_*)',
        error: null,
        providerId: row.id,
        durationMs: Math.round(performance.now() - started),
      };
    }
    try {
      const message = await sms.messages.create({
        to,
        from: config.TWILIO_FROM as string,
        body,
        statusCallback: `${config.PUBLIC_URL}/api/twilio/status`,
      });
      // Twilio took it; "delivered" comes later by its status callback (POST /api/twilio/status).
      return {
        accepted: false,
        statusCode: 201,
        request: body,
        response: `twilio: ${message.status}`,
        error: null,
        providerId: message.sid,
        durationMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      const e = error as { status?: number; message?: string };
      return {
        accepted: false,
        statusCode: e.status ?? null,
        request: body,
        response: null,
        error: excerpt(e.message ?? String(error)),
        providerId: null,
        durationMs: Math.round(performance.now() - started),
      };
    }
  }

  async function webhook(lead: NotifyLead, url: string): Promise<AttemptResult> {
    const now = clock.now();
    const payload = JSON.stringify(webhookPayload(lead, now, config.PUBLIC_URL));
    const id = webhookId(lead.matchId, url);
    const started = performance.now();
    try {
      const res = await postBuyerWebhook({ config, network }, lead.buyerId, url, { id, timestamp: now, payload });
      const ok = res.status >= 200 && res.status < 300;
      return {
        accepted: ok,
        statusCode: res.status,
        request: excerpt(payload),
        response: excerpt(res.body),
        error: ok ? null : `HTTP ${res.status}`,
        providerId: id,
        durationMs: res.durationMs,
      };
    } catch (error) {
      return {
        accepted: false,
        statusCode: null,
        request: excerpt(payload),
        response: null,
        error: excerpt(error instanceof OutboundError ? error.message : String(error)),
        providerId: id,
        durationMs: Math.round(performance.now() - started),
      };
    }
  }

  /** A custom delivery retried after the sale: 10 s to answer; the buyer's lead id kept on the match. */
  async function custom(lead: NotifyLead, deliveryId: string): Promise<AttemptResult> {
    const [delivery, row] = await Promise.all([webhooksRepo.findById(db, deliveryId), notifyRepo.leadRow(db, lead.id)]);
    if (!delivery || !row)
      return {
        accepted: false,
        statusCode: null,
        request: null,
        response: null,
        error: 'The custom delivery no longer exists',
        providerId: null,
        durationMs: 0,
        final: true,
      };
    const webhook = toWebhook(delivery);
    const buyerPingId = webhook.ping ? await notifyRepo.buyerPingIdOf(db, row, deliveryId) : null;
    const result = await deliverCustom(
      webhook,
      {
        ...leadForDelivery(row, lead.priceCents, await fieldsOf(row.service), config.PUBLIC_URL),
        buyer_ping_id: buyerPingId,
      },
      {
        allowPrivate: config.ALLOW_PRIVATE_DELIVERY_TARGETS,
        messageId: customMessageId(lead.matchId, deliveryId),
        ...network,
      },
    );
    const attempt = attemptOf(lead.matchId, deliveryId, result, clock.now());
    await webhooksRepo.noteOutcome(db, deliveryId, attempt.error, attempt.at);
    if (result.returnId !== undefined) await notifyRepo.setBuyerLeadId(db, lead.matchId, result.returnId);
    return {
      accepted: attempt.accepted,
      statusCode: attempt.statusCode,
      request: attempt.request,
      response: attempt.response,
      error: attempt.error,
      reason: attempt.reason,
      providerId: attempt.providerId,
      durationMs: attempt.durationMs,
      final: !attempt.accepted && !isRetryable(result),
    };
  }

  /**
   * A notice that is not a lead (an erasure request, issue 35): on one of the buyer's channels, never
   * with the person's data. Answers null when the channel took it, else why not.
   */
  async function notice(channel: NotifyChannel, target: string, message: ChannelNotice): Promise<string | null> {
    if (channel === 'email') {
      const row = await mailer.send({ to: target, subject: message.subject, text: message.text });
      return row.status === 'failed' ? (row.error ?? 'the mail failed') : null;
    }
    if (channel === 'sms') {
      const kept = whitelist && !(await whitelist.allows('sms', target));
      if (!sms || kept) {
        await outboxRepo.insert(db, {
          id: newId('out'),
          channel: 'sms',
          to: target,
          text: message.sms,
          status: kept ? NOT_WHITELISTED : 'pending',
          createdAt: clock.now(),
        });
        return null;
      }
      try {
        await sms.messages.create({ to: target, from: config.TWILIO_FROM as string, body: message.sms });
        return null;
      } catch (error) {
        return excerpt((error as Error).message ?? String(error));
      }
    }
    if (channel === 'webhook' || channel === 'broadcast') {
      const now = clock.now();
      const payload = JSON.stringify({ ...message.json, timestamp: now.toISOString() });
      const id = webhookId(message.id, target);
      try {
        const res = await postBuyerWebhook({ config, network }, message.buyerId, target, {
          id,
          timestamp: now,
          payload,
        });
        return res.status >= 200 && res.status < 300 ? null : `HTTP ${res.status}`;
      } catch (error) {
        return excerpt(error instanceof OutboundError ? error.message : String(error));
      }
    }
    return `no notice on the ${channel} channel`;
  }

  return {
    notice,
    /** Whether an accepted SMS waits for Twilio's callback to be "delivered". */
    smsByCallback: sms !== null,
    send(channel: NotifyChannel, lead: NotifyLead, target: string): Promise<AttemptResult> {
      if (channel === 'email') return email(lead, target);
      if (channel === 'sms') return text(lead, target);
      if (channel === 'custom') return custom(lead, target);
      return webhook(lead, target);
    },
  };
}

export type Channels = ReturnType<typeof createChannels>;

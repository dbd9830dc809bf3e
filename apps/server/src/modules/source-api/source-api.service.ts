import type { FieldValue } from '@leadex/domain';
import { unpackRound } from '../../distribution/bidding';
import type { Engine, SourceCaller } from '../../distribution/engine';
import type { ExplanationRecord } from '../../distribution/explanation';
import { stateOfLead } from '../../distribution/normalize';
import { openPingToken } from '../../distribution/ping-token';
import type { SuppressionCheck, SuppressionVerdict } from '../../distribution/ports';
import type { QuoteOutcome, RequestMeta, Sale, SaleOutcome } from '../../distribution/sale';
import type { SaleContact } from '../../distribution/sale/types';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { centsToDollars } from '../../lib/money';
import { sha256Hex } from '../../lib/secrets';
import { checkEvidence, checkedPingUrl } from './evidence';
import {
  type CapturedServiceFields,
  captureServiceFields,
  type FieldStage,
  type ReadServiceFields,
  readServiceFields,
  type SentServiceFields,
} from './service-fields';
import { type ContactInput, flagWarning, type LeadInput, type PingInput, type PostInput } from './source-api.schema';

export type { RequestMeta } from '../../distribution/sale';

/** An answer of the public API: its HTTP status and JSON body. */
export type Answer = { status: number; body: Record<string, unknown> };

/** A ping's answer, with how each campaign decided (the simulator shows it). */
export type QuoteAnswer = Answer & { explanation: ExplanationRecord[] };

/** A field the winning buyers' filters check only at post: the sale depends on the post's value. */
const conditionOf = (field: string) => ({
  field,
  message: `The sale depends on ${field}: a buyer's filter checks it at post`,
});

/** A ping's outcome as the source is answered: a price and its ping_id, or no_match. */
function quoteAnswer(outcome: QuoteOutcome, warnings: readonly string[] = []): QuoteAnswer {
  const said = warnings.length > 0 ? { warnings: [...warnings] } : {};
  // The explanation as the outcome has it: built only when read (the simulator; quote.ts).
  if (outcome.kind === 'no_match' || outcome.kind === 'suppressed')
    return {
      status: 200,
      body: { ok: false, reason: outcome.kind, ...said },
      get explanation() {
        return outcome.explanation;
      },
    };
  return {
    get explanation() {
      return outcome.explanation;
    },
    status: 200,
    body: {
      ok: true,
      ping_id: outcome.pingId,
      price: centsToDollars(outcome.priceCents),
      expires: outcome.expires,
      ...(outcome.test ? { test: true } : {}),
      ...(outcome.conditions ? { conditions: outcome.conditions.map(conditionOf) } : {}),
      ...said,
    },
  };
}

/**
 * A sale's outcome as the source is answered: the lead's answer (with a warning per flagged field), a
 * replayed one, or a refused Idempotency-Key.
 */
function saleAnswer(outcome: SaleOutcome, contact: SaleContact, read: ReadServiceFields): Answer {
  switch (outcome.kind) {
    case 'sold':
    case 'not_sold': {
      const warnings = [...read.warnings, ...(contact.flags?.map(flagWarning) ?? [])];
      return { status: 200, body: warnings.length > 0 ? { ...outcome.answer, warnings } : outcome.answer };
    }
    case 'replayed':
      return { status: outcome.status, body: outcome.answer };
    case 'key_reused':
      throw new AppError(
        'unprocessable',
        `Idempotency-Key '${outcome.key}' was used in the last 24 hours for a different request, so this one was not stored. Send each new lead with a new key (a UUID, say); reuse a key only to retry the very same request.`,
        { reason: 'idempotency_key_reused' },
      );
    case 'key_in_progress':
      throw new AppError('conflict', 'A request with this Idempotency-Key is still in progress');
  }
}

/** What the source API works with; the sale is built once, by deps.ts. */
export interface SourceApiDeps {
  clock: Clock;
  engine: Engine;
  /** Verifies ping_ids (the sale signs them with the same secret). */
  secret: string;
  sale: Sale;
  /** The suppression lists' check of a ping's contact hashes (issue 34); left out, a ping's hashes are not checked. */
  suppression?: Pick<SuppressionCheck, 'pingContact'>;
  /** TrustedForm's key of certificate ids, when the exchange has it: certificates past their claim period are flagged. */
  trustedFormCertIdSecret?: string;
}

/**
 * The public source API: ping, post and direct lead (DESIGN.md §4, §5). It maps requests and checks
 * what the source may do, and answers the sale's outcomes over HTTP; the sale itself is the
 * engine's (distribution/sale/).
 */
export function createSourceApiService({
  clock,
  engine,
  secret,
  sale,
  suppression,
  trustedFormCertIdSecret,
}: SourceApiDeps) {
  function checkService(service: string) {
    if (!engine.snapshot().services.has(service)) {
      throw AppError.field('service', `service '${service}' is not one the exchange buys`);
    }
  }

  /** Self-signed-up sources may test at once but sell real leads only once approved. */
  function checkApproved(caller: SourceCaller, test: boolean) {
    if (!test && !caller.source.approved)
      throw new AppError('forbidden', 'This source is not approved yet: send test leads until an admin approves it', {
        reason: 'not_approved',
      });
  }

  /**
   * A self-signed-up source sells real leads only at a payout (issue 27): its lead cost, or the max cost
   * of the channel it sends. Without one its real leads are refused with the reason, never sold at $0.
   * Admins' sources without a lead cost are internal (DESIGN.md §5) and sell as before.
   */
  function checkPayout(caller: SourceCaller, test: boolean, channel: string | null) {
    if (test || !caller.source.selfSignedUp || engine.payoutCents(caller.source, channel) > 0) return;
    const paid = [...caller.source.channels].filter(([, cost]) => cost !== null).map(([name]) => name);
    const hint =
      paid.length > 0
        ? `; send one of your paid channels (${paid.join(', ')}) or ask your provider`
        : ': ask your provider';
    throw new AppError(
      'forbidden',
      `The exchange has not set what it pays you per lead${channel ? ` on channel ${channel}` : ''} yet, so real leads cannot sell${hint}. Test leads work.`,
      {
        reason: 'no_payout',
      },
    );
  }

  /**
   * The contact a sale stores: the state the ZIP's when the ZIP table knows it (what the lead is routed
   * by), a sent state it contradicts flagged (issue 32 item 4).
   */
  function contactOf(
    { state_sent, state, flags, ...contact }: ContactInput & { trusted_form_ping_url?: string },
    zip: string,
  ): SaleContact {
    const sent = state_sent === undefined ? undefined : { code: state ?? null, raw: state_sent };
    const reconciled = stateOfLead(sent, zip, engine.stateOf(zip));
    // The consent evidence checked (issue 32 item 8): what fails is left out of the lead and flagged.
    const evidence = checkEvidence(contact, {
      now: clock.now(),
      ...(trustedFormCertIdSecret ? { certIdSecret: trustedFormCertIdSecret } : {}),
    });
    const { trusted_form: _cert, trusted_form_ping_url: _ping, jornaya: _token, ...rest } = contact;
    return {
      ...rest,
      ...evidence.fields,
      ...(reconciled.state ? { state: reconciled.state } : {}),
      flags: [...flags, ...(reconciled.flag ? [reconciled.flag] : []), ...evidence.flags],
    };
  }

  /** The service's own fields as sent, read with the lenient rules (issue 33); a 400 names a required one. */
  function fieldsOf(
    service: string,
    sent: SentServiceFields | undefined,
    stage: FieldStage,
    carried?: Record<string, FieldValue>,
  ): ReadServiceFields {
    return readServiceFields(engine.snapshot().fieldsOf(service), sent, stage, carried);
  }

  /** The contact with the service fields' flags and the names kept in metadata. */
  function withFields(contact: SaleContact, read: ReadServiceFields): SaleContact {
    if (read.flags.length === 0 && Object.keys(read.metadata).length === 0) return contact;
    return {
      ...contact,
      flags: [...(contact.flags ?? []), ...read.flags],
      ...(Object.keys(read.metadata).length > 0 ? { metadata: { ...contact.metadata, ...read.metadata } } : {}),
    };
  }

  return {
    /**
     * Takes the services' own fields out of a body before it is validated (issue 33): the names any
     * service's field takes and a `fields` object; read once the service is known.
     */
    captureFields(body: Record<string, unknown>): CapturedServiceFields | undefined {
      return captureServiceFields(engine.snapshot(), body);
    },

    /**
     * The rate limiter's bucket of a call: the key's own (by its hash, so no key is kept in memory) for a
     * key the exchange knows, else one per client address, so inventing a new key for each call buys
     * no new bucket (issue 29 item 10).
     */
    limitBucket(apiKey: string | undefined, ip: string): string {
      const hash = apiKey ? sha256Hex(apiKey.trim()) : undefined;
      return hash && engine.snapshot().keysByHash.has(hash) ? `key:${hash}` : `ip:${ip}`;
    },

    /** The source calling with `apiKey` (401 without a key or with an unknown one, 403 held or expired). */
    authenticate(apiKey: string | undefined, options: { direct: boolean }): SourceCaller {
      return engine.authenticate(apiKey, options);
    },

    /**
     * POST /api/ping: a price for a lead, from memory only (DESIGN.md §4), at once; a promise only
     * when Ping/Post buyers are asked for their bids first (DESIGN.md §6).
     */
    ping(input: PingInput, apiKey: string | undefined, sent?: SentServiceFields): Answer | Promise<Answer> {
      return this.pingAs(engine.authenticate(apiKey, { direct: false }), input, sent);
    },

    /** A ping by an already identified source (the public route, or the simulator). */
    pingAs(caller: SourceCaller, input: PingInput, sent?: SentServiceFields): QuoteAnswer | Promise<QuoteAnswer> {
      checkService(input.service);
      checkApproved(caller, input.test ?? false);
      checkPayout(caller, input.test ?? false, input.channel ?? null);
      const read = fieldsOf(input.service, sent, 'ping');
      // Only a ping URL on TrustedForm's ping host goes on to the buyers' pings.
      const { trusted_form_ping_url: pingUrl, ...rest } = input;
      const checkedUrl = checkedPingUrl(pingUrl);
      const quoted = { ...rest, ...(checkedUrl ? { trusted_form_ping_url: checkedUrl } : {}), fields: read.fields };
      const quoteNow = (contactSuppression?: SuppressionVerdict) => {
        const outcome = sale.quote(caller, contactSuppression ? { ...quoted, contactSuppression } : quoted);
        return outcome instanceof Promise
          ? outcome.then((o) => quoteAnswer(o, read.warnings))
          : quoteAnswer(outcome, read.warnings);
      };
      // A ping with a phone or email hash is checked against the phone and email lists first (one
      // indexed query, issue 34); a ping without one is answered from memory as before.
      const listed = suppression?.pingContact(quoted) ?? null;
      if (!listed) return quoteNow();
      return listed.then(quoteNow);
    },

    /** POST /api/post: the lead for a ping; the auction runs again and sells once (DESIGN.md §4). */
    post(input: PostInput, apiKey: string | undefined, meta: RequestMeta, sent?: SentServiceFields): Promise<Answer> {
      return this.postAs(engine.authenticate(apiKey, { direct: false }), input, meta, sent);
    },

    async postAs(caller: SourceCaller, input: PostInput, meta: RequestMeta, sent?: SentServiceFields): Promise<Answer> {
      const check = openPingToken(secret, input.ping_id, clock.now());
      if (!check.ok) {
        const message = check.reason === 'expired' ? 'ping_id has expired: ping again' : 'ping_id is not valid';
        throw AppError.field('ping_id', message, check.reason === 'expired' ? 'expired' : undefined);
      }
      const ping = check.payload;
      if (ping.sourceId !== caller.source.id) throw AppError.field('ping_id', 'ping_id is not valid');
      checkApproved(caller, ping.test);
      checkPayout(caller, ping.test, ping.channel);
      // The ping's fields ride in its ping_id; the post adds the rest (issue 33).
      const read = fieldsOf(ping.service, sent, 'post', ping.fields);
      const contact = withFields(contactOf(input, ping.zip), read);
      const outcome = await sale.sell({
        caller,
        pingId: ping.id,
        service: ping.service,
        zip: ping.zip,
        channel: ping.channel,
        campaign: ping.campaign,
        test: ping.test || (input.test ?? false),
        payoutCents: ping.priceCents,
        // The Ping/Post buyers' bids of the ping: the post sells at them, never pinging again.
        bidRound: unpackRound(ping.round),
        // The ping's sub_id and pub_id are what the buyers were pinged with: they stay the lead's.
        contact: { ...contact, sub_id: ping.subId ?? input.sub_id, pub_id: ping.pubId ?? input.pub_id },
        fields: read.fields,
        meta,
      });
      return saleAnswer(outcome, contact, read);
    },

    /** POST /api/lead: ping and post in one call, for sources approved to post directly. */
    lead(input: LeadInput, apiKey: string | undefined, meta: RequestMeta, sent?: SentServiceFields): Promise<Answer> {
      return this.leadAs(engine.authenticate(apiKey, { direct: true }), input, meta, sent);
    },

    async leadAs(caller: SourceCaller, input: LeadInput, meta: RequestMeta, sent?: SentServiceFields): Promise<Answer> {
      const test = input.test ?? false;
      checkService(input.service);
      checkApproved(caller, test);
      const channel = input.channel ?? null;
      checkPayout(caller, test, channel);
      const payout = engine.payoutCents(caller.source, channel);
      const belowMinPrice = input.minprice !== undefined && payout < Math.round(input.minprice * 100);
      const read = fieldsOf(input.service, sent, 'lead');
      const contact = withFields(contactOf(input, input.zip), read);
      const outcome = await sale.sell({
        caller,
        pingId: null,
        service: input.service,
        zip: input.zip,
        channel,
        campaign: input.campaign ?? null,
        test,
        payoutCents: payout,
        belowMinPrice,
        contact,
        fields: read.fields,
        meta,
      });
      return saleAnswer(outcome, contact, read);
    },
  };
}

export type SourceApiService = ReturnType<typeof createSourceApiService>;

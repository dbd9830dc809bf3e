import { isIP } from 'node:net';
import {
  type HeaderRow,
  isPingPost,
  type Page,
  PING_FIELD_NAMES,
  pingServiceFieldProblem,
  SERVICE_FIELD_MAP_PREFIX,
  WEBHOOK_ACTIONS,
  WEBHOOK_MESSAGES,
  type Webhook,
  type WebhookCreate,
  type WebhookDraft,
  type WebhookListItem,
  type WebhookListQuery,
  type WebhookPing,
  type WebhookPingTestResult,
  type WebhookTemplate,
  type WebhookTestInput,
  type WebhookTestResult,
  type WebhookUpdate,
} from '@leadex/domain';
import type { Config } from '../../../config';
import type { Db, Tx } from '../../../db/client';
import type { Engine } from '../../../distribution/engine';
import { newPingId } from '../../../distribution/ping-token';
import { type LiveDelivery, pingPostDelivery } from '../../../distribution/ports';
import type { Clock } from '../../../lib/clock';
import { AppError } from '../../../lib/errors';
import { newId } from '../../../lib/ids';
import { centsToDollars } from '../../../lib/money';
import { blockedRange, headerProblem, type OutboundNetwork } from '../../../lib/outbound-http';
import { pageWindow } from '../../../lib/paging';
import { buyerScopeOf, maySeeBuyer } from '../../../lib/scope';
import type { Viewer } from '../../../plugins/auth';
import { sendPing } from './ping';
import { type DeliverOptions, type DeliveryResult, deliverCustom, pingDeliveryFields, testLead } from './render';
import { toCopy, toWebhook, toWebhookListItem, webhookTemplate } from './webhooks.dto';
import { type WebhookInsert, type WebhookRow, webhooksRepo } from './webhooks.repo';

export interface WebhooksServiceDeps {
  db: Db;
  clock: Clock;
  /** Read at each call: `ALLOW_PRIVATE_DELIVERY_TARGETS`. */
  config: Pick<Config, 'ALLOW_PRIVATE_DELIVERY_TARGETS' | 'LEADEX_SECRET'>;
  /** The engine knows which buyers have live deliveries: a sale to one runs them inline. */
  engine: Pick<Engine, 'change' | 'snapshot'>;
  /** How deliveries resolve and reach their targets: the system's by default; tests script it. */
  network?: OutboundNetwork;
}

const PRIVATE_URL = 'URL must be a public address: private, loopback and link-local addresses are not allowed';

/** The optional text columns and their API names; '' or null in an update clears them. */
const OPTIONAL_COLUMNS = [
  ['key', 'key'],
  ['keyname', 'keyName'],
  ['secret', 'secret'],
  ['secretname', 'secretName'],
  ['return_id', 'returnId'],
  ['reason_field', 'reasonField'],
  ['wrap_key', 'wrapKey'],
] as const;

/** The columns an update copies as given, and their API names (lists are replaced whole). */
const COPIED_COLUMNS = [
  ['name', 'name'],
  ['url', 'url'],
  ['method', 'method'],
  ['headers', 'headers'],
  ['accept', 'accept'],
  ['retry', 'retry'],
  ['map', 'map'],
  ['static', 'static'],
  ['send_content_type', 'sendContentType'],
  ['return_content_type', 'returnContentType'],
  ['status', 'status'],
  ['tags', 'tags'],
  ['ping_id', 'pingId'],
] as const;

/** What the Test call answers of one call it made (the test ping's, or the test post's). */
function testAnswer(result: DeliveryResult) {
  return {
    status: result.status,
    url: result.url,
    reqHeaders: result.reqHeaders,
    reqBody: result.reqBody,
    data: result.data,
    body: result.responseBody,
    ...(result.error !== undefined ? { error: result.error } : {}),
    durationMs: result.durationMs,
  };
}

/**
 * Custom deliveries (admin §2 Deliveries, portals §2 buyer deliveries): admins see and change every
 * buyer's; a buyer only its own, and another buyer's answers 404 on every route.
 */
export function createWebhooksService({ db, clock, config, engine, network = {} }: WebhooksServiceDeps) {
  async function findVisible(viewer: Viewer, id: string, tx: Db | Tx = db): Promise<WebhookRow> {
    const row = await webhooksRepo.findById(tx, id);
    if (!row || !maySeeBuyer(viewer, row.buyerId)) throw AppError.notFound('Delivery');
    return row;
  }

  /**
   * A URL naming a private address outright (a literal IP or localhost) is refused when saved, on
   * the field. Names are checked where it counts: on the address connected to, at every delivery.
   */
  function checkUrl(url: string | undefined, field = 'url') {
    if (url === undefined || config.ALLOW_PRIVATE_DELIVERY_TARGETS) return;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const local = host === 'localhost' || host.endsWith('.localhost');
    if (local || (isIP(host) && blockedRange(host))) throw AppError.field(field, PRIVATE_URL);
  }

  /**
   * Every header is one Node's HTTP client sends (the shared schema mirrors the rule; Node's own
   * validators have the last word here): a header it refuses would make every sale to the buyer, and
   * every ping of its segment, fail at the send. The row and the header are named.
   */
  function checkHeaders(delivery: {
    headers?: readonly HeaderRow[];
    ping?: { headers?: readonly HeaderRow[] } | null;
  }) {
    const lists = [
      ['headers', 'Header', delivery.headers],
      ['ping.headers', 'Ping header', delivery.ping?.headers],
    ] as const;
    // A stored list that is not one is left to the send, which answers it as a failure.
    for (const [field, label, rows] of lists)
      (Array.isArray(rows) ? rows : []).forEach((row, index) => {
        const problem = headerProblem(row.header, row.value, label);
        if (problem) throw AppError.field(`${field}.${index}.${problem.part}`, problem.message);
      });
  }

  /**
   * The ping a delivery keeps: a Ping/Post delivery must have one (its URL checked like the post's);
   * a Direct delivery keeps none, so a delivery switched to Direct drops its ping.
   */
  function pingToStore(type: string, ping: WebhookPing | null | undefined): WebhookPing | null {
    if (!isPingPost(type)) return null;
    if (!ping) throw AppError.field('ping', WEBHOOK_MESSAGES.ping);
    checkUrl(ping.url, 'ping.url');
    checkPingServiceFields(ping);
    return ping;
  }

  /**
   * A ping's mapping row naming a service's field (`fields.<key>`) must name a non-personal ping field of
   * some service (issue 33); the row is named. The sender leaves out anything else anyway (pingLead).
   */
  function checkPingServiceFields(ping: WebhookPing) {
    const services = [...engine.snapshot().serviceFields.values()];
    (Array.isArray(ping.map) ? ping.map : []).forEach((row, index) => {
      const name = row.field.trim();
      if (!name.startsWith(SERVICE_FIELD_MAP_PREFIX)) return;
      const problem = pingServiceFieldProblem(name.slice(SERVICE_FIELD_MAP_PREFIX.length), services);
      if (problem) throw AppError.field(`ping.map.${index}.field`, problem);
    });
  }

  function optionalColumns(input: Partial<WebhookCreate> | WebhookUpdate): Partial<WebhookInsert> {
    const columns: Record<string, string | null> = {};
    for (const [api, column] of OPTIONAL_COLUMNS) if (api in input) columns[column] = input[api] ?? null;
    return columns as Partial<WebhookInsert>;
  }

  function copiedColumns(changes: WebhookUpdate): Partial<WebhookInsert> {
    const columns: Record<string, unknown> = {};
    for (const [api, column] of COPIED_COLUMNS) if (changes[api] !== undefined) columns[column] = changes[api];
    return columns as Partial<WebhookInsert>;
  }

  async function get(viewer: Viewer, id: string): Promise<Webhook> {
    return toWebhook(await findVisible(viewer, id));
  }

  return {
    async list(viewer: Viewer, query: WebhookListQuery): Promise<Page<WebhookListItem>> {
      const { rows, total } = await webhooksRepo.list(db, {
        buyerId: buyerScopeOf(viewer) ?? query.buyer,
        name: query.name,
        buyerName: query.buyer_name,
        tag: query.tag,
        ...pageWindow(query),
      });
      return { data: rows.map(toWebhookListItem), total };
    },

    /** GET /api/webhook/new: the blank delivery and the template field list. */
    template(): WebhookTemplate {
      return webhookTemplate(engine.snapshot().serviceFields.values());
    },

    get,

    /** GET /api/webhook/{id}/{action}: `copy` answers an unsaved draft copy of the delivery. */
    async action(viewer: Viewer, id: string, action: string): Promise<WebhookDraft> {
      const row = await findVisible(viewer, id);
      if (!(WEBHOOK_ACTIONS as readonly string[]).includes(action)) throw AppError.notFound('Action');
      return toCopy(row);
    },

    /** Creates a delivery (draft unless a status is given). The admin names the buyer; a buyer creates for itself. */
    async create(viewer: Viewer, input: WebhookCreate): Promise<Webhook> {
      let buyerId: string;
      if (viewer.role === 'admin') {
        if (!input.buyer) throw AppError.field('buyer', WEBHOOK_MESSAGES.buyer);
        buyerId = input.buyer;
      } else {
        // Naming another buyer is naming something this buyer cannot see.
        if (!viewer.roleId || (input.buyer !== undefined && input.buyer !== viewer.roleId))
          throw AppError.notFound('Buyer');
        buyerId = viewer.roleId;
      }
      checkUrl(input.url);
      checkHeaders(input);
      const ping = pingToStore(input.ping_id, input.ping as WebhookPing | undefined);
      const id = newId('whk');
      const now = clock.now();
      await engine.change('webhooks', async (tx) => {
        if ((await webhooksRepo.buyerName(tx, buyerId)) === null) throw AppError.field('buyer', 'Buyer not found');
        await webhooksRepo.insert(tx, {
          id,
          buyerId,
          name: input.name,
          url: input.url,
          method: input.method,
          headers: input.headers,
          accept: input.accept,
          retry: input.retry,
          map: input.map,
          static: input.static,
          ...optionalColumns(input),
          sendContentType: input.send_content_type,
          returnContentType: input.return_content_type,
          pingId: input.ping_id,
          ping,
          status: input.status,
          tags: input.tags,
          createdAt: now,
          updatedAt: now,
        });
      });
      return get(viewer, id);
    },

    /** Applies the changed fields; lists are replaced whole. */
    async update(viewer: Viewer, id: string, changes: WebhookUpdate): Promise<Webhook> {
      checkUrl(changes.url);
      checkHeaders(changes);
      await engine.change('webhooks', async (tx) => {
        const row = await findVisible(viewer, id, tx);
        const columns: Partial<WebhookInsert> = {
          ...copiedColumns(changes),
          ...optionalColumns(changes),
          updatedAt: clock.now(),
        };
        if (changes.ping_id !== undefined || changes.ping !== undefined)
          columns.ping = pingToStore(
            changes.ping_id ?? row.pingId,
            changes.ping === undefined ? row.ping : (changes.ping as WebhookPing | null),
          );
        await webhooksRepo.update(tx, id, columns);
      });
      return get(viewer, id);
    },

    /**
     * POST /api/webhook/{id}/test: sends the sample lead, with the `test_<field>` values typed in
     * the Test modal, through the stored delivery, and answers what was sent and what came back.
     */
    async test(viewer: Viewer, id: string, values: WebhookTestInput): Promise<WebhookTestResult> {
      const webhook = toWebhook(await findVisible(viewer, id));
      // A delivery saved before headers were checked is refused here as it would be at a save.
      checkHeaders(webhook);
      const services = [...engine.snapshot().serviceFields.values()];
      const lead = testLead(values, services);
      const options = { ...network, allowPrivate: config.ALLOW_PRIVATE_DELIVERY_TARGETS };
      let ping: WebhookPingTestResult | undefined;
      if (webhook.ping) {
        // Ping/Post: the test ping first, as at a source's ping; the test post then echoes the buyer's id of the bid.
        const { call, result } = await sendPing(
          pingPostDelivery(webhook, webhook.ping),
          Object.fromEntries(
            [...PING_FIELD_NAMES, ...pingDeliveryFields(services)].map((field) => [field, lead[field]]),
          ),
          { pingKey: newPingId(), signingSecret: config.LEADEX_SECRET, at: clock.now(), deliver: options },
        );
        ping = {
          ...testAnswer(result),
          accept: call.outcome === 'bid',
          outcome: call.outcome,
          ...(call.bidCents !== null ? { bid: centsToDollars(call.bidCents) } : {}),
          ...(call.buyerPingId !== null ? { buyer_ping_id: call.buyerPingId } : {}),
          ...(call.error !== null ? { reason: call.error } : {}),
        };
        if (call.buyerPingId !== null) lead.buyer_ping_id = call.buyerPingId;
      }
      const result = await deliverCustom(webhook, lead, options);
      return {
        ...testAnswer(result),
        accept: result.accepted,
        ...(result.returnId !== undefined ? { returnId: result.returnId } : {}),
        ...(result.reason !== undefined ? { reason: result.reason } : {}),
        ...(result.retryAnswer ? { retry: true } : {}),
        ...(ping ? { ping } : {}),
      };
    },

    /**
     * A buyer's live custom deliveries, ready for deliverCustom: what a sale to the buyer runs
     * (DESIGN.md §6). `tx` lets the sale read them in its own transaction.
     */
    async liveDeliveriesOf(buyerId: string, tx: Db | Tx = db): Promise<LiveDelivery[]> {
      return (await webhooksRepo.liveOfBuyer(tx, buyerId)).map(toWebhook);
    },

    /** Keeps a delivery's last failure for the buyer's campaigns (DESIGN.md §6); a success clears it. */
    noteOutcome(id: string, failure: string | null, at: Date): Promise<void> {
      return webhooksRepo.noteOutcome(db, id, failure, at);
    },

    /** The options every delivery of this exchange runs with (the sale adds its 3 s timeout). */
    deliverOptions(options: Omit<DeliverOptions, 'allowPrivate'> = {}): DeliverOptions {
      return { ...network, ...options, allowPrivate: config.ALLOW_PRIVATE_DELIVERY_TARGETS };
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

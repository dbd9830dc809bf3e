import type { Config } from './config';
import type { Db } from './db/client';
import { logBackgroundError } from './db/unavailable';
import { seedDemo, seedReferenceData } from './demo/seed';
import { createEngine, type Engine } from './distribution/engine';
import { createSale } from './distribution/sale';
import { createJobs, type Jobs } from './jobs';
import { billingRunJob } from './jobs/billing-run';
import { evidencePurgeJob } from './jobs/purge-consent-evidence';
import { idempotencyPurgeJob } from './jobs/purge-idempotency-keys';
import { type Clock, isMockable } from './lib/clock';
import { createLogger, type Logger } from './lib/logger';
import type { OutboundNetwork } from './lib/outbound-http';
import { createStripe } from './lib/stripe';
import { type Auth, createAuth } from './modules/auth/auth';
import { createSessionService, type SessionService } from './modules/auth/session.service';
import { createSessionReader, type SessionReader } from './modules/auth/session-reader';
import { createSignInLimit, type SignInLimit } from './modules/auth/sign-in-limit';
import { type BillPayments, createBillPayments } from './modules/bills/bill-payments';
import { type BillsService, createBillsService } from './modules/bills/bills.service';
import { buyerSpend } from './modules/bills/buyer-spend';
import { type CardsService, createCardsService } from './modules/bills/cards.service';
import { type BuyersService, createBuyersService } from './modules/buyers/buyers.service';
import { type CampaignsService, createCampaignsService } from './modules/campaigns/campaigns.service';
import { type AccessLogService, createAccessLogService } from './modules/compliance/access-log.service';
import { type ComplianceService, createComplianceService } from './modules/compliance/compliance.service';
import { dropJob } from './modules/compliance/drop.jobs';
import { createDropService, type DropService } from './modules/compliance/drop.service';
import { erasureJobs } from './modules/compliance/erasure.jobs';
import { createErasureService, type ErasureService } from './modules/compliance/erasure.service';
import { type BidsService, createBidsService } from './modules/deliveries/bids/bids.service';
import { createInlineDeliveries } from './modules/deliveries/custom/inline';
import { createPinger } from './modules/deliveries/custom/ping';
import { createWebhooksService, type WebhooksService } from './modules/deliveries/custom/webhooks.service';
import { createChannels } from './modules/deliveries/notify/channels';
import { createDeliveryLog } from './modules/deliveries/notify/delivery-log';
import { createBuyerNotices } from './modules/deliveries/notify/notice';
import { createNotifyHandler } from './modules/deliveries/notify/notify';
import { createMailer, type Mailer } from './modules/deliveries/outbox/mailer';
import { createOutboxService, type OutboxService } from './modules/deliveries/outbox/outbox.service';
import { createWhitelist } from './modules/deliveries/outbox/whitelist';
import { type AdSpendService, createAdSpendService } from './modules/integrations/ad-spend.service';
import { adSpendImportJob, integrationsRefreshJob } from './modules/integrations/integrations.jobs';
import { createIntegrationsService, type IntegrationsService } from './modules/integrations/integrations.service';
import { createLeadsService, type LeadsService } from './modules/leads/leads.service';
import { createMessagesService, type MessagesService } from './modules/messages/messages.service';
import { createReferenceService, type ReferenceService } from './modules/reference/reference.service';
import { createReturnsService, type ReturnsService } from './modules/returns/returns.service';
import { createServiceFieldsService, type ServiceFieldsService } from './modules/service-fields/service-fields.service';
import { createSettingsService, type SettingsService } from './modules/settings/settings.service';
import { createSignupService, type SignupService } from './modules/signup/signup.service';
import { createMockDate, type MockDate } from './modules/sim/mock-date';
import { createSimService, type SimService } from './modules/sim/sim.service';
import { createSourceApiService, type SourceApiService } from './modules/source-api/source-api.service';
import { createSourcesService, type SourcesService } from './modules/sources/sources.service';
import { createStatsService, type StatsService } from './modules/stats/stats.service';
import { statsRollupJob } from './modules/stats/stats-rollup';
import {
  createSuppressionService,
  optOutNotice,
  type SuppressionService,
} from './modules/suppression/suppression.service';
import { createSystemService, type SystemService } from './modules/system/system.service';
import { createUsersService, type UsersService } from './modules/users/users.service';
import { createZipsService, type ZipsService } from './modules/zips/zips.service';

/** Everything the app is built from; tests build their own (fresh database, fixed clock). */
export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  auth: Auth;
  /** Who a request's session cookie belongs to (before better-auth, see session-reader.ts). */
  sessionReader: SessionReader;
  engine: Engine;
  /** The process's logger; Fastify logs requests through it too. */
  logger: Logger;
  /** Job workers (deliveries); started by main.ts where LEADEX_ROLE runs them, or by a test. */
  jobs: Jobs;
  /** Pays closed bills through Stripe and hears Stripe's webhooks. */
  payments: BillPayments;
  /** The simulator's mock date, where the clock may be moved (never in production). */
  mockDate: MockDate | null;
  /** The simulator's tools (never in production, where its routes do not exist). */
  sim: SimService | null;
  /**
   * The engine and the source API as deps.ts builds them, on another clock and a fresh engine: the demo
   * sells its past leads on a clock it moves. Its sales wake no delivery (the demo's history is backdated).
   */
  exchangeOn: (clock: Clock) => { engine: Engine; sourceApi: SourceApiService };
  services: {
    users: UsersService;
    buyers: BuyersService;
    sourceApi: SourceApiService;
    campaigns: CampaignsService;
    sources: SourcesService;
    zips: ZipsService;
    webhooks: WebhooksService;
    bills: BillsService;
    cards: CardsService;
    leads: LeadsService;
    /** Consent evidence and calling windows (issue 34 items 3 and 5). */
    compliance: ComplianceService;
    /** Who saw what (issue 35 item 5). */
    accessLog: AccessLogService;
    /** Erasure on request and by retention (issue 35 items 1 and 4). */
    erasure: ErasureService;
    drop: DropService;
    returns: ReturnsService;
    messages: MessagesService;
    outbox: OutboxService;
    bids: BidsService;
    reference: ReferenceService;
    /** The services' own fields (issue 33). */
    serviceFields: ServiceFieldsService;
    sessions: SessionService;
    signInLimit: SignInLimit;
    stats: StatsService;
    integrations: IntegrationsService;
    adSpend: AdSpendService;
    signup: SignupService;
    /** The exchange's time zone setting (docs/decisions.md "One clock"). */
    settings: SettingsService;
    /** Readiness and liveness (GET /api/health, /api/live). */
    system: SystemService;
    /** Suppression lists and opt-outs (issue 34): `add` and `isSuppressed` for other modules. */
    suppression: SuppressionService;
  };
}

/**
 * The composition root: every service, the sale and the jobs' definitions are built here, once, on
 * one database and clock (docs/architecture.md); nothing else builds a service but main.ts, the demo
 * and tests (architecture.test.ts). `network` is how outbound deliveries resolve and
 * reach their targets: the system's in production; tests script it to reach local peers under
 * public names, with the private-address guard on as in production.
 */
export function createDeps(
  config: Config,
  db: Db,
  clock: Clock,
  { network = {}, logger = createLogger(config) }: { network?: OutboundNetwork; logger?: Logger } = {},
): AppDeps {
  const whitelist = createWhitelist(db, config.NODE_ENV === 'production');
  const mailer = createMailer({
    db,
    clock,
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    whitelist,
    // A connected Gmail account sends the exchange's mail instead of SMTP_URL (DESIGN.md §11); the
    // integrations service is built below, the credentials are asked for when a mail goes.
    gmail: { smtpUrl: config.GMAIL_SMTP_URL, credentials: () => integrations.accessToken('gmail') },
  });
  const users = createUsersService({ db, clock, mailer, config });
  // The sign-up service is built below; the hook runs long after (when a link is followed).
  const auth = createAuth({
    config,
    db,
    mailer,
    users,
    logger,
    onSignupVerified: (email) => signup.announceVerified(email),
  });
  const engineOn = (on: Clock) =>
    createEngine({
      db,
      clock: on,
      config,
      onError: (error) => logBackgroundError(logger, error, 'engine: a refresh or a batched write failed'),
    });
  const engine = engineOn(clock);
  const buyers = createBuyersService({ db, clock, users, engine, billing: buyerSpend });
  const messages = createMessagesService({ db, clock, buyers, users });
  const integrations = createIntegrationsService({ db, clock, config, logger, messages });
  const adSpend = createAdSpendService({ db, clock, config, integrations, logger });
  const serviceFields = createServiceFieldsService({ db, clock, engine });
  // The field filters name the services' fields (issue 33): read through their service.
  const campaigns = createCampaignsService({
    db,
    clock,
    engine,
    serviceFields: async (names) => {
      const all = await serviceFields.all();
      return new Map(all.filter((s) => !names || names.includes(s.service)).map((s) => [s.service, s.fields]));
    },
  });
  const stripe = createStripe(config);
  const payments = createBillPayments({ db, clock, stripe, logger, buyers, messages });
  const bills = createBillsService({ db, clock, payments, buyers });
  const channels = createChannels({
    db,
    clock,
    config,
    mailer,
    whitelist,
    network,
    // A service removed since (or unknown): its fields are sent as stored.
    fieldsOf: (service) =>
      serviceFields.ofService(service).then(
        (s) => s.fields,
        () => [],
      ),
  });
  const accessLog = createAccessLogService({ db, clock });
  // The suppression service is built below; an erasure asks for it long after.
  const erasure = createErasureService({
    db,
    clock,
    accessLog,
    suppress: (kind, value) =>
      suppression.add({ scope: 'global', kind, value, reason: 'erasure request', source: 'erasure' }),
    notice: channels.notice,
    logger,
  });
  const drop = createDropService({
    db,
    clock,
    erasure,
    suppressHashes: (kind, hexes) => suppression.addDeletionHashes(kind, hexes),
  });
  // Reads leads through their service, built below (called only once requests and jobs run).
  const compliance = createComplianceService({
    db,
    clock,
    leads: { soldLeadFor: (viewer, id) => leads.soldLeadFor(viewer, id) },
    engine,
    accessLog,
  });
  const jobs = createJobs({
    db,
    config,
    notify: createNotifyHandler({ db, clock, config, channels }),
    logger,
    scheduled: [
      idempotencyPurgeJob({ db, clock }),
      evidencePurgeJob(compliance),
      billingRunJob(bills),
      statsRollupJob({ db, clock }),
      integrationsRefreshJob(integrations),
      adSpendImportJob(adSpend),
      ...erasureJobs(erasure),
      dropJob(drop),
    ],
  });
  const webhooks = createWebhooksService({ db, clock, config, engine, network });
  const buyerNotices = createBuyerNotices({ clock, config, mailer, network });
  const suppression = createSuppressionService({
    db,
    clock,
    secret: config.LEADEX_SECRET,
    buyerExists: async (id) => (await buyers.findRow(id)) !== null,
    notifier: {
      async tell(buyerId, notice) {
        const buyer = await buyers.findRow(buyerId);
        if (!buyer) return;
        const results = await buyerNotices.send(buyerId, buyer.notify, optOutNotice(notice));
        for (const r of results.filter((x) => !x.ok))
          logger.warn({ buyerId, channel: r.channel, error: r.error }, 'opt-out: a buyer could not be told');
      },
    },
    onError: (error) =>
      logBackgroundError(logger, error, 'suppression: reading the ZIP lists or telling a buyer failed'),
  });
  /** The sale and the source API on an engine and a clock; `onSale` wakes the deliveries. */
  const sourceApiOn = (on: Clock, onEngine: Engine, onSale?: () => void) => {
    const sale = createSale({
      db,
      clock: on,
      engine: onEngine,
      secret: config.LEADEX_SECRET,
      groupMin: config.SALE_GROUP_MIN,
      onSale,
      logger,
      suppression: suppression.check,
      inline: createInlineDeliveries({
        webhooks,
        clock: on,
        liveBuyers: () => onEngine.snapshot().liveDeliveryBuyers,
        fieldsOf: (service) => onEngine.snapshot().fieldsOf(service),
        publicUrl: config.PUBLIC_URL,
      }),
      pinger: createPinger({
        clock: on,
        secret: config.LEADEX_SECRET,
        deliverOptions: () => webhooks.deliverOptions(),
        fieldsOf: (service) => onEngine.snapshot().fieldsOf(service),
      }),
    });
    return createSourceApiService({
      clock: on,
      engine: onEngine,
      secret: config.LEADEX_SECRET,
      sale,
      suppression: suppression.check,
      trustedFormCertIdSecret: config.TRUSTEDFORM_CERT_ID_SECRET,
    });
  };
  const sourceApi = sourceApiOn(clock, engine, () => jobs.kick());
  const exchangeOn = (on: Clock) => {
    const movedEngine = engineOn(on);
    return { engine: movedEngine, sourceApi: sourceApiOn(on, movedEngine) };
  };
  const sources = createSourcesService({ db, clock, users, engine, secret: config.LEADEX_SECRET });
  const zips = createZipsService({ db, clock, engine });
  const signup = createSignupService({
    clock,
    engine,
    users,
    sources,
    messages,
    sendVerification: async (email) => {
      await auth.api.sendVerificationEmail({ body: { email } });
    },
  });
  const leads = createLeadsService({
    db,
    clock,
    deliveryLog: createDeliveryLog({ db }),
    serviceFields,
    accessLog,
  });
  const outbox = createOutboxService({ db, clock });
  const services: AppDeps['services'] = {
    users,
    buyers,
    sourceApi,
    campaigns,
    sources,
    zips,
    webhooks,
    bills,
    cards: createCardsService({ db, stripe, config, buyers }),
    leads,
    compliance,
    accessLog,
    erasure,
    drop,
    returns: createReturnsService({ db, clock }),
    messages,
    outbox,
    bids: createBidsService({ db }),
    reference: createReferenceService({ db }),
    serviceFields,
    sessions: createSessionService(db, users),
    signInLimit: createSignInLimit(db, clock, config.SIGN_IN_FAILURES_BEFORE_DELAY, users),
    stats: createStatsService(db, clock, buyers),
    integrations,
    adSpend,
    settings: createSettingsService({ db, clock }),
    signup,
    system: createSystemService({ db, clock }),
    suppression,
  };
  const production = config.NODE_ENV === 'production';
  const mockDate = !production && isMockable(clock) ? createMockDate({ db, clock }) : null;
  const sim = production
    ? null
    : createSimService({
        db,
        engine,
        leads,
        outbox,
        sourceApi,
        mockDate,
        // The reset seeds again as a start does (main.ts): reference data, the admin, the demo when on.
        reseed: async () => {
          await seedReferenceData({ db });
          await users.ensureAdmin();
          if (config.SEED_DEMO) await seedDemo({ clock, services, exchangeOn });
        },
      });
  return {
    config,
    db,
    clock,
    mailer,
    auth,
    sessionReader: createSessionReader({ auth, db, secret: config.LEADEX_SECRET }),
    engine,
    logger,
    jobs,
    payments,
    mockDate,
    sim,
    services,
    exchangeOn,
  };
}

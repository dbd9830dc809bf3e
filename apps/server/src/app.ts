import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { Db } from './db/client';
import { createEngine, type Engine } from './distribution/engine';
import { createJobs, type Jobs } from './jobs';
import type { Clock } from './lib/clock';
import { newId } from './lib/ids';
import { createLogger, type Logger } from './lib/logger';
import type { OutboundNetwork } from './lib/outbound-http';
import type { Auth } from './modules/auth/auth';
import { createAuth } from './modules/auth/auth';
import { authRoutes } from './modules/auth/auth.routes';
import { billRoutes } from './modules/bills/bills.routes';
import { buyerRoutes } from './modules/buyers/buyers.routes';
import { type BuyersService, createBuyersService } from './modules/buyers/buyers.service';
import { campaignRoutes } from './modules/campaigns/campaigns.routes';
import { type CampaignsService, createCampaignsService } from './modules/campaigns/campaigns.service';
import { createInlineDeliveries } from './modules/deliveries/inline';
import { webhookRoutes } from './modules/deliveries/webhooks.routes';
import { createWebhooksService, type WebhooksService } from './modules/deliveries/webhooks.service';
import { leadRoutes } from './modules/leads/leads.routes';
import { messageRoutes } from './modules/messages/messages.routes';
import { notifyRoutes } from './modules/notify/notify.routes';
import { createMailer, type Mailer } from './modules/outbox/mailer';
import { outboxRoutes } from './modules/outbox/outbox.routes';
import { referenceRepo } from './modules/reference/reference.repo';
import { referenceRoutes } from './modules/reference/reference.routes';
import { simRoutes } from './modules/sim/sim.routes';
import { sourceApiRoutes } from './modules/source-api/source-api.routes';
import { createSourceApiService, type SourceApiService } from './modules/source-api/source-api.service';
import { sourceRoutes } from './modules/sources/sources.routes';
import { createSourcesService, type SourcesService } from './modules/sources/sources.service';
import { statsRoutes } from './modules/stats/stats.routes';
import { createUsersService, type UsersService } from './modules/users/users.service';
import { zipRoutes } from './modules/zips/zips.routes';
import { createZipsService, type ZipsService } from './modules/zips/zips.service';
import { registerAuthGuards } from './plugins/auth';
import { registerErrorHandler } from './plugins/errors';
import { registerInputHygiene } from './plugins/input-hygiene';
import { createOriginPolicy, registerOriginCheck } from './plugins/origins';
import { defaultWebDist, registerSpa } from './plugins/spa';

/** Everything the app is built from; tests build their own (fresh database, fixed clock). */
export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  auth: Auth;
  engine: Engine;
  /** The process's logger; Fastify logs requests through it too. */
  logger: Logger;
  /** Job workers (deliveries); started by main.ts where LEADEX_ROLE runs them, or by a test. */
  jobs: Jobs;
  services: {
    users: UsersService;
    buyers: BuyersService;
    sourceApi: SourceApiService;
    campaigns: CampaignsService;
    sources: SourcesService;
    zips: ZipsService;
    webhooks: WebhooksService;
  };
}

/**
 * Wires the services onto one database and clock. `network` is how outbound deliveries resolve and
 * reach their targets: the system's in production; tests script it to reach local peers under
 * public names, with the private-address guard on as in production.
 */
export function createDeps(
  config: Config,
  db: Db,
  clock: Clock,
  { network = {}, logger = createLogger(config) }: { network?: OutboundNetwork; logger?: Logger } = {},
): AppDeps {
  const mailer = createMailer({ db, clock, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
  const auth = createAuth({ config, db, mailer });
  const users = createUsersService({ db, clock, mailer, config });
  const engine = createEngine({
    db,
    clock,
    config,
    onError: (error) => logger.error({ err: error }, 'engine: a refresh or a batched write failed'),
  });
  const buyers = createBuyersService({ db, clock, users, engine });
  const campaigns = createCampaignsService({ db, clock, engine });
  const jobs = createJobs({ db, clock, config, mailer, network, logger });
  const webhooks = createWebhooksService({ db, clock, config, engine, network });
  const sourceApi = createSourceApiService({
    db,
    clock,
    engine,
    secret: config.LEADEX_SECRET,
    onSale: () => jobs.kick(),
    logger,
    inline: createInlineDeliveries({ webhooks, clock, liveBuyers: () => engine.snapshot().liveDeliveryBuyers }),
  });
  const sources = createSourcesService({ db, clock, users, engine, secret: config.LEADEX_SECRET });
  const zips = createZipsService({ db, clock, engine });
  return {
    config,
    db,
    clock,
    mailer,
    auth,
    engine,
    logger,
    jobs,
    services: { users, buyers, sourceApi, campaigns, sources, zips, webhooks },
  };
}

/**
 * The OpenAPI document of the public source API only (ping, post, lead), for sources' docs, with the
 * exchange's services as they are now (`x-services`).
 */
function publicOpenApi(doc: { paths?: Record<string, unknown>; info?: object }, services: string[]) {
  const paths = Object.fromEntries(
    Object.entries(doc.paths ?? {}).filter(([path]) =>
      ['/api/ping', '/api/post', '/api/lead', '/api/services'].includes(path),
    ),
  );
  return { ...doc, info: { ...doc.info, title: 'Leadex source API' }, paths, 'x-services': services };
}

/** Builds the HTTP app; it never listens (main.ts does, tests use `inject`). */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    // One logger for requests and services (pino); typed as Fastify's so route plugins keep their types.
    loggerInstance: deps.logger as FastifyBaseLogger,
    requestIdHeader: 'x-request-id',
    genReqId: () => newId('req'),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1_048_576,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const https = config.PUBLIC_URL.startsWith('https://');
  await app.register(helmet, {
    hsts: https,
    contentSecurityPolicy: {
      directives: {
        'upgrade-insecure-requests': https ? [] : null,
        // Mantine writes style tags at run time.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
      },
    },
  });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Leadex API',
        version: '1.0.0',
        description: 'The lead exchange: back office, portals and the public source API.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  registerErrorHandler(app);
  // In the order they run: where the request comes from, who sends it, then what it carries.
  registerOriginCheck(app, createOriginPolicy(config));
  registerAuthGuards(app, deps.auth);
  registerInputHygiene(app);

  await app.register(
    async (api) => {
      api.get('/health', { schema: { tags: ['system'] } }, async () => ({
        ok: true,
        ts: Math.floor(deps.clock.now().getTime() / 1000),
      }));
      api.get('/openapi.json', { onRequest: api.requireRole('admin'), schema: { hide: true } }, async () =>
        app.swagger(),
      );
      api.get('/openapi/public.json', { schema: { hide: true } }, async () =>
        publicOpenApi(
          app.swagger() as { paths?: Record<string, unknown>; info?: object },
          await referenceRepo.serviceNames(deps.db),
        ),
      );
      await api.register(authRoutes, deps);
      await api.register(outboxRoutes, deps);
      await api.register(referenceRoutes, deps);
      await api.register(zipRoutes, deps);
      await api.register(buyerRoutes, deps);
      await api.register(billRoutes, deps);
      await api.register(campaignRoutes, deps);
      await api.register(webhookRoutes, deps);
      await api.register(sourceApiRoutes, deps);
      await api.register(sourceRoutes, deps);
      await api.register(leadRoutes, deps);
      await api.register(notifyRoutes, deps);
      await api.register(messageRoutes, deps);
      await api.register(statsRoutes, deps);
      // The simulator exists only outside production (DESIGN.md §8).
      if (config.NODE_ENV !== 'production') await api.register(simRoutes, deps);
    },
    { prefix: '/api' },
  );

  // The engine's index lives as long as the app: loaded before the first request, flushed at close.
  app.addHook('onReady', () => deps.engine.start());
  app.addHook('onClose', () => deps.engine.stop());
  app.addHook('onClose', () => deps.jobs.stop());

  await registerSpa(app, config.WEB_DIST ?? defaultWebDist());
  return app;
}

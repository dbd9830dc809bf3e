import swagger from '@fastify/swagger';
import {
  type ServiceFieldsAnswer,
  SOURCE_API_REASONS,
  serviceFieldExamples,
  serviceFieldsJsonSchema,
} from '@leadex/domain';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import type { AppDeps } from './deps';
import { newId } from './lib/ids';
import { type Logger, requestLoggerFactory } from './lib/logger';
import { authRoutes } from './modules/auth/auth.routes';
import { billRoutes } from './modules/bills/bills.routes';
import { cardRoutes } from './modules/bills/cards.routes';
import { stripeWebhookRoutes } from './modules/bills/stripe-webhook.routes';
import { buyerRoutes } from './modules/buyers/buyers.routes';
import { campaignRoutes } from './modules/campaigns/campaigns.routes';
import { complianceRoutes } from './modules/compliance/compliance.routes';
import { dropRoutes } from './modules/compliance/drop.routes';
import { privacyRoutes } from './modules/compliance/privacy.routes';
import { bidsRoutes } from './modules/deliveries/bids/bids.routes';
import { webhookRoutes } from './modules/deliveries/custom/webhooks.routes';
import { notifyRoutes } from './modules/deliveries/notify/notify.routes';
import { outboxRoutes } from './modules/deliveries/outbox/outbox.routes';
import { integrationRoutes } from './modules/integrations/integrations.routes';
import { leadRoutes } from './modules/leads/leads.routes';
import { messageRoutes } from './modules/messages/messages.routes';
import { referenceRoutes } from './modules/reference/reference.routes';
import { returnRoutes } from './modules/returns/returns.routes';
import { serviceFieldRoutes } from './modules/service-fields/service-fields.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { signupRoutes } from './modules/signup/signup.routes';
import { simRoutes } from './modules/sim/sim.routes';
import { sourceApiRoutes } from './modules/source-api/source-api.routes';
import { sourceRoutes } from './modules/sources/sources.routes';
import { statsRoutes } from './modules/stats/stats.routes';
import { suppressionRoutes } from './modules/suppression/suppression.routes';
import { systemRoutes } from './modules/system/system.routes';
import { zipRoutes } from './modules/zips/zips.routes';
import { serializerCompiler } from './plugins/answers';
import { registerAuthGuards } from './plugins/auth';
import { registerErrorHandler } from './plugins/errors';
import { registerInputHygiene } from './plugins/input-hygiene';
import { createOriginPolicy, registerOriginCheck } from './plugins/origins';
import { defaultWebDist, registerSpa } from './plugins/spa';

/**
 * The OpenAPI document of the public source API only (ping, post, lead), for sources' docs, with the
 * exchange's services as they are now (`x-services`) and what each reason code means (`x-reasons`).
 */
function publicOpenApi(
  doc: { paths?: Record<string, unknown>; info?: object },
  services: string[],
  fields: readonly ServiceFieldsAnswer[] = [],
) {
  const paths = Object.fromEntries(
    Object.entries(doc.paths ?? {}).filter(([path]) =>
      ['/api/ping', '/api/post', '/api/lead', '/api/services'].includes(path),
    ),
  );
  return {
    ...doc,
    info: { ...doc.info, title: 'Leadex source API' },
    paths,
    'x-services': services,
    'x-reasons': SOURCE_API_REASONS,
    // Each service's own fields (issue 33): a JSON Schema of them, the definitions, an example ping and post.
    'x-service-fields': fields
      .filter((s) => s.fields.some((f) => !f.removed))
      .map((s) => ({
        service: s.service,
        fields: s.fields.filter((f) => !f.removed),
        schema: serviceFieldsJsonSchema(s.fields),
        examples: serviceFieldExamples(s.service, s.fields),
      })),
  };
}

/**
 * What Stripe documents for Elements (https://docs.stripe.com/security/guide#content-security-policy):
 * Stripe.js and its frames from js.stripe.com, 3-D Secure frames from hooks.stripe.com, its calls to
 * api.stripe.com. Only an exchange that takes cards (STRIPE_PUBLISHABLE_KEY) opens its policy to them.
 */
export const STRIPE_ELEMENTS_SOURCES = {
  'script-src': ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com'],
  'frame-src': ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  'connect-src': ["'self'", 'https://api.stripe.com'],
};

/**
 * Builds the HTTP app; it never listens (main.ts does, tests use `inject`). Each route plugin is given
 * only the services it uses (docs/architecture.md).
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, services } = deps;
  const app = Fastify({
    // One logger for requests and services (pino); typed as Fastify's so route plugins keep their types.
    loggerInstance: deps.logger as FastifyBaseLogger,
    // A request's child logger is made when the request first logs (lib/logger.ts).
    childLoggerFactory: (logger, bindings, options) =>
      requestLoggerFactory(logger as Logger, bindings, options) as unknown as FastifyBaseLogger,
    requestIdHeader: 'x-request-id',
    genReqId: () => newId('req'),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1_048_576,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // API answers carry personal data, API keys and sessions: no browser or proxy keeps a copy
    // (ASVS 8.2.1, issue 29 item 11). A route that may be kept says so itself.
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });

  const https = config.PUBLIC_URL.startsWith('https://');
  // The security headers of every answer, built once: @fastify/helmet rebuilt helmet (and parsed the
  // policy's directives) on every request, a twentieth of a ping's CPU (issue 36). Same headers.
  const securityHeaders = helmet({
    hsts: https,
    contentSecurityPolicy: {
      directives: {
        'upgrade-insecure-requests': https ? [] : null,
        // Mantine writes style tags at run time.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        ...(config.STRIPE_PUBLISHABLE_KEY ? STRIPE_ELEMENTS_SOURCES : {}),
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Leadex API',
        version: '1.0.0',
        description: 'The lead exchange: back office, portals and the public source API.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          // The public source API also takes the key as HTTP Basic's password (issue 32).
          basic: { type: 'http', scheme: 'basic' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  registerErrorHandler(app);
  // In the order they run: where the request comes from, who sends it, then what it carries.
  registerOriginCheck(app, createOriginPolicy(config));
  registerAuthGuards(app, deps.sessionReader);
  registerInputHygiene(app);

  await app.register(
    async (api) => {
      await api.register(systemRoutes, { system: services.system });
      api.get('/openapi.json', { onRequest: api.requireRole('admin'), schema: { hide: true } }, async () =>
        app.swagger(),
      );
      api.get('/openapi/public.json', { schema: { hide: true } }, async () =>
        publicOpenApi(
          app.swagger() as { paths?: Record<string, unknown>; info?: object },
          await services.reference.serviceNames(),
          await services.serviceFields.all(),
        ),
      );
      await api.register(authRoutes, {
        auth: deps.auth,
        signInLimit: services.signInLimit,
        sessions: services.sessions,
        config,
      });
      await api.register(signupRoutes, { signup: services.signup, config });
      await api.register(outboxRoutes, { outbox: services.outbox });
      await api.register(bidsRoutes, { bids: services.bids });
      await api.register(referenceRoutes, { engine: deps.engine, reference: services.reference });
      await api.register(serviceFieldRoutes, { serviceFields: services.serviceFields });
      await api.register(zipRoutes, { zips: services.zips });
      await api.register(suppressionRoutes, { suppression: services.suppression });
      await api.register(buyerRoutes, { buyers: services.buyers });
      await api.register(billRoutes, { bills: services.bills });
      await api.register(stripeWebhookRoutes, { payments: deps.payments, config });
      await api.register(cardRoutes, { cards: services.cards });
      await api.register(campaignRoutes, { campaigns: services.campaigns });
      await api.register(webhookRoutes, { webhooks: services.webhooks, config });
      await api.register(sourceApiRoutes, { sourceApi: services.sourceApi, config });
      await api.register(sourceRoutes, { sources: services.sources });
      await api.register(leadRoutes, { leads: services.leads });
      await api.register(complianceRoutes, { compliance: services.compliance });
      await api.register(privacyRoutes, { accessLog: services.accessLog, erasure: services.erasure });
      await api.register(dropRoutes, { drop: services.drop });
      await api.register(returnRoutes, { returns: services.returns });
      await api.register(notifyRoutes, { jobs: deps.jobs, config });
      await api.register(messageRoutes, { messages: services.messages, config });
      await api.register(statsRoutes, { stats: services.stats });
      await api.register(integrationRoutes, {
        integrations: services.integrations,
        adSpend: services.adSpend,
        config,
      });
      await api.register(settingsRoutes, { settings: services.settings });
      // The simulator exists only outside production (DESIGN.md §8).
      if (config.NODE_ENV !== 'production' && deps.sim)
        await api.register(simRoutes, {
          sim: deps.sim,
          bills: services.bills,
          mockDate: deps.mockDate,
          clock: deps.clock,
          config,
        });
    },
    { prefix: '/api' },
  );

  // The engine's index lives as long as the app: loaded before the first request, flushed at close.
  // The exchange's zone too: every rule that counts days reads it (docs/decisions.md "One clock").
  app.addHook('onReady', () => services.settings.refreshZone());
  app.addHook('onReady', () => deps.engine.start());
  app.addHook('onClose', () => deps.engine.stop());
  app.addHook('onClose', () => deps.jobs.stop());

  await registerSpa(app, config.WEB_DIST ?? defaultWebDist());
  return app;
}

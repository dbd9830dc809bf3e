import cookie from '@fastify/cookie';
import {
  adSpendEntrySchema,
  adSpendListQuery,
  adSpendListSchema,
  adSpendRowSchema,
  adSpendSourcesSchema,
  adSpendUploadResultSchema,
  apiResponses,
  INTEGRATION_INFO,
  INTEGRATION_NAMES,
  type IntegrationName,
  integrationSettingSchema,
  integrationSourceSchema,
  isAdIntegration,
  redirectResponse,
} from '@leadex/domain';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import { AppError } from '../../lib/errors';
import type { AdSpendService } from './ad-spend.service';
import type { IntegrationsService } from './integrations.service';

/** The sealed pending authorization between the redirect and the callback (10 minutes). */
const STATE_COOKIE = 'leadex_oauth';
const STATE_COOKIE_SECONDS = 600;

const nameParams = z.object({ name: z.enum(INTEGRATION_NAMES) });
const settingAnswer = apiResponses(integrationSettingSchema);
const callbackQuery = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

/**
 * Admin spec §2 Settings and §7 "Other admin": GET /setting/allForCat/integration, the browser
 * redirects to the providers (/facebook/ads-auth, /google/ads-auth, /google/gmail-auth) and their
 * callbacks; the ad spend of internal sources (DESIGN.md §11 Integrations).
 */
export const integrationRoutes: FastifyPluginAsyncZod<{
  integrations: IntegrationsService;
  adSpend: AdSpendService;
  config: Pick<Config, 'PUBLIC_URL'>;
}> = async (app, { integrations, adSpend, config }) => {
  await app.register(cookie);
  const secure = config.PUBLIC_URL.startsWith('https:');
  app.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  /** A browser navigation ends on the Settings page, which says how it went. */
  const backToSettings = (reply: FastifyReply, name: IntegrationName, error?: unknown) => {
    const query = new URLSearchParams(
      error === undefined
        ? { connected: name }
        : {
            integration: name,
            integrationError:
              error instanceof AppError
                ? error.message
                : `${INTEGRATION_INFO[name].label} could not be connected. Try again.`,
          },
    );
    return reply.redirect(`/settings?${query}`);
  };

  app.get(
    '/setting/allForCat/integration',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags: ['admin'], response: apiResponses(z.array(integrationSettingSchema)) },
    },
    () => integrations.list(),
  );

  app.put(
    '/setting/integration/:name',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags: ['admin'], params: nameParams, body: integrationSourceSchema, response: settingAnswer },
    },
    (request) => {
      const { name } = request.params;
      if (!isAdIntegration(name))
        throw AppError.field('sourceId', `${INTEGRATION_INFO[name].label} imports no ad spend.`);
      return adSpend.chooseSource(name, request.body.sourceId);
    },
  );

  app.delete(
    '/setting/integration/:name',
    { onRequest: app.requireRole('admin'), schema: { tags: ['admin'], params: nameParams, response: settingAnswer } },
    (request) => integrations.disconnect(request.params.name),
  );

  for (const name of INTEGRATION_NAMES) {
    const path = INTEGRATION_INFO[name].authPath.replace(/^\/api/, '');
    app.get(
      path,
      { onRequest: app.requireRole('admin'), schema: { tags: ['admin'], response: redirectResponse } },
      (request, reply) => {
        try {
          const { url, sealed } = integrations.authorize(name, request.viewer().userId);
          reply.setCookie(STATE_COOKIE, sealed, {
            path: '/api/',
            httpOnly: true,
            sameSite: 'lax',
            secure,
            maxAge: STATE_COOKIE_SECONDS,
          });
          return reply.redirect(url);
        } catch (error) {
          return backToSettings(reply, name, error);
        }
      },
    );

    app.get(
      `${path}/callback`,
      {
        onRequest: app.requireRole('admin'),
        schema: { tags: ['admin'], querystring: callbackQuery, response: redirectResponse },
      },
      async (request, reply) => {
        const sealed = request.cookies[STATE_COOKIE];
        reply.clearCookie(STATE_COOKIE, { path: '/api/' });
        try {
          await integrations.callback(name, request.query, sealed, request.viewer().userId);
          return backToSettings(reply, name);
        } catch (error) {
          if (!(error instanceof AppError)) request.log.error({ err: error }, 'integrations: a callback failed');
          return backToSettings(reply, name, error);
        }
      },
    );
  }

  app.get(
    '/ad-spend/sources',
    { onRequest: app.requireRole('admin'), schema: { tags: ['admin'], response: apiResponses(adSpendSourcesSchema) } },
    () => adSpend.sources(),
  );

  app.get(
    '/ad-spend',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags: ['admin'], querystring: adSpendListQuery, response: apiResponses(adSpendListSchema) },
    },
    (request) => adSpend.list(request.query.days),
  );

  app.put(
    '/ad-spend',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags: ['admin'], body: adSpendEntrySchema, response: apiResponses(adSpendRowSchema) },
    },
    (request) => adSpend.save(request.body),
  );

  app.post(
    '/ad-spend/csv',
    {
      onRequest: app.requireRole('admin'),
      schema: { tags: ['admin'], body: z.string().max(1_000_000), response: apiResponses(adSpendUploadResultSchema) },
    },
    (request) => adSpend.upload(request.body),
  );
};

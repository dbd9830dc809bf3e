import { apiResponses, exchangeZoneAnswerSchema } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SettingsService } from './settings.service';

/**
 * /api/setting/zone: the exchange's time zone (docs/decisions.md "One clock"). Every signed-in user
 * learns it with the session claims; only the admin reads and changes it here.
 */
export const settingsRoutes: FastifyPluginAsyncZod<{ settings: SettingsService }> = async (app, { settings }) => {
  const admin = app.requireRole('admin');
  const zoneAnswer = apiResponses(exchangeZoneAnswerSchema);

  app.get('/setting/zone', { onRequest: admin, schema: { tags: ['admin'], response: zoneAnswer } }, () =>
    settings.zone(),
  );

  // The body is checked by the service, so a bad zone answers with the field's own message.
  app.put('/setting/zone', { onRequest: admin, schema: { tags: ['admin'], response: zoneAnswer } }, (request) =>
    settings.setZone(request.body),
  );
};

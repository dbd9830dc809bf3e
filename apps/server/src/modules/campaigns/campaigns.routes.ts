import {
  apiResponses,
  campaignCreateSchema,
  campaignListItemSchema,
  campaignListQuery,
  campaignSchema,
  campaignUpdateSchema,
  filterFieldListSchema,
  filterFieldsQuery,
  nameListSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pagedListRoute, scopedRecordRoutes } from '../../lib/http';
import type { CampaignsService } from './campaigns.service';

/**
 * /api/match: campaigns (admin §7, portals §7). Admins see and change every campaign; a buyer only
 * its own, without source restrictions. Another buyer's campaign answers 404.
 */
export const campaignRoutes: FastifyPluginAsyncZod<{ campaigns: CampaignsService }> = async (app, { campaigns }) => {
  const adminOrBuyer = app.requireRole('admin', 'buyer');
  const tags = ['campaigns'];

  pagedListRoute(
    app,
    '/match',
    { onRequest: adminOrBuyer, tags, querystring: campaignListQuery, item: campaignListItemSchema },
    (query, request) => campaigns.list(request.viewer(), query),
  );

  // The service filter's choices: the services the viewer's campaigns buy (a bare array).
  app.get(
    '/match/services',
    { onRequest: adminOrBuyer, schema: { tags, response: apiResponses(nameListSchema) } },
    (request) => campaigns.servicesInUse(request.viewer()),
  );

  // The Field Filters' picker: the fields of the services a campaign buys (issue 33).
  app.get(
    '/match/fields',
    {
      onRequest: adminOrBuyer,
      schema: { tags, querystring: filterFieldsQuery, response: apiResponses(filterFieldListSchema) },
    },
    (request) => campaigns.filterFields(request.query.services),
  );

  scopedRecordRoutes(
    app,
    '/match',
    {
      onRequest: adminOrBuyer,
      tags,
      record: campaignSchema,
      create: campaignCreateSchema,
      update: campaignUpdateSchema,
    },
    campaigns,
  );
};

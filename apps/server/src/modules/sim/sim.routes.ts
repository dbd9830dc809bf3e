import { randomInt } from 'node:crypto';
import { simBillingQuery, simLeadSchema, simMockDateSchema, simPingPostSchema } from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps';
import { toEpochSeconds } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { leadSchema, pingSchema, postSchema } from '../source-api/source-api.schema';

const FIRST = ['Avery', 'Jordan', 'Morgan', 'Riley', 'Casey', 'Taylor', 'Jamie', 'Quinn'];
const LAST = ['Nguyen', 'Garcia', 'Smith', 'Johnson', 'Patel', 'Brown', 'Lopez', 'Kim'];

/** A made-up consumer for simulated leads: a valid, random US phone and email. */
export function simulatedContact() {
  const first = FIRST[randomInt(FIRST.length)] as string;
  const last = LAST[randomInt(LAST.length)] as string;
  const phone = `${randomInt(2, 10)}${randomInt(0, 10)}${randomInt(0, 10)}${randomInt(2, 10)}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
  return {
    name: `${first} ${last}`,
    phone,
    email: `${first}.${last}.${randomInt(1_000_000)}@example.com`.toLowerCase(),
    tcpa_consent: true,
    homeowner: true,
  };
}

/**
 * The simulator's calls (admin spec §7): a ping-post or a direct lead through the real engine, as a
 * chosen source, answered with every campaign considered. Only outside production.
 */
export const simRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, { services, engine, config, clock, mockDate }) => {
  const admin = app.requireRole('admin');
  const meta = { ip: '127.0.0.1', userAgent: 'Leadex simulator' };

  const explanationOf = async (leadId: unknown) =>
    typeof leadId === 'string' ? services.leads.explanationOf(leadId) : [];

  app.post(
    '/sim/pingpost',
    { onRequest: admin, schema: { tags: ['sim'], body: simPingPostSchema } },
    async (request) => {
      const { Project, Source, Zip, minprice } = request.body;
      const caller = engine.callerFor(Source);
      const ping = services.sourceApi.pingAs(caller, pingSchema.parse({ service: Project, zip: Zip, minprice }));
      if (!ping.body.ok) return { ok: true, ping: ping.body, explanation: ping.explanation };
      const post = await services.sourceApi.postAs(
        caller,
        postSchema.parse({ ping_id: ping.body.ping_id, ...simulatedContact() }),
        meta,
      );
      return { ok: true, ping: ping.body, post: post.body, explanation: await explanationOf(post.body.lead_id) };
    },
  );

  app.post('/sim/lead', { onRequest: admin, schema: { tags: ['sim'], body: simLeadSchema } }, async (request) => {
    const { Project, Source, Zip } = request.body;
    const lead = await services.sourceApi.leadAs(
      engine.callerFor(Source),
      leadSchema.parse({ service: Project, zip: Zip, ...simulatedContact() }),
      meta,
    );
    return { ok: true, lead: lead.body, explanation: await explanationOf(lead.body.lead_id) };
  });

  // The billing run now (admin spec §7: POST /sim/billing), at the injected clock's time; it pays the
  // closed bills only when asked (doPayments=true).
  app.post(
    '/sim/billing',
    { onRequest: admin, schema: { tags: ['sim'], querystring: simBillingQuery } },
    async (request) => ({ ok: true, ...(await services.bills.run({ doPayments: request.query.doPayments })) }),
  );

  // The mock date (admin spec §7: POST /sim/mockDate, a date or reset), shared by every process.
  app.post('/sim/mockDate', { onRequest: admin, schema: { tags: ['sim'] } }, async (request) => {
    const parsed = simMockDateSchema.safeParse(request.body);
    if (!parsed.success) throw AppError.fromIssues(parsed.error.issues);
    if (!mockDate) throw new AppError('bad_request', 'This clock cannot be moved');
    await mockDate.set('reset' in parsed.data ? null : parsed.data.date);
    return { ok: true, date: toEpochSeconds(clock.now()) };
  });

  app.get('/env', { onRequest: admin, schema: { tags: ['sim'] } }, async () => ({
    ok: true,
    node_env: config.NODE_ENV,
    db: config.DATABASE_URL ? 'postgres' : 'pglite',
    date: toEpochSeconds(clock.now()),
  }));
};

import { Readable } from 'node:stream';
import {
  simBillingQuery,
  simLeadSchema,
  simLeadsSchema,
  simMockDateSchema,
  simPingPostSchema,
  simWhitelistSchema,
} from '@leadex/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps';
import { toEpochSeconds } from '../../lib/clock';
import { AppError } from '../../lib/errors';
import { centsToDollars } from '../../lib/money';
import { leadSchema, pingSchema, postSchema } from '../source-api/source-api.schema';
import { createSimService } from './sim.service';
import { simulatedContact } from './simulated-contact';

/** What a post or a direct lead was answered, in a sentence above its explanation (issue 27). */
type AnsweredBody = { ok?: boolean; status?: string; reason?: string; price?: number };
function answeredOutcome(kind: 'post' | 'lead', body: AnsweredBody) {
  const what = kind === 'post' ? 'The post' : 'The lead';
  if (body.ok && body.status === 'sold')
    return `${what} was answered sold${body.price !== undefined ? ` at $${body.price.toFixed(2)}` : ''}.`;
  return `${what} was answered ${body.reason ?? body.status ?? 'no_match'}: no campaign bought it.`;
}

/**
 * The simulator's calls (admin spec §7): a ping-post or a direct lead through the real engine, as a
 * chosen source, answered with every campaign considered. Only outside production.
 */
export const simRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { services, engine, config, clock, mockDate } = deps;
  const sim = createSimService(deps);
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
      const ping = await services.sourceApi.pingAs(caller, pingSchema.parse({ service: Project, zip: Zip, minprice }));
      if (!ping.body.ok) {
        const payout = engine.payoutCents(caller.source, null);
        const belowMin = minprice !== undefined && payout < Math.round(minprice * 100);
        return {
          ok: true,
          ping: ping.body,
          outcome: belowMin
            ? `The ping was answered ${ping.body.reason}: the source's payout ($${centsToDollars(payout).toFixed(2)}) is below its minimum price ($${minprice?.toFixed(2)}), so no campaign won.`
            : `The ping was answered ${ping.body.reason}: no campaign would buy it.`,
          explanation: await services.leads.named(ping.explanation),
        };
      }
      const post = await services.sourceApi.postAs(
        caller,
        postSchema.parse({ ping_id: ping.body.ping_id, ...simulatedContact() }),
        meta,
      );
      return {
        ok: true,
        ping: ping.body,
        post: post.body,
        outcome: answeredOutcome('post', post.body as AnsweredBody),
        explanation: await explanationOf(post.body.lead_id),
      };
    },
  );

  app.post('/sim/lead', { onRequest: admin, schema: { tags: ['sim'], body: simLeadSchema } }, async (request) => {
    const { Project, Source, Zip } = request.body;
    const lead = await services.sourceApi.leadAs(
      engine.callerFor(Source, { direct: true }),
      leadSchema.parse({ service: Project, zip: Zip, ...simulatedContact() }),
      meta,
    );
    return {
      ok: true,
      lead: lead.body,
      outcome: answeredOutcome('lead', lead.body as AnsweredBody),
      explanation: await explanationOf(lead.body.lead_id),
    };
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

  // Multiple leads (admin spec §7: POST /sim/leads, count and hit), each lead's outcome streamed as a
  // line of JSON as soon as it is known, so the screen shows the run's progress.
  app.post(
    '/sim/leads',
    { onRequest: admin, schema: { tags: ['sim'], body: simLeadsSchema } },
    async (request, reply) => {
      const outcomes = sim.leads(request.body);
      // The first outcome is awaited here, so a run that cannot start answers with a plain error.
      const first = await outcomes.next();
      async function* lines() {
        if (!first.done) yield `${JSON.stringify(first.value)}\n`;
        for await (const outcome of outcomes) yield `${JSON.stringify(outcome)}\n`;
      }
      return reply.type('application/x-ndjson').send(Readable.from(lines()));
    },
  );

  // The whitelist (admin spec §7: GET and POST /sim/whitelist): where mail and SMS may go outside production.
  app.get('/sim/whitelist', { onRequest: admin, schema: { tags: ['sim'] } }, () => sim.whitelist());
  app.post('/sim/whitelist', { onRequest: admin, schema: { tags: ['sim'], body: simWhitelistSchema } }, (request) =>
    sim.saveWhitelist(request.body),
  );

  // Reset database (admin spec §7: POST /sim/reset-db): every row goes, the seed comes back.
  app.post('/sim/reset-db', { onRequest: admin, schema: { tags: ['sim'] } }, async () => {
    await sim.resetDatabase();
    return { ok: true };
  });

  app.get('/env', { onRequest: admin, schema: { tags: ['sim'] } }, async () => ({
    ok: true,
    node_env: config.NODE_ENV,
    db: config.DATABASE_URL ? 'postgres' : 'pglite',
    date: toEpochSeconds(clock.now()),
  }));
};

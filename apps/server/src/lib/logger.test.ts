import { Writable } from 'node:stream';
import { DrizzleQueryError, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBuyer, createCampaign, createSourceWithKey } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/harness';
import { createLogger, requestLoggerFactory } from './logger';

/** A logger at `level` (info) whose lines are kept in `lines`. */
function capturedLogger(level: 'info' | 'warn' = 'info') {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger({ LOG_LEVEL: level }, destination), lines };
}

const LEAD = {
  first_name: 'Philippa',
  last_name: 'Quartermaine',
  phone: '5125550142',
  email: 'philippa.quartermaine@example.com',
  address: '4417 Juniper Hollow Rd',
  ip: '198.51.100.77',
};
const leaked = (lines: string[]) => Object.values(LEAD).filter((value) => lines.some((line) => line.includes(value)));

// Issue 29 item 11: personal fields never reach a log line (ASVS 7.1.1, 8.3.5).
describe('the logger', () => {
  it('redacts personal fields of any object logged, at the top or nested', () => {
    const { logger, lines } = capturedLogger();
    logger.info({ ...LEAD }, 'top');
    logger.info({ lead: { ...LEAD } }, 'nested');
    logger.warn({ sale: { contact: { ...LEAD, lead: { ...LEAD } } } }, 'deeper');
    expect(lines).toHaveLength(3);
    expect(leaked(lines)).toEqual([]);
    expect(JSON.parse(lines[1] ?? '{}').lead).toMatchObject({ phone: '[redacted]', ip: '[redacted]' });
  });

  it("takes a failed query's values out of the error's message, stack and fields, and PostgreSQL's row detail", () => {
    const { logger, lines } = capturedLogger();
    const cause = Object.assign(new Error('new row for relation "leads" violates check constraint'), {
      code: '23514',
      detail: `Failing row contains (${Object.values(LEAD).join(', ')}).`,
    });
    const values = Object.values(LEAD);
    logger.error(
      { err: new DrizzleQueryError('insert into leads values ($1, $2, $3, $4, $5, $6)', values, cause) },
      'x',
    );
    logger.error({ err: new Error('sale failed', { cause: new DrizzleQueryError('insert …', values, cause) }) }, 'y');
    logger.error({ err: cause }, 'z');
    expect(leaked(lines)).toEqual([]);
    // What helps find the fault stays: the statement and the database's own words.
    expect(lines[0]).toContain('insert into leads values ($1, $2, $3, $4, $5, $6)');
    expect(lines[0]).toContain('violates check constraint');
  });
});

// Issue 36: a request's child logger is made when the request first writes a line.
describe("a request's logger", () => {
  it('writes with the request id and redacted at the levels the logger writes, making its child once, only then', () => {
    const { logger, lines } = capturedLogger('warn');
    const made = vi.spyOn(logger, 'child');
    const log = requestLoggerFactory(logger, { reqId: 'req_1' }, {});
    log.info({ phone: LEAD.phone }, 'below the level');
    log.debug('below the level');
    expect(made).not.toHaveBeenCalled();
    expect(log.level).toBe('warn');
    log.warn({ phone: LEAD.phone }, 'written');
    log.error('written too');
    log.child({ job: 'nested' }).warn('from a child');
    const madeFor = (reqId: string) => made.mock.calls.filter(([bindings]) => bindings.reqId === reqId);
    expect(madeFor('req_1')).toHaveLength(1);
    const written = lines.map((line) => JSON.parse(line));
    expect(written.map((l) => [l.reqId, l.msg])).toEqual([
      ['req_1', 'written'],
      ['req_1', 'written too'],
      ['req_1', 'from a child'],
    ]);
    expect(written[0].phone).toBe('[redacted]');
    expect(written[2].job).toBe('nested');
    // A route's own level makes its child at once, as Fastify does.
    requestLoggerFactory(logger, { reqId: 'req_2' }, { level: 'info' });
    expect(madeFor('req_2')).toHaveLength(1);
  });
});

describe('a failed sale', () => {
  let t: TestApp;
  const { logger, lines } = capturedLogger();
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_API_RATE_LIMIT: 0 }, { logger });
  });
  afterAll(() => t?.close());

  it("logs the failure without the lead's name, phone, email or IP", async () => {
    const buyer = await createBuyer(t);
    await createCampaign(t, buyer._id, { services: ['roofing'], states: ['TX'] });
    const { apiKey } = await createSourceWithKey(t);
    // This file's own database refuses every new lead: the sale fails in its INSERT.
    await t.database.db.execute(sql.raw('ALTER TABLE leads ADD CONSTRAINT leads_refused CHECK (false) NOT VALID'));
    const res = await t.sourceApi('/api/lead', apiKey, {
      service: 'roofing',
      zip: '75201',
      name: `${LEAD.first_name} ${LEAD.last_name}`,
      phone: LEAD.phone,
      email: LEAD.email,
      address: LEAD.address,
      ip: LEAD.ip,
      tcpa_consent: true,
    });
    expect(res.statusCode, res.body).toBe(500);
    const failure = lines.filter((line) => line.includes('"level":50'));
    expect(failure.length).toBeGreaterThan(0);
    expect(failure.join('\n')).toContain('leads_refused');
    // Every line of the request carries its id: its incoming and failure lines alike.
    const ofRequest = lines.filter((line) => line.includes(`"reqId":"${res.headers['x-request-id']}"`));
    expect(ofRequest.some((line) => line.includes('incoming request'))).toBe(true);
    expect(ofRequest.filter((line) => line.includes('"level":50'))).toEqual(failure);
    expect(leaked(lines)).toEqual([]);
  });
});

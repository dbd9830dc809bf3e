import { createServer, type Server, type Socket } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../db/unavailable';
import { registerErrorHandler, UNAVAILABLE_RETRY_AFTER_SECONDS } from './errors';

/**
 * Issue 28: while the database is unreachable every route answers 503 with Retry-After (and the
 * public source API's reason `unavailable`), never 500. The errors are node-postgres's own, made for
 * real where a test can make them (a refused port, a server that never answers), else its class.
 */

function databaseError(message: string, code: string, severity: string) {
  const error = new pg.DatabaseError(message, message.length, 'error');
  error.code = code;
  error.severity = severity;
  return error;
}

/** A port that accepts connections and never says a word: a database behind a network partition. */
let silent: Server;
let silentPort = 0;
const silentSockets: Socket[] = [];
const errors: Record<string, unknown> = {};

beforeAll(async () => {
  silent = createServer((socket) => silentSockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentPort = (silent.address() as { port: number }).port;

  const refused = new pg.Client({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 2000 });
  errors.refused = await refused.connect().catch((e: unknown) => e);
  const pool = new pg.Pool({ host: '127.0.0.1', port: silentPort, connectionTimeoutMillis: 200 });
  errors.poolTimeout = await pool.query('select 1').catch((e: unknown) => e);
  await pool.end();
  errors.terminated = databaseError('terminating connection due to administrator command', '57P01', 'FATAL');
  errors.notAccepting = databaseError('database "x" is not currently accepting connections', '55000', 'FATAL');
  errors.statementTimeout = databaseError('canceling statement due to statement timeout', '57014', 'ERROR');
  errors.wrapped = Object.assign(new Error('Failed query: select 1'), { cause: errors.terminated });
  errors.lostSocket = new Error('Connection terminated unexpectedly');
});

afterAll(async () => {
  for (const socket of silentSockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

describe('isDatabaseUnavailable', () => {
  it('knows a database that is gone, refuses, or does not answer in time', () => {
    for (const [name, error] of Object.entries(errors)) expect(isDatabaseUnavailable(error), name).toBe(true);
  });

  it('is not fooled by errors about the statement itself', () => {
    expect(isDatabaseUnavailable(databaseError('duplicate key value', '23505', 'ERROR'))).toBe(false);
    expect(isDatabaseUnavailable(databaseError('syntax error at or near "x"', '42601', 'ERROR'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe('the error handler while the database is unavailable', () => {
  const app = Fastify();
  beforeAll(async () => {
    registerErrorHandler(app);
    app.get('/api/thing/:error', async (request) => {
      throw errors[(request.params as { error: string }).error];
    });
    app.post('/api/ping', { config: { sourceApi: true } }, async () => {
      throw errors.wrapped;
    });
    app.get('/api/bug', async () => {
      throw new TypeError('x is undefined');
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers 503 with Retry-After on any route, for every way the database goes away', async () => {
    for (const name of Object.keys(errors)) {
      const res = await app.inject({ method: 'GET', url: `/api/thing/${name}` });
      expect(res.statusCode, name).toBe(503);
      expect(res.headers['retry-after'], name).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      expect(res.json().ok).toBe(false);
      expect(res.json().message).toMatch(/unavailable/);
    }
  });

  it('gives the public source API the reason `unavailable`', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/ping', payload: {} });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    expect(res.json()).toMatchObject({ ok: false, reason: 'unavailable' });
  });

  it('still answers a bug 500, without Retry-After', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/bug' });
    expect(res.statusCode).toBe(500);
    expect(res.headers['retry-after']).toBeUndefined();
  });
});

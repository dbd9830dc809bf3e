import type { Logger } from '../lib/logger';

/**
 * Whether an error says the database cannot be reached or did not answer in time (a restart, a
 * failover, an admin refusing connections, a partition, a statement timeout), rather than anything
 * about the request: the caller answers 503 and the client retries; nothing is wrong with what it sent.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; severity?: unknown; cause?: unknown } | undefined, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNREACHABLE_CODES.has(code) || code.startsWith('08')) return true;
    // A FATAL error ends the session: the server refused or dropped the connection itself
    // (`database "…" is not currently accepting connections` is 55000, FATAL).
    if (e.severity === 'FATAL') return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (UNREACHABLE_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}

/** PostgreSQL's codes of a server going away, and the socket errors of one not there. */
const UNREACHABLE_CODES = new Set([
  '57P01', // admin_shutdown: terminated by an administrator (pg_terminate_backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, or in recovery
  '53300', // too_many_connections
  '57014', // query_canceled: statement_timeout (the pool's bound on a statement)
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** node-postgres's own errors, which carry no code. */
const UNREACHABLE_MESSAGES = [
  'timeout exceeded when trying to connect', // the pool's connectionTimeoutMillis
  'Connection terminated', // "… unexpectedly", "… due to connection timeout"
  'Client has encountered a connection error and is not queryable',
  'Query read timeout', // query_timeout: the server said nothing at all
];

/**
 * Reports a background task's failure (a reload, a dispatch round, a pg-boss loop), which retries by
 * itself: while the database is unavailable a one-line warning, not a stack per tick; else an error.
 */
export function logBackgroundError(logger: Pick<Logger, 'warn' | 'error'>, error: unknown, what: string): void {
  if (isDatabaseUnavailable(error))
    logger.warn(
      { cause: (error as { message?: unknown })?.message ?? String(error) },
      `${what} (the database is unavailable; it is retried)`,
    );
  else logger.error({ err: error }, what);
}

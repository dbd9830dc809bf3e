/** What went wrong, mapped to an HTTP status by the one error handler. */
export type ErrorCode =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_many_requests'
  | 'unavailable'
  | 'internal';

export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
};

/** The one error type services raise; the error handler turns it into `{ ok: false, message, errors? }`. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Per-field messages, keyed by dotted path. */
    readonly errors?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }

  /** A 400 naming one field, so the web can mark it (spec §8). */
  static field(field: string, message: string): AppError {
    return new AppError('bad_request', message, { [field]: message });
  }

  static notFound(what = 'Record'): AppError {
    return new AppError('not_found', `${what} not found`);
  }
}

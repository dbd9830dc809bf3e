/** The one failure shape every API route answers (DESIGN.md §4). */
export interface ApiError {
  ok: false;
  message: string;
  /** Per-field messages, keyed by the field's dotted path (`bill.pay`). */
  errors?: Record<string, string>;
  /** A code for machines: always on the public source API (SOURCE_API_REASONS), elsewhere when it says more. */
  reason?: string;
}

/** Paged list answer. */
export interface Page<T> {
  data: T[];
  total: number;
}

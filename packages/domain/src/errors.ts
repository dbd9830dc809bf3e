/** The one failure shape every API route answers (DESIGN.md §4). */
export interface ApiError {
  ok: false;
  message: string;
  /** Per-field messages, keyed by the field's dotted path (`bill.pay`). */
  errors?: Record<string, string>;
}

/** Paged list answer. */
export interface Page<T> {
  data: T[];
  total: number;
}

/** The source of "now" for business code, injected so tests and the simulator's mock date control time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved; for tests. */
export class FixedClock implements Clock {
  constructor(private current: Date = new Date('2026-01-15T15:00:00Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  set(date: Date | string): void {
    this.current = new Date(date);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

/** Epoch seconds, the API's timestamp format (DESIGN.md §4). */
export const toEpochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

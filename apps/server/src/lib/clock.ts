/** The source of "now" for business code, injected so tests and the simulator's mock date control time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock the simulator may move (DESIGN.md §11, mock date): outside production the app runs on one,
 * so every rule that reads the clock (date ranges, caps, hours, bills) sees the mocked date.
 */
export interface MockableClock extends Clock {
  /** Moves "now" to `date` from this moment on (the clock keeps running), or back to the real time (null). */
  mock(offsetMs: number): void;
}

export const isMockable = (clock: Clock): clock is MockableClock =>
  typeof (clock as Partial<MockableClock>).mock === 'function';

/** The system clock moved by an offset: the mock date's clock outside production. */
export class OffsetClock implements MockableClock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  mock(offsetMs: number): void {
    this.offsetMs = offsetMs;
  }
}

/** A clock that stands still until moved; for tests. A mock date moves it by the offset from the real time. */
export class FixedClock implements MockableClock {
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
  mock(offsetMs: number): void {
    this.current = new Date(Date.now() + offsetMs);
  }
}

/** Epoch seconds, the API's timestamp format (DESIGN.md §4). */
export const toEpochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000);

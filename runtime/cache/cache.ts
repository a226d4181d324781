/**
 * The cache (`ctx.services.cache`): short-lived values and counters shared
 * by every instance of the app when backed by the database (docs/spec.md 5.1
 * rule 8: login throttling is "counted in the cache, which must be set up
 * before auth"; the forgot-password limit of docs/spec.md 8). Implemented by the
 * `cache()` setup step, with a `database` driver (default, works across
 * instances) and a `memory` driver (one process; tests).
 */

/** A fixed-window counter after an increment. */
export interface CounterState {
  /** The count in the current window, this increment included. */
  readonly count: number;
  /** When the window ends (epoch milliseconds). */
  readonly resetAt: number;
}

export interface Cache {
  /** The value stored under `key`, or `undefined` when absent or expired. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Store a JSON value for `ttlMs` milliseconds. */
  put(key: string, value: unknown, ttlMs: number): Promise<void>;
  /** Remove `key`. */
  forget(key: string): Promise<void>;
  /**
   * Add one to the counter `key` in a fixed window of `windowMs` milliseconds
   * (a new window starts when the previous one ended). Atomic across instances
   * with the database driver.
   */
  increment(key: string, windowMs: number): Promise<CounterState>;
  /** The counter's state without changing it (`count` 0 when absent or expired). */
  peek(key: string): Promise<CounterState>;
}

declare module '../http/context.js' {
  interface Services {
    /** Present once `cache()` is set up. */
    readonly cache?: Cache;
  }
}

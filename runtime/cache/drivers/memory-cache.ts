/**
 * The `memory` cache driver (`CACHE_DRIVER=memory`): one process only, for
 * tests and single-instance development. Values are copied through JSON, as
 * the database driver stores them, so both behave alike.
 */
import type { Cache, CounterState } from '../cache.js';
import { toJson } from './json-value.js';

interface Entry {
  /** JSON text of the value, or the count of a counter. */
  readonly value: string | number;
  readonly expiresAt: number;
}

/** A cache in a `Map`, with expired entries dropped when read and by {@link MemoryCache.prune}. */
export class MemoryCache implements Cache {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;

  /** @param now clock in milliseconds since the epoch (default `Date.now`). */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async get<T = unknown>(key: string): Promise<T | undefined> {
    const entry = this.#live(key);
    if (entry === undefined) return undefined;
    return (typeof entry.value === 'number' ? entry.value : JSON.parse(entry.value)) as T;
  }

  async put(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.#entries.set(key, { value: toJson(value), expiresAt: this.#now() + ttlMs });
  }

  async forget(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  async increment(key: string, windowMs: number): Promise<CounterState> {
    const entry = this.#live(key);
    const next: Entry =
      entry !== undefined && typeof entry.value === 'number'
        ? { value: entry.value + 1, expiresAt: entry.expiresAt }
        : { value: 1, expiresAt: this.#now() + windowMs };
    this.#entries.set(key, next);
    return { count: next.value as number, resetAt: next.expiresAt };
  }

  async peek(key: string): Promise<CounterState> {
    const entry = this.#live(key);
    if (entry === undefined || typeof entry.value !== 'number') return { count: 0, resetAt: this.#now() };
    return { count: entry.value, resetAt: entry.expiresAt };
  }

  /** Drop expired entries. @returns how many were dropped. */
  prune(): number {
    const now = this.#now();
    let dropped = 0;
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) {
        this.#entries.delete(key);
        dropped++;
      }
    }
    return dropped;
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }
}

/**
 * Fixed-window rate limits counted in the cache (docs/spec.md 8 "forgot-password
 * route: 5 per minute"; docs/mail.md "The forgot-password limit").
 *
 * Every hit counts, allowed or not. Allowed responses carry
 * `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`; a refused one is 429 with
 * `Retry-After` (seconds), `X-RateLimit-Limit`, `X-RateLimit-Remaining: 0`
 * and `X-RateLimit-Reset` (when the window ends, epoch seconds — GitHub's
 * convention). With the cache's database driver the count is shared by every
 * instance of the app.
 */
import { createHash } from 'node:crypto';
import type { Cache } from '../cache/cache.js';
import { HttpError } from '../errors/http-error.js';

/** A limit: `limit` hits per `windowMs` for one key. */
export interface RateLimit {
  /** Names the counters in the cache (`<name>:<key>`), e.g. `forgot-password`. */
  readonly name: string;
  /** Hits allowed in one window (at least 1). */
  readonly limit: number;
  /** The window, ms. */
  readonly windowMs: number;
}

/** The state of a key after a hit. */
export interface RateLimitState {
  readonly limit: number;
  /** Hits left in this window (0 when refused). */
  readonly remaining: number;
  /** When the window ends, ms since the epoch. */
  readonly resetAt: number;
  /** Whether this hit is within the limit. */
  readonly allowed: boolean;
}

/**
 * Count a hit of `key` against `rule`.
 * @param key what is limited, e.g. the normalized email address; the cache key holds its SHA-256, not the key itself.
 * @throws whatever the cache throws (a database error).
 */
export async function hitRateLimit(cache: Cache, rule: RateLimit, key: string): Promise<RateLimitState> {
  const { count, resetAt } = await cache.increment(
    `rate-limit:${rule.name}:${createHash('sha256').update(key).digest('hex')}`,
    rule.windowMs,
  );
  return { limit: rule.limit, remaining: Math.max(0, rule.limit - count), resetAt, allowed: count <= rule.limit };
}

/** The headers of an allowed response: `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (epoch seconds). */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(Math.ceil(state.resetAt / 1000)),
  };
}

/**
 * The 429 of a refused hit, with `Retry-After`, `X-RateLimit-Limit`,
 * `X-RateLimit-Remaining` and `X-RateLimit-Reset`.
 * @param now ms since the epoch (default `Date.now()`).
 */
export function rateLimitedError(state: RateLimitState, message: string, now: number = Date.now()): HttpError {
  const retryAfter = Math.max(1, Math.ceil((state.resetAt - now) / 1000));
  return new HttpError('BINDERY_RATE_LIMITED', message, {
    headers: {
      'retry-after': String(retryAfter),
      'x-ratelimit-limit': String(state.limit),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': String(Math.ceil(state.resetAt / 1000)),
    },
  });
}

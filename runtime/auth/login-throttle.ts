/**
 * Login throttling, counted in the cache (docs/spec.md 5.1 rule 8, 8
 * "AUTH_THROTTLE", "AUTH_THROTTLE_IP"; docs/auth.md "Throttling").
 *
 * Two fixed one-minute windows:
 *
 * - per subject and IP address: every attempt counts (`AUTH_THROTTLE`, 5);
 *   the subject is the account when the login names one (so spellings that
 *   resolve to the same account share a count), else the normalized login;
 * - per IP address: failures only (`AUTH_THROTTLE_IP`, 50).
 *
 * An attempt past either limit fails without checking the password. A
 * successful login clears its subject's count.
 */
import { createHash } from 'node:crypto';
import type { Cache } from '../cache/cache.js';

/** The window of both counters (ms). */
export const THROTTLE_WINDOW_MS = 60_000;

/** The limits of a {@link LoginThrottle}. */
export interface ThrottleLimits {
  /** Attempts per subject and IP address in a window (`AUTH_THROTTLE`). */
  readonly perLogin: number;
  /** Failures per IP address in a window (`AUTH_THROTTLE_IP`). */
  readonly perIp: number;
}

/** Counts login attempts and failures in the cache. */
export class LoginThrottle {
  readonly #cache: Cache;
  readonly #limits: ThrottleLimits;
  readonly #now: () => number;

  constructor(cache: Cache, limits: ThrottleLimits, now: () => number = Date.now) {
    this.#cache = cache;
    this.#limits = limits;
    this.#now = now;
  }

  /** Seconds to wait when `ip` has used up its failures, else `null` (counts nothing). */
  async ipBlocked(ip: string): Promise<number | null> {
    const state = await this.#cache.peek(ipKey(ip));
    return state.count >= this.#limits.perIp ? this.#seconds(state.resetAt) : null;
  }

  /** Count an attempt of `subject` from `ip`. @returns seconds to wait when this attempt is over the limit, else `null`. */
  async attempt(subject: string, ip: string): Promise<number | null> {
    const state = await this.#cache.increment(subjectKey(subject, ip), THROTTLE_WINDOW_MS);
    return state.count > this.#limits.perLogin ? this.#seconds(state.resetAt) : null;
  }

  /** Count a failure from `ip`. */
  async failed(ip: string): Promise<void> {
    await this.#cache.increment(ipKey(ip), THROTTLE_WINDOW_MS);
  }

  /** Forget the attempts of `subject` from `ip` (after a successful login). */
  async clear(subject: string, ip: string): Promise<void> {
    await this.#cache.forget(subjectKey(subject, ip));
  }

  #seconds(resetAt: number): number {
    return Math.max(1, Math.ceil((resetAt - this.#now()) / 1000));
  }
}

/** Cache keys never hold the login in clear (it may be an email address). */
function subjectKey(subject: string, ip: string): string {
  return `auth:login:${createHash('sha256').update(`${subject}\u0000${ip}`).digest('base64url')}`;
}

function ipKey(ip: string): string {
  return `auth:ip:${ip}`;
}

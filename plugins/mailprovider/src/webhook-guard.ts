/**
 * Two guards of the webhook, counted in the app's cache (`cache()`), so
 * every instance shares them:
 *
 * - a per-address limit on wrong credentials: after
 *   `MAILPROVIDER_WEBHOOK_FAILURES` failures from one IP address in a
 *   minute, that address gets 429 with `Retry-After` (without its
 *   credentials being checked) until the minute ends;
 * - replay protection: a record whose `MessageID` and event were already
 *   received within `MAILPROVIDER_REPLAY_WINDOW` is a no-op (204, nothing
 *   queued again).
 */
import { createHash } from 'node:crypto';
import { HttpError } from 'bindery/errors';
import type { Cache } from 'bindery/cache';
import type { WebhookRecord } from './records.js';

/** The window of the failure count (ms). */
export const FAILURE_WINDOW_MS = 60_000;

/** What the guards need. */
export interface WebhookGuardOptions {
  readonly cache: Cache;
  /** `MAILPROVIDER_WEBHOOK_FAILURES`. */
  readonly maxFailures: number;
  /** `MAILPROVIDER_REPLAY_WINDOW` (ms). */
  readonly replayWindowMs: number;
  /** Clock (ms since the epoch), default `Date.now`. */
  readonly now?: () => number;
}

/** The failure limit and the replay memory of the webhook. */
export class WebhookGuard {
  readonly #o: WebhookGuardOptions;
  readonly #now: () => number;

  constructor(options: WebhookGuardOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Refuse an address that used up its wrong credentials.
   * @throws {HttpError} 429 `MAILPROVIDER_TOO_MANY_FAILURES` with `Retry-After` (seconds to the end of the window).
   */
  async checkAddress(ip: string): Promise<void> {
    const state = await this.#o.cache.peek(failureKey(ip));
    if (state.count >= this.#o.maxFailures) throw this.#tooMany(state.resetAt);
  }

  /** Count a wrong credential from `ip`. */
  async failed(ip: string): Promise<void> {
    await this.#o.cache.increment(failureKey(ip), FAILURE_WINDOW_MS);
  }

  /**
   * Claim a record: `first` is true the first time its `MessageID` and
   * event are seen within the replay window (atomic across instances with
   * the database cache). A record without a `MessageID` is always first.
   * Call `release()` when the record could not be queued, so the provider's
   * retry is not taken for a replay.
   * @param messageId the record's `MessageID`, or `null`.
   */
  async claim(messageId: string | null | undefined, record: WebhookRecord): Promise<{ readonly first: boolean; release(): Promise<void> }> {
    if (typeof messageId !== 'string' || messageId.trim() === '') return { first: true, release: async () => {} };
    const key = replayKey(messageId.trim(), record);
    const state = await this.#o.cache.increment(key, this.#o.replayWindowMs);
    return { first: state.count === 1, release: () => this.#o.cache.forget(key) };
  }

  #tooMany(resetAt: number): HttpError {
    const seconds = Math.max(1, Math.ceil((resetAt - this.#now()) / 1000));
    return new HttpError(
      429,
      `Too many webhook calls with wrong credentials from this address; try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
      {
        code: 'MAILPROVIDER_TOO_MANY_FAILURES',
        headers: { 'Retry-After': String(seconds) },
      },
    );
  }
}

function failureKey(ip: string): string {
  return `mailprovider:auth:${ip}`;
}

/** One key per message and event: the record type, the state it sets and the address, hashed (no address in clear). */
function replayKey(messageId: string, record: WebhookRecord): string {
  const event = JSON.stringify([messageId, record.recordType, record.type, record.inactive, record.suppressSending, record.email]);
  return `mailprovider:seen:${createHash('sha256').update(event).digest('base64url')}`;
}

/**
 * Session drivers (docs/spec.md 9: cookie sessions, and server-side drivers with
 * revocation selected by `SESSION_DRIVER`; docs/sessions.md "Drivers").
 *
 * A driver makes a {@link SessionStore} once at boot. The session layer
 * owns everything else — expiry, flash, CSRF, when to write, the cookie's
 * name and attributes — so a store only maps a cookie value to a record and
 * back.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Encrypter } from '../crypto/encrypter.js';
import type { Database } from '../db/connect.js';
import type { SessionRecord } from './session-record.js';

/** Returned by {@link SessionStore.write} when the cookie would be larger than the limit. */
export const TOO_LARGE: unique symbol = Symbol('bindery.session.tooLarge');

/** The client a session was last written for (kept by server-side stores for the list of a user's sessions). */
export interface SessionClient {
  /** The client address (`request.ip`, which follows `HTTP_TRUST_PROXY`). */
  readonly ip: string;
  /** The `User-Agent` header, at most 512 characters, or `null`. */
  readonly userAgent: string | null;
}

/** One stored session of a user, as {@link SessionStore.listUser} gives it. */
export interface StoredSession {
  /** The session ID (secret: never shown to clients as is). */
  readonly id: string;
  /** When the session started (sign-in), ms since the epoch. */
  readonly startedAt: number;
  /** When it was last written, ms since the epoch. */
  readonly lastUsedAt: number;
  readonly ip: string | null;
  readonly userAgent: string | null;
}

/** Where sessions are kept. */
export interface SessionStore {
  /**
   * True when {@link read} needs I/O (a database): the session is then read
   * before the handler runs for every request carrying the cookie. False: it
   * is read on first use, synchronously.
   */
  readonly eager: boolean;
  /**
   * The record a cookie value stands for, or `null` when the value does not
   * decrypt or the session is unknown (revoked). Expiry is checked by the
   * caller against the record's times.
   */
  read(cookieValue: string): SessionRecord | null | Promise<SessionRecord | null>;
  /**
   * Keep `record` and return the cookie value to send, or {@link TOO_LARGE}
   * when the cookie would exceed {@link SessionDriverContext.maxCookieBytes}.
   * @param revoke the ID the request started with when the session got a new
   *   ID (regenerate): a server-side store deletes it in the same step.
   */
  write(
    record: SessionRecord,
    revoke: string | null,
    client?: SessionClient,
  ): string | typeof TOO_LARGE | Promise<string | typeof TOO_LARGE>;
  /** End a session by ID (invalidate, logout): a server-side store deletes it; the cookie store has nothing to do. */
  revoke(id: string): void | Promise<void>;
  /**
   * End every session of a user but `exceptId` (password reset, "sign out
   * other browsers"); resolves to the number ended. Only server-side stores
   * can; the cookie store has no such method (with cookie sessions, other
   * sessions end when next used because the password fingerprint no longer
   * matches, docs/spec.md 3).
   */
  revokeUser?(userId: string, exceptId?: string | null): Promise<number>;
  /**
   * The live sessions of a user, most recently used first (server-side
   * stores only: the list of a user's sessions, docs/sessions.md).
   */
  listUser?(userId: string): Promise<StoredSession[]>;
  /** End one session of a user by ID; resolves to whether it existed (server-side stores only). */
  revokeUserSession?(userId: string, id: string): Promise<boolean>;
  /** Stop timers and release resources (at shutdown). */
  close?(): void | Promise<void>;
}

/** What a driver gets to build its store. */
export interface SessionDriverContext {
  /** Seals and opens values with APP_KEY (and APP_PREVIOUS_KEYS). */
  readonly encrypter: Encrypter;
  /** The cookie's name (authenticated alongside the encrypted value). */
  readonly cookieName: string;
  /** Largest `name=value` of the cookie, in bytes (4096). */
  readonly maxCookieBytes: number;
  /** SESSION_LIFETIME and SESSION_MAX_LIFETIME (0: none), ms. */
  readonly lifetimeMs: number;
  readonly maxLifetimeMs: number;
  /** The clock (ms since the epoch). */
  readonly now: () => number;
  /** The app's database (absent when the session layer is built without one, e.g. in benchmarks). */
  readonly database: Database | undefined;
  readonly log: FastifyBaseLogger;
}

/** Builds a store; `SESSION_DRIVER` picks one by name. */
export type SessionDriver = (ctx: SessionDriverContext) => SessionStore | Promise<SessionStore>;

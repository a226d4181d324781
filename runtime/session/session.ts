/**
 * The session of one request: `ctx.session` (docs/spec.md 2.3, 3 "Session" rows,
 * 5.3, 7 rule 6; docs/sessions.md "Using the session").
 *
 * Lazy: nothing is read until something asks, and a request that neither
 * carries the cookie nor stores anything costs one object and sets no
 * cookie, no `Cache-Control`, no `Vary`. Once read, the record is checked
 * against its idle and absolute lifetimes; a cookie that does not decrypt,
 * names a revoked session or has expired gives an empty session, and the
 * response removes it (`Max-Age=0`).
 *
 * Flash data stored by one request is readable by the next one only.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { maskSecret, matchesMaskedSecret } from '../crypto/masked-token.js';
import type { PageSession } from '../views/page-session.js';
import { readCookie, serializeSetCookie } from './cookie-header.js';
import { newCsrfToken, newSessionId, newSessionRecord, type SessionRecord } from './session-record.js';
import { sessionClient, writeRecord } from './write-record.js';
import type { SessionManager } from './session-manager.js';
import { addVary } from '../support/vary.js';

/** Flash key of the field errors of a failed form. */
export const ERRORS_KEY = '_errors';
/** Flash key of the old input of a failed form (dropped first when the cookie is too large). */
export const OLD_INPUT_KEY = '_old';

const EMPTY: Readonly<Record<string, never>> = Object.freeze({});

/** The user slot of a session (the accounts layer fills it). */
export interface SessionUser {
  /** The user's authentication ID (decimal string of users.id in the reference app). */
  readonly id: string;
  /** A fingerprint of the user's password hash when signed in; compared on each request so a password change ends other sessions (docs/spec.md 3). */
  readonly fingerprint: string | null;
}

/** What the session reads from the request it belongs to. */
export interface SessionHost {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly log: FastifyBaseLogger;
  readonly route: { readonly name: string };
}

/**
 * One request's session. Handlers reach it as `ctx.session` on routes with
 * the `session` middleware.
 *
 * Values must be JSON (they are stored as JSON, in the cookie by default:
 * keep them small, the whole cookie is limited to 4 KB).
 *
 * @example
 *   ctx.session.put('theme', 'dark');
 *   ctx.session.flash('status', 'Note created.');
 *   const theme = ctx.session.get<string>('theme');
 */
export class Session implements PageSession {
  readonly #m: SessionManager;
  readonly #host: SessionHost;
  /** The request's cookie value: `null` until looked up, `undefined` when absent. */
  #cookie: string | undefined | null = null;
  #loaded = false;
  #record: SessionRecord | null = null;
  /** ID of the record as read from the store, `null` for none (revoked on regenerate/invalidate). */
  #storedId: string | null = null;
  /** Flash data of the previous request, readable now. */
  #current: Readonly<Record<string, unknown>> = EMPTY;
  #dirty = false;
  /** The request's cookie must be removed (did not decrypt, expired, invalidated). */
  #drop = false;
  /** A stored session to delete at commit. */
  #revoke: string | null = null;
  #committed = false;
  #deferred = false;

  /** @internal made by the session middleware. */
  constructor(manager: SessionManager, host: SessionHost) {
    this.#m = manager;
    this.#host = host;
  }

  // ── reading ──

  /** The value stored under `key`, or `undefined`. */
  get<T = unknown>(key: string): T | undefined {
    return this.#load()?.values[key] as T | undefined;
  }

  /** Whether a value is stored under `key`. */
  has(key: string): boolean {
    const r = this.#load();
    return r !== null && Object.hasOwn(r.values, key);
  }

  /** A copy of every stored value. */
  all(): Record<string, unknown> {
    return { ...this.#load()?.values };
  }

  /** A value flashed by the previous request (readable during this request only), or `undefined`. */
  flashed<T = unknown>(key: string): T | undefined {
    this.#load();
    return this.#current[key] as T | undefined;
  }

  /** Field errors of the failed form that redirected here, by the client's field names, in field order (docs/spec.md 7 rule 6). Empty when none. */
  get errors(): Readonly<Record<string, string>> {
    return this.flashed<Record<string, string>>(ERRORS_KEY) ?? EMPTY;
  }

  /** The values the failed form posted (without `_token`, `_method` and password-like fields). Empty when none. */
  get oldInput(): Readonly<Record<string, string | string[]>> {
    return this.flashed<Record<string, string | string[]>>(OLD_INPUT_KEY) ?? EMPTY;
  }

  /** The signed-in user, or `null`. */
  get user(): SessionUser | null {
    const r = this.#load();
    return r === null || r.userId === null ? null : { id: r.userId, fingerprint: r.fingerprint };
  }

  /** The session's ID, or `null` when there is no session. */
  get id(): string | null {
    return this.#load()?.id ?? null;
  }

  /** Whether a session exists (read from the cookie, or started by this request). */
  get exists(): boolean {
    return this.#load() !== null;
  }

  /** Whether the request carried the session cookie (valid or not). Reading it parses the `Cookie` header once. */
  get hasCookie(): boolean {
    return this.#cookieValue() !== undefined;
  }

  // ── writing ──

  /** Store `value` (JSON) under `key`. */
  put(key: string, value: unknown): void {
    this.#ensure().values[key] = value;
    this.#changed();
  }

  /** Remove the value under `key`. */
  forget(key: string): void {
    const r = this.#load();
    if (r === null || !Object.hasOwn(r.values, key)) return;
    delete r.values[key];
    this.#changed();
  }

  /** The value under `key`, removed. */
  pull<T = unknown>(key: string): T | undefined {
    const value = this.get<T>(key);
    this.forget(key);
    return value;
  }

  /** Store `value` for the next request only (read there with {@link flashed}). */
  flash(key: string, value: unknown): void {
    this.#ensure().flash[key] = value;
    this.#changed();
  }

  /** Keep this request's flashed values for one more request. */
  reflash(): void {
    this.#load();
    if (Object.keys(this.#current).length === 0) return;
    const r = this.#ensure();
    r.flash = { ...this.#current, ...r.flash };
    this.#changed();
  }

  /**
   * Flash a failed form's field errors and old input for the page the
   * browser is sent back to (the form round trip does this).
   */
  flashFormFailure(errors: Readonly<Record<string, string>>, oldInput: Readonly<Record<string, string | string[]>>): void {
    const r = this.#ensure();
    r.flash[ERRORS_KEY] = errors;
    r.flash[OLD_INPUT_KEY] = oldInput;
    this.#changed();
  }

  /**
   * A new session ID and CSRF token, keeping the values; the lifetime counts
   * again from now (docs/spec.md 3). Call it when the user signs in (session
   * fixation). With a server-side driver the old ID is revoked.
   */
  regenerate(): void {
    const r = this.#ensure();
    if (this.#storedId !== null && this.#revoke === null) this.#revoke = this.#storedId;
    r.id = newSessionId();
    r.csrf = newCsrfToken();
    const now = this.#m.now();
    r.startedAt = now;
    r.lastUsedAt = now;
    this.#changed();
  }

  /**
   * Empty the session: values, flash, user and CSRF token go, the cookie is
   * removed (or replaced by a fresh session if something is stored
   * afterwards, which gets a new ID). With a server-side driver the session
   * is revoked, so a copy of the cookie stops working (docs/spec.md 5.1 rule 7).
   */
  invalidate(): void {
    this.#load();
    if (this.#storedId !== null && this.#revoke === null) this.#revoke = this.#storedId;
    this.#record = null;
    this.#current = EMPTY;
    this.#drop = true;
    this.#changed();
  }

  /** Put a user in the session's user slot (after `regenerate()` at sign-in). */
  setUser(id: string, fingerprint: string | null): void {
    const r = this.#ensure();
    r.userId = id;
    r.fingerprint = fingerprint;
    this.#changed();
  }

  /** Empty the user slot. */
  clearUser(): void {
    const r = this.#load();
    if (r === null || r.userId === null) return;
    r.userId = null;
    r.fingerprint = null;
    this.#changed();
  }

  // ── CSRF ──

  /** The CSRF token masked with a fresh pad, for a page (starts a session when there is none). The `csrf` middleware checks it (runtime/csrf). */
  csrfToken(): string {
    return maskSecret(this.#ensure().csrf);
  }

  /** Whether `submitted` is a masked form of this session's CSRF token (false without a session). Never throws. */
  verifyCsrfToken(submitted: string): boolean {
    const r = this.#load();
    return r !== null && matchesMaskedSecret(submitted, r.csrf);
  }

  // ── lifecycle (used by the middleware and the responder) ──

  /** @internal Read the session now (drivers whose reads need I/O). */
  async preload(): Promise<void> {
    if (this.#loaded) return;
    const cookie = this.#cookieValue();
    if (cookie === undefined) {
      this.#loaded = true;
      return;
    }
    let record: SessionRecord | null;
    try {
      record = await this.#m.store.read(cookie);
    } catch (error) {
      // The store failed (database down): the request fails, and the cookie is left as it is.
      this.#committed = true;
      throw error;
    }
    this.#loaded = true;
    this.#accept(record);
  }

  /** @internal The result is a page: write after rendering ({@link finishRender}). */
  deferCommit(): void {
    this.#deferred = true;
  }

  /** @internal Whether the commit waits for the page to render. */
  get deferred(): boolean {
    return this.#deferred;
  }

  /** Called by the responder once the page is rendered (or failed to): writes the cookie. */
  finishRender(): Promise<void> {
    return this.commit() ?? Promise.resolve();
  }

  /**
   * @internal Write the session: the cookie (or its removal), the store, and
   * `Cache-Control: private` + `Vary: Cookie` when the session was used.
   * @returns `undefined` when there was nothing to do (no cookie, nothing stored).
   */
  commit(): Promise<void> | undefined {
    if (this.#committed) return undefined;
    this.#committed = true;
    const hasCookie = this.#cookieValue() !== undefined;
    if (!this.#loaded) {
      if (!hasCookie) return undefined;
      this.#load();
    }
    // No cookie came and no session exists now: nothing to write, nothing the response depends on.
    if (this.#record === null && !hasCookie) return undefined;
    const reply = this.#host.reply;
    if (reply.sent || reply.raw.headersSent) {
      if (this.#dirty) this.#lost();
      return undefined;
    }
    return this.#write(reply);
  }

  async #write(reply: FastifyReply): Promise<void> {
    const m = this.#m;
    const record = this.#record;
    let setCookie: string | undefined;
    if (record === null) {
      if (this.#revoke !== null) await m.store.revoke(this.#revoke);
      if (this.#cookieValue() !== undefined) setCookie = serializeSetCookie(m.cookieName, '', { ...m.cookie, maxAge: 0 });
    } else {
      const now = m.now();
      if (this.#dirty || this.#drop || now - record.lastUsedAt >= m.refreshMs) {
        record.lastUsedAt = now;
        const revoke = this.#revoke !== null && this.#revoke !== record.id ? this.#revoke : null;
        const value = await writeRecord(
          { store: m.store, log: this.#host.log, route: this.#host.route.name },
          record,
          revoke,
          sessionClient(this.#host.request),
          OLD_INPUT_KEY,
        );
        if (value !== undefined) setCookie = serializeSetCookie(m.cookieName, value, m.cookie);
      }
    }
    if (setCookie !== undefined) reply.header('set-cookie', setCookie);
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private');
    addVary(reply, 'Cookie');
  }

  #cookieValue(): string | undefined {
    if (this.#cookie === null) this.#cookie = readCookie(this.#host.request.headers.cookie, this.#m.cookieName);
    return this.#cookie;
  }

  /** Read the session on first use (stores that read synchronously). */
  #load(): SessionRecord | null {
    if (this.#loaded) return this.#record;
    this.#loaded = true;
    const cookie = this.#cookieValue();
    if (cookie === undefined) return null;
    const read = this.#m.store.read(cookie);
    if (read instanceof Promise) {
      // A driver whose reads need I/O must say `eager: true`; the middleware then preloads.
      throw new TypeError(`The session driver "${this.#m.driver}" reads asynchronously but is not marked eager.`);
    }
    this.#accept(read);
    return this.#record;
  }

  #accept(record: SessionRecord | null): void {
    if (record === null) {
      this.#drop = true;
      return;
    }
    const m = this.#m;
    const now = m.now();
    const idle = now - record.lastUsedAt > m.lifetimeMs;
    const old = m.maxLifetimeMs > 0 && now - record.startedAt > m.maxLifetimeMs;
    if (idle || old) {
      this.#drop = true;
      this.#revoke = record.id;
      return;
    }
    this.#record = record;
    this.#storedId = record.id;
    for (const _ in record.flash) {
      // Flash data lives for one request: readable now, gone from what is written back.
      this.#current = record.flash;
      record.flash = {};
      this.#dirty = true;
      break;
    }
  }

  #ensure(): SessionRecord {
    const r = this.#load();
    if (r !== null) return r;
    const fresh = newSessionRecord(this.#m.now());
    this.#record = fresh;
    this.#dirty = true;
    return fresh;
  }

  #changed(): void {
    this.#dirty = true;
    if (this.#committed) this.#lost();
  }

  #lost(): void {
    this.#host.log.warn(
      { code: 'BINDERY_SESSION_CHANGED_AFTER_RESPONSE', route: this.#host.route.name },
      'the session was changed after its cookie was written; the change is lost',
    );
  }
}

/**
 * The remember-me cookie (docs/spec.md 2.3, 5.2; docs/auth.md "Remember-me").
 *
 * Name `app_remember`, `__Host-app_remember` when Secure (host-only, path
 * `/`). The value is the user's authentication ID and remember token, sealed
 * with the app key (purpose `remember`, the cookie name authenticated
 * alongside) with an expiry equal to its `Max-Age`, so a copy kept past
 * `AUTH_REMEMBER_LIFETIME` does not open either.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Encrypter } from '../crypto/encrypter.js';
import { readCookie, serializeSetCookie, type CookieAttributes } from '../session/cookie-header.js';

/** Encryption purpose of the remember-me cookie. */
export const REMEMBER_PURPOSE = 'remember';
/** The cookie's name without the `__Host-` prefix. */
export const REMEMBER_COOKIE = 'app_remember';

/** What the cookie holds. */
export interface RememberPayload {
  /** The user's authentication ID. */
  readonly id: string;
  /** The user's remember token when the cookie was made. */
  readonly token: string;
}

/** A new remember token: 40 base64url characters from 30 random bytes. */
export function newRememberToken(): string {
  return randomBytes(30).toString('base64url');
}

/** Reads, writes and removes the remember-me cookie. */
export class RememberCookie {
  /** `__Host-app_remember` when Secure, else `app_remember`. */
  readonly name: string;
  readonly #encrypter: Encrypter;
  readonly #attributes: CookieAttributes;
  readonly #removal: string;
  readonly #lifetimeMs: number;
  readonly #now: () => number;

  /**
   * @param options.secure Secure cookie (as the session cookie: outside development and testing, unless `SESSION_SECURE` says otherwise).
   * @param options.lifetimeMs `AUTH_REMEMBER_LIFETIME`.
   */
  constructor(options: {
    readonly encrypter: Encrypter;
    readonly secure: boolean;
    readonly lifetimeMs: number;
    readonly now?: () => number;
  }) {
    this.name = options.secure ? `__Host-${REMEMBER_COOKIE}` : REMEMBER_COOKIE;
    this.#encrypter = options.encrypter;
    this.#lifetimeMs = options.lifetimeMs;
    this.#now = options.now ?? Date.now;
    this.#attributes = {
      path: '/',
      maxAge: Math.floor(options.lifetimeMs / 1000),
      httpOnly: true,
      secure: options.secure,
      sameSite: 'lax',
    };
    this.#removal = serializeSetCookie(this.name, '', { ...this.#attributes, maxAge: 0 });
  }

  /** The raw cookie value the request carries, or `undefined`. */
  read(request: FastifyRequest): string | undefined {
    return readCookie(request.headers.cookie, this.name);
  }

  /** The payload of a cookie value, or `null` when it does not open (tampered, another key, expired) or is not one. Never throws. */
  open(value: string): RememberPayload | null {
    const opened = this.#encrypter.openJson<unknown>(REMEMBER_PURPOSE, value, { context: this.name, now: this.#now() });
    if (!opened.ok) return null;
    const v = opened.value as Partial<RememberPayload> | null;
    if (typeof v !== 'object' || v === null || typeof v.id !== 'string' || typeof v.token !== 'string' || v.id === '' || v.token === '')
      return null;
    return { id: v.id, token: v.token };
  }

  /** Set the cookie for `payload` on the response. */
  issue(reply: FastifyReply, payload: RememberPayload): void {
    const value = this.#encrypter.sealJson(
      REMEMBER_PURPOSE,
      { id: payload.id, token: payload.token },
      { context: this.name, expiresAt: this.#now() + this.#lifetimeMs },
    );
    reply.header('set-cookie', serializeSetCookie(this.name, value, this.#attributes));
  }

  /** Remove the cookie (`Max-Age=0`). */
  clear(reply: FastifyReply): void {
    reply.header('set-cookie', this.#removal);
  }
}

/**
 * `ctx.auth`: who is making this request (docs/spec.md 5.1 rules 2–3, 5.5, 5.8).
 *
 * Two guards make one: the session guard (the `auth` middleware: the user ID
 * in the session, or a remember-me cookie) and the bearer-token guard (the
 * `token` middleware: `Authorization: Bearer <id>|<secret>`). Both build a
 * {@link RequestAuth}; handlers and the `require` guard use only this.
 *
 * The user is loaded from the database once per request, on first use.
 */
import type { Actor } from './execution-context.js';
import { BinderyError } from '../errors/bindery-error.js';

/** How the current user was identified. */
export type AuthVia = 'session' | 'remember' | 'token';

/** The bearer token of a request signed in by token (never the secret). */
export interface RequestToken {
  /** The token's ID (the part before `|`). */
  readonly id: string;
  readonly name: string;
  readonly abilities: readonly string[];
}

/** How a guard loads the request's user. */
export interface RequestAuthOptions<U> {
  readonly via: AuthVia;
  /** The user's authentication ID when known before loading (from the session or the token row). */
  readonly id: string;
  /** Load the user; resolves `null` when the user is gone (a deleted account). */
  readonly load: () => Promise<U | null>;
  /** The token, when signed in by one. */
  readonly token?: RequestToken;
}

/**
 * The identity of one request: a guest (no options) or a signed-in user.
 *
 * @example
 *   const user = await ctx.auth.user();          // null for a guest
 *   if (!ctx.auth.can('profile:read')) …         // a token's ability; session users have every one
 */
export class RequestAuth<U = unknown> {
  readonly #options: RequestAuthOptions<U> | null;
  #loaded: Promise<U | null> | undefined;
  #loading = false;

  /** A guest when `options` is `null`. */
  constructor(options: RequestAuthOptions<U> | null) {
    this.#options = options;
  }

  /** The authentication ID of the signed-in user (known without loading it), or `null` for a guest. */
  get id(): string | null {
    return this.#options?.id ?? null;
  }

  /** How the user was identified, or `null` for a guest. */
  get via(): AuthVia | null {
    return this.#options?.via ?? null;
  }

  /** The token of a request signed in by bearer token, else `null`. */
  get token(): RequestToken | null {
    return this.#options?.token ?? null;
  }

  /** True when the request is signed in (the user may still turn out to be gone). */
  get signedIn(): boolean {
    return this.#options !== null;
  }

  /**
   * The signed-in user, loaded once per request on first use; `null` for a guest
   * or when the user no longer exists. Callers asking while it loads (the
   * handler and the audit log at once) share the one load.
   * @throws {BinderyError} `BINDERY_AUTH_USER_LOADING` when the lookup itself asks for
   *   the user (docs/spec.md 7 rule 9): caught when it asks before its first `await`; a lookup
   *   awaiting `ctx.auth.user()` later would wait for itself, so lookups must never ask.
   */
  user(): Promise<U | null> {
    if (this.#options === null) return Promise.resolve(null);
    if (this.#loading) {
      throw new BinderyError(
        'BINDERY_AUTH_USER_LOADING',
        'The current user was asked for while it is being loaded: the user lookup (UserProvider.findById) must not ask for ctx.auth.user().',
      );
    }
    if (this.#loaded !== undefined) return this.#loaded;
    // #loading covers the synchronous start of load(): a lookup asking for the user there re-enters before #loaded is set.
    this.#loading = true;
    try {
      this.#loaded = this.#options.load();
    } finally {
      this.#loading = false;
    }
    return this.#loaded;
  }

  /**
   * Whether the request may use `ability` (docs/spec.md 5.5): a user signed in by
   * session has every ability; a token only what it lists; a guest nothing.
   * Abilities narrow tokens; what a user may do to which rows is the
   * policies' (`ctx.can`, docs/authorization.md).
   */
  can(ability: string): boolean {
    if (this.#options === null) return false;
    if (this.#options.token === undefined) return true;
    return this.#options.token.abilities.includes(ability);
  }

  /**
   * The actor for the audit log (docs/spec.md 5.8): `user:<id>` for a signed-in user,
   * `null` for a guest.
   * @throws {BinderyError} `BINDERY_AUTH_USER_GONE` when a signed-in user cannot be loaded (the write must fail).
   */
  async actor(): Promise<Actor | null> {
    if (this.#options === null) return null;
    const user = await this.user();
    if (user === null) {
      throw new BinderyError(
        'BINDERY_AUTH_USER_GONE',
        `The signed-in user ${this.#options.id} cannot be loaded (deleted?); the change is not attributed to anyone, so it is refused.`,
      );
    }
    return { type: 'user', id: this.#options.id };
  }
}

/** The guest identity (shared; it holds nothing). */
export const GUEST: RequestAuth<never> = new RequestAuth<never>(null);

/** `ctx.auth` as every request context carries it: the user type is the app's. */
// biome-ignore lint/suspicious/noExplicitAny: the user record is the app's own type and `ctx.auth` is declared once for every app by declaration merging, which cannot take a type parameter; `unknown` would force a cast in every handler.
export type AnyRequestAuth = RequestAuth<any>;

/** The user record of an app that did not name its user type: `ctx.auth.user()` gives it as the app stored it. */
// biome-ignore lint/suspicious/noExplicitAny: the default of the user type parameter; `unknown` would force every handler that reads a field of the user to cast.
export type UntypedUser = any;

import { createHash } from 'node:crypto';
import type { Cache } from '../../cache/cache.js';
import type { I18n } from '../../i18n/translator.js';
import { formatLinkTtl, linkMailWords, type LinkMailKind, type LinkMailWords } from './link-mails.js';
import { HttpError } from '../../errors/http-error.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { Mailer, MailResult } from '../../mail/mailer.js';
import type { AuthService } from '../auth-service.js';
import type { LinkFingerprints } from '../account/link-fingerprint.js';
import type { LinkTokens } from './link-tokens.js';
import type { ResolvedUsersTable } from './users-table.js';
import type { AnyKysely } from '../../db/any-kysely.js';

/** The message of an invalid, expired or used reset link (a field error on `password`, docs/spec.md 7 rules 7–8). */
export const RESET_LINK_INVALID = 'This password reset link is invalid or has expired. Ask for a new one.';
/** The detail of a bad verification link (400). */
export const VERIFY_LINK_INVALID = 'This verification link is invalid or has expired. Sign in and ask for a new one.';

/** Outcome of {@link AccountLinks.verifyEmail}. */
export type VerifyOutcome = 'verified' | 'already-verified';

/** Revokes a user's API tokens inside the reset's transaction (the tokens() step supplies it). */
export type RevokeAllTokens = (db: AnyKysely, userId: string) => Promise<unknown>;

/** What an {@link AccountLinks} is built from (the `links()` step fills it). */
export interface AccountLinksOptions {
  readonly tokens: LinkTokens;
  /** Binds each link to the account's address and password hash when it was made. */
  readonly fingerprints: LinkFingerprints;
  readonly db: AnyKysely;
  readonly auth: AuthService;
  readonly mailer: Mailer;
  readonly users: ResolvedUsersTable;
  /** `APP_URL`: links are built on it (a path prefix is kept). */
  readonly appUrl: URL;
  /** Paths of the verification and reset pages (default `/verify-email`, `/reset-password`). */
  readonly paths: { readonly verify: string; readonly reset: string };
  /** `AUTH_VERIFY_TTL`, `AUTH_RESET_TTL` in ms. */
  readonly verifyTtlMs: number;
  readonly resetTtlMs: number;
  /** The app's name, in mail subjects. */
  readonly appName: string;
  /** The app's translations, read at send time (`services.i18n`); absent: English mails. */
  readonly i18n?: () => I18n | undefined;
  /** Revoke every API token of a user in the given transaction; absent without tokens(). */
  readonly revokeAllTokens?: () => RevokeAllTokens | undefined;
  /** Clock in ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /**
   * Queue the reset mail for `login` (the `links()` step passes the jobs
   * queue when `jobs()` is set up before it). Absent: the mail is sent in
   * the background of the request, after its answer.
   */
  readonly queueReset?: (login: string) => Promise<unknown>;
  /** Where a background reset mail that failed is logged (without `queueReset`). */
  readonly log?: { error(object: object, message: string): void };
  /**
   * Counts reset mails per address (the app's cache, shared by every
   * instance): at most one reset mail per address every
   * {@link RESET_MAIL_INTERVAL_MS}; further requests in that window send
   * nothing (the link already mailed still works). Absent: every request mails.
   */
  readonly cache?: Pick<Cache, 'increment' | 'forget'>;
}

/** The window in which repeated reset mails to one address are coalesced into the first (ms). */
export const RESET_MAIL_INTERVAL_MS = 60_000;

/**
 * Verification and reset links: building, mailing, and following them.
 *
 * @example
 *   await ctx.services.accountLinks.sendVerification(user);   // after registration
 *   await ctx.services.accountLinks.verifyEmail(input.token);  // GET /verify-email
 */
export class AccountLinks {
  readonly #o: AccountLinksOptions;
  readonly #now: () => number;

  constructor(options: AccountLinksOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  /** The absolute URL of `path` on `APP_URL` (its path prefix kept), with `token` in the query. */
  #link(path: string, token: string): string {
    const base = this.#o.appUrl;
    const prefix = base.pathname.replace(/\/+$/, '');
    const url = new URL(`${prefix}${path}`, base.origin);
    url.searchParams.set('token', token);
    return url.href;
  }

  /** The user's email as stored (the users table's email column). */
  emailOf(user: unknown): string {
    const email = (user as Record<string, unknown> | null)?.[this.#o.users.email];
    if (typeof email !== 'string')
      throw new TypeError(
        `The user has no "${this.#o.users.email}" text; links() reads the address from the user's "${this.#o.users.email}" property (option users.email).`,
      );
    return email;
  }

  /** When the user's address was verified, or `null`. */
  emailVerifiedAtOf(user: unknown): unknown {
    return (user as Record<string, unknown>)[this.#o.users.emailVerifiedAt] ?? null;
  }

  /**
   * An absolute verification link for the user's current address, valid for
   * `AUTH_VERIFY_TTL` and only while the account keeps this address and
   * password (docs/auth.md "Emailed links end when the account changes").
   */
  verificationUrl(user: unknown): string {
    const email = this.emailOf(user).toLowerCase();
    const token = this.#o.tokens.sealVerification(
      { user: this.#o.auth.users.idOf(user), email, fingerprint: this.#fingerprint(user) },
      this.#now() + this.#o.verifyTtlMs,
    );
    return this.#link(this.#o.paths.verify, token);
  }

  /**
   * An absolute reset link for the user as they are now, valid for
   * `AUTH_RESET_TTL` and only while the account keeps its password and the
   * address the link is mailed to.
   */
  resetUrl(user: unknown): string {
    const token = this.#o.tokens.sealReset(
      { user: this.#o.auth.users.idOf(user), fingerprint: this.#fingerprint(user) },
      this.#now() + this.#o.resetTtlMs,
    );
    return this.#link(this.#o.paths.reset, token);
  }

  /** The link fingerprint of `user` now: its address and password hash. */
  #fingerprint(user: unknown): string {
    return this.#o.fingerprints.of(this.emailOf(user), this.#o.auth.users.passwordHashOf(user));
  }

  /** Whether a token's fingerprint is the one `user` has now (same address, same password hash). */
  #stillFor(user: unknown, fingerprint: string): boolean {
    return this.#o.fingerprints.matches(fingerprint, this.emailOf(user), this.#o.auth.users.passwordHashOf(user));
  }

  /** Mail the user a verification link, in the user's locale (docs/i18n.md "Mails"). */
  sendVerification(user: unknown): Promise<MailResult> {
    return this.#o.mailer.send({ to: this.emailOf(user), ...this.#words('verify', user, this.verificationUrl(user), this.#o.verifyTtlMs) });
  }

  /** Mail the user a password reset link, in the user's locale (docs/i18n.md "Mails"). */
  sendReset(user: unknown): Promise<MailResult> {
    return this.#o.mailer.send({ to: this.emailOf(user), ...this.#words('reset', user, this.resetUrl(user), this.#o.resetTtlMs) });
  }

  #words(kind: LinkMailKind, user: unknown, url: string, ttlMs: number): LinkMailWords {
    const locale = (user as Record<string, unknown> | null)?.[this.#o.users.locale];
    return linkMailWords(kind, { url, ttlMs, appName: this.#o.appName, i18n: this.#o.i18n?.(), locale });
  }

  /**
   * Ask for a reset mail for `login` the way `POST /forgot-password` does
   * (docs/auth.md "Password reset"): with `jobs()`, one job is queued
   * whatever the login — the worker looks the account up and mails it — so
   * the request takes the same time for a known and an unknown address.
   * Without `jobs()`, the lookup and mail run in the background, after this
   * resolves (a failure is logged; nothing retries it).
   * @throws whatever queuing throws (the database is down): the caller answers 5xx alike for every address.
   */
  async requestReset(login: string): Promise<void> {
    if (this.#o.queueReset !== undefined) {
      await this.#o.queueReset(login);
      return;
    }
    setImmediate(() => {
      this.sendResetTo(login).catch((error: unknown) => {
        this.#o.log?.error(
          { err: error, code: (error as { code?: unknown })?.code },
          `the password reset mail could not be sent: ${(error as Error)?.message ?? String(error)}`,
        );
      });
    });
  }

  /**
   * Mail a reset link to the account with this login now, if there is one
   * and no reset mail went to it in the last {@link RESET_MAIL_INTERVAL_MS}
   * (with `cache`; the earlier mail's link still works).
   * Its duration shows whether the account exists: requests use
   * {@link requestReset}; the reset job calls this.
   * @returns whether an account was found (and mailed, unless suppressed).
   * @throws {BinderyError} `BINDERY_MAIL_FAILED` when the mail cannot be sent.
   */
  async sendResetTo(login: string): Promise<boolean> {
    const user = await this.#o.auth.users.findByLogin(login);
    if (user === null) return false;
    const cache = this.#o.cache;
    // One mail per address and window, whoever asks how often: a stranger cannot flood the inbox.
    const key = `links:reset-mail:${createHash('sha256').update(login).digest('base64url')}`;
    if (cache !== undefined && (await cache.increment(key, RESET_MAIL_INTERVAL_MS)).count > 1) return true;
    let result: MailResult;
    try {
      result = await this.sendReset(user);
    } catch (error) {
      // Not sent: a retry (or the next request) may send it.
      await cache?.forget(key).catch(() => {});
      throw error;
    }
    // Suppressed (nothing delivered): nothing to coalesce with.
    if (result.delivered.length === 0) await cache?.forget(key).catch(() => {});
    return true;
  }

  /**
   * Follow a verification link (docs/spec.md 3 "User email"): an unverified address
   * whose token is valid, unexpired and made for the user's current address
   * and password becomes verified (`email_verified_at` = now, UTC); an
   * already verified one stays as it is (its timestamp unchanged).
   * @throws {HttpError} 400 `BINDERY_VERIFY_LINK_INVALID` for an invalid or expired token, an account that is gone, another address, or a password changed since.
   */
  async verifyEmail(token: string): Promise<VerifyOutcome> {
    const opened = this.#o.tokens.openVerification(token, this.#now());
    if (!opened.ok) throw invalidVerification();
    const { user: id, email } = opened.claim;
    const user = await this.#o.auth.users.findById(id);
    if (user === null || this.emailOf(user).toLowerCase() !== email || !this.#stillFor(user, opened.claim.fingerprint))
      throw invalidVerification();
    if (this.emailVerifiedAtOf(user) !== null) return 'already-verified';
    const u = this.#o.users;
    const now = new Date(this.#now());
    const result = await this.#o.db
      .updateTable(u.table)
      .set({ [u.emailVerifiedAt]: now, ...(u.updatedAt === null ? {} : { [u.updatedAt]: now }) })
      .where(u.id, '=', id)
      .where(u.email, '=', email)
      .where(u.emailVerifiedAt, 'is', null)
      .executeTakeFirst();
    // No row changed: verified meanwhile (same outcome), or the address changed meanwhile (refused).
    if (result.numUpdatedRows === 0n) {
      const again = await this.#o.auth.users.findById(id);
      if (again === null || this.emailOf(again).toLowerCase() !== email) throw invalidVerification();
      return 'already-verified';
    }
    return 'verified';
  }

  /**
   * Reset a password with a reset link (docs/spec.md 3 "Password reset token", 7
   * rule 8): the token must be unexpired and made for the current password
   * and address (a link mailed to an address the account no longer has is
   * refused); the new hash replaces the old one only if the row still holds
   * the old hash and address, so a second simultaneous submission (or a
   * change of address meanwhile) changes nothing. On success,
   * in the same transaction, every API token of the user is revoked; then
   * every session and remembered browser of the user ends
   * (`AuthService.signOutEverywhere`).
   * @returns the user (as loaded before the change).
   * @throws {ValidationError} on `password` with {@link RESET_LINK_INVALID} when the link is invalid, expired or used, or lost the race.
   */
  async resetPassword(token: string, password: string): Promise<unknown> {
    const opened = this.#o.tokens.openReset(token, this.#now());
    if (!opened.ok) throw invalidReset();
    const { auth, users: u } = this.#o;
    const user = await auth.users.findById(opened.claim.user);
    if (user === null) throw invalidReset();
    const oldHash = auth.users.passwordHashOf(user);
    if (!this.#stillFor(user, opened.claim.fingerprint)) throw invalidReset();
    const email = this.emailOf(user);
    const newHash = await auth.hashPassword(password);
    const id = auth.users.idOf(user);
    const revoke = this.#o.revokeAllTokens?.();
    const changed = await this.#o.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable(u.table)
        .set({ [u.password]: newHash, ...(u.updatedAt === null ? {} : { [u.updatedAt]: new Date(this.#now()) }) })
        .where(u.id, '=', id)
        .where(u.password, '=', oldHash)
        .where(u.email, '=', email)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      if (revoke !== undefined) await revoke(trx, id);
      return true;
    });
    if (!changed) throw invalidReset();
    await auth.signOutEverywhere(user);
    return user;
  }
}

function invalidVerification(): HttpError {
  return new HttpError('BINDERY_VERIFY_LINK_INVALID', VERIFY_LINK_INVALID);
}

function invalidReset(): ValidationError {
  return new ValidationError({ password: RESET_LINK_INVALID });
}

/** `24 hours`, `1 hour`, `30 minutes`. */
export function formatHours(ms: number): string {
  return formatLinkTtl(ms);
}

/**
 * Profile and credentials of the signed-in user (docs/auth.md "Profile and
 * credentials"): the name, the email address (a fresh password confirmation
 * first; changed only once the new address follows the link of the latest
 * request), the password (the current one required; other sessions,
 * remembered browsers and API tokens end, as after a reset).
 */
import { randomBytes } from 'node:crypto';
import type { Cache } from '../../cache/cache.js';
import type { Encrypter } from '../../crypto/encrypter.js';
import type { AnyKysely } from '../../db/any-kysely.js';
import { isUniqueViolation } from '../../db/database-errors.js';
import { HttpError } from '../../errors/http-error.js';
import { ValidationError } from '../../errors/validation-error.js';
import type { RequestContext } from '../../http/context.js';
import type { Mailer } from '../../mail/mailer.js';
import { hitRateLimit, rateLimitedError } from '../../rate-limit/rate-limiter.js';
import type { RedirectResult } from '../../results/result.js';
import type { AuthService } from '../auth-service.js';
import { recordAccountEvent } from '../account/account-audit.js';
import type { LinkFingerprints } from '../account/link-fingerprint.js';
import { checkPassword } from '../account/password-check.js';
import { askForConfirmation, CONFIRMATION_REQUIRED } from '../confirm/confirm-middleware.js';
import type { PasswordConfirmation } from '../confirm/password-confirmation.js';
import type { RevokeAllTokens } from '../links/account-links.js';
import type { ResolvedUsersTable } from '../links/users-table.js';
import { normalizeLogin } from '../user-provider.js';
import { openEmailChange, sealEmailChange } from './email-change-token.js';
import type { I18n } from '../../i18n/translator.js';
import { emailChangeLinkMail, emailChangeNoticeMail } from './profile-mails.js';

/** The field error of an address another account has (the registration's wording). */
export const EMAIL_TAKEN = 'The email has already been taken.';
/** The detail of a bad email change link (400). */
export const EMAIL_CHANGE_LINK_INVALID = 'This email change link is invalid or has expired. Sign in and ask for the change again.';

/** The field error on `current_password` of an email change without it in an app without `passwordConfirmation()`. */
export const CURRENT_PASSWORD_NEEDED = 'Type your current password to change the email address.';

/** Email change mails per account a minute. */
export const EMAIL_CHANGE_LIMIT = { name: 'email-change', limit: 5, windowMs: 60_000 } as const;

/** The cache key of the nonce of an account's latest email change request (only its link is followed). */
export function latestEmailChangeKey(userId: string): string {
  return `auth:email-change:${userId}`;
}

/** What `PUT /user/profile-information` gives {@link AccountProfile.update}. */
export interface ProfileInput {
  readonly name: string;
  readonly email: string;
  /** The current password: needed for a new address in an app without `passwordConfirmation()`; with it, it stands for a fresh confirmation. */
  readonly current_password?: string | undefined;
}

/** What an {@link AccountProfile} is built from (the `profile()` step). */
export interface AccountProfileOptions {
  readonly auth: AuthService;
  readonly db: AnyKysely;
  readonly users: ResolvedUsersTable;
  readonly mailer: Mailer;
  readonly encrypter: Encrypter;
  /** Binds email change links to the account's address and password when they were asked for. */
  readonly fingerprints: LinkFingerprints;
  readonly cache: Cache;
  /** `APP_URL`. */
  readonly appUrl: URL;
  /** Path of the page that follows an email change link (default `/user/confirm-email`). */
  readonly confirmEmailPath: string;
  readonly appName: string;
  /** The app's translations, read at send time (`services.i18n`); absent: English mails. */
  readonly i18n?: () => I18n | undefined;
  /** `AUTH_EMAIL_CHANGE_TTL`, ms. */
  readonly emailChangeTtlMs: number;
  /** `AUTH_HIDE_ACCOUNTS`: a taken address is refused only once its owner follows the link. */
  readonly hideAccounts: boolean;
  /** `AUTH_PASSWORD_CHANGE_SIGN_OUT`. */
  readonly passwordChangeSignsOut: boolean;
  /** Password checks per account a minute (`AUTH_THROTTLE`). */
  readonly throttle: number;
  /** Revokes every API token of a user in a transaction; absent without tokens(). */
  readonly revokeAllTokens: () => RevokeAllTokens | undefined;
  readonly services: object;
  readonly now: () => number;
}

/** Outcome of {@link AccountProfile.update}. */
export interface ProfileUpdate {
  /** Whether the name changed. */
  readonly nameChanged: boolean;
  /** The address a link was mailed to (the change waits for it), or `null`. */
  readonly emailPending: string | null;
}

/** `ctx.services.profile`. */
export class AccountProfile {
  readonly #o: AccountProfileOptions;

  constructor(options: AccountProfileOptions) {
    this.#o = options;
  }

  /**
   * Whether `input` must wait for a password confirmation, answered like a
   * route with `confirmPassword` (docs/auth.md "Changing the email
   * address"): `undefined` when it need not — the address stays, the
   * session confirmed the password within `AUTH_PASSWORD_TIMEOUT`, the
   * input carries `current_password` (checked by {@link update}), or the app
   * has no `passwordConfirmation()` (then {@link update} asks for
   * `current_password`) — else the redirect to the confirm form, the page
   * remembered. Handlers call it before {@link update}.
   * @throws {HttpError} 423 `BINDERY_PASSWORD_CONFIRMATION_REQUIRED` for a JSON client.
   */
  confirmationNeeded(ctx: RequestContext, user: unknown, input: ProfileInput): RedirectResult | undefined {
    if (normalizeLogin(input.email) === this.#emailOf(user) || hasText(input.current_password)) return undefined;
    const confirmation = this.#confirmation();
    if (confirmation === undefined || confirmation.isConfirmed(ctx)) return undefined;
    return askForConfirmation(ctx, confirmation);
  }

  /**
   * `PUT /user/profile-information` (`name`, `email`): the name is saved at
   * once. A new address needs a fresh password confirmation (or the right
   * `current_password`); it is mailed a link (and the old one a notice) and
   * the account keeps its old address until the link is followed. Only the
   * latest request's link works. An address another account has is 422 on
   * `email` — or, with `AUTH_HIDE_ACCOUNTS`, answered like a free one and
   * refused when its link is followed. Audited as `auth.profile_updated`
   * and `auth.email_change_requested`.
   * @throws {HttpError} 423 `BINDERY_PASSWORD_CONFIRMATION_REQUIRED` for a new address without a fresh confirmation.
   * @throws {HttpError} 422 on `current_password` when it is wrong (`BINDERY_PASSWORD_INCORRECT`, `BINDERY_AUTH_THROTTLED`) or, without `passwordConfirmation()`, missing.
   * @throws {ValidationError} 422 on `email` for a taken address (unless hidden).
   * @throws {HttpError} 429 past 5 email change mails a minute for the account.
   */
  async update(ctx: RequestContext, user: unknown, input: ProfileInput): Promise<ProfileUpdate> {
    const o = this.#o;
    const u = o.users;
    const row = user as Record<string, unknown>;
    const id = o.auth.users.idOf(user);
    const name = input.name.trim();
    const email = normalizeLogin(input.email);
    const current = this.#emailOf(user);
    let emailPending: string | null = null;
    if (email !== current) {
      await this.#passwordConfirmed(ctx, user, input.current_password);
      if (!o.hideAccounts && (await this.#taken(email, id))) throw new ValidationError({ email: EMAIL_TAKEN });
      const state = await hitRateLimit(o.cache, EMAIL_CHANGE_LIMIT, id);
      if (!state.allowed) throw rateLimitedError(state, 'Too many email changes asked for. Please wait a minute.', o.now());
      // Only the latest request's link works: its nonce replaces the one before.
      const nonce = randomBytes(16).toString('base64url');
      const fingerprint = o.fingerprints.of(current, o.auth.users.passwordHashOf(user));
      const token = sealEmailChange(o.encrypter, { user: id, from: current, to: email, fingerprint, nonce }, o.now() + o.emailChangeTtlMs);
      await o.cache.put(latestEmailChangeKey(id), nonce, o.emailChangeTtlMs);
      // In the account owner's locale, not the request's (docs/i18n.md "Mails and jobs").
      const i18n = o.i18n?.();
      const words = i18n === undefined ? undefined : { i18n, locale: row[u.locale] };
      await o.mailer.send(emailChangeLinkMail(o.appName, email, this.#link(token), o.emailChangeTtlMs, words));
      await o.mailer.send(emailChangeNoticeMail(o.appName, current, email, words));
      await recordAccountEvent(o.services, id, { action: 'auth.email_change_requested' });
      emailPending = email;
    }
    const nameChanged = name !== row[u.name];
    if (nameChanged) {
      await o.db
        .updateTable(u.table)
        .set({ [u.name]: name, ...this.#touched() })
        .where(u.id, '=', id)
        .execute();
      await recordAccountEvent(o.services, id, { action: 'auth.profile_updated', details: { fields: ['name'] } });
    }
    return { nameChanged, emailPending };
  }

  /**
   * Follow an email change link: the account's address becomes the new one,
   * verified (the link proved it), if the link is the one of the account's
   * latest request and the account still has the address and password it
   * had then. A second use of a link that worked answers `already-changed`.
   * Audited as `auth.email_changed`.
   * @throws {HttpError} 400 `BINDERY_EMAIL_CHANGE_LINK_INVALID` for a bad, expired or outdated link (a later request, or a change of address or password since).
   * @throws {ValidationError} 422 on `email` when another account has the address by now.
   */
  async confirmEmailChange(token: string): Promise<'changed' | 'already-changed'> {
    const o = this.#o;
    const u = o.users;
    const claim = openEmailChange(o.encrypter, token, o.now());
    if (claim === null) throw invalidLink();
    const user = await o.auth.users.findById(claim.user);
    if (user === null) throw invalidLink();
    const current = this.#emailOf(user);
    if (current === claim.to) return 'already-changed';
    const hash = o.auth.users.passwordHashOf(user);
    if (current !== claim.from || !o.fingerprints.matches(claim.fingerprint, current, hash)) throw invalidLink();
    if ((await o.cache.get<unknown>(latestEmailChangeKey(claim.user))) !== claim.nonce) throw invalidLink();
    if (await this.#taken(claim.to, claim.user)) throw new ValidationError({ email: EMAIL_TAKEN });
    const now = new Date(o.now());
    let changed: bigint;
    try {
      const result = await o.db
        .updateTable(u.table)
        .set({ [u.email]: claim.to, [u.emailVerifiedAt]: now, ...this.#touched() })
        .where(u.id, '=', claim.user)
        .where(u.email, '=', claim.from)
        .where(u.password, '=', hash)
        .executeTakeFirst();
      changed = result.numUpdatedRows;
    } catch (error) {
      // Another account took the address between the check and the update (the unique index answers).
      if (isUniqueViolation(error)) throw new ValidationError({ email: EMAIL_TAKEN });
      throw error;
    }
    if (changed === 0n) throw invalidLink();
    await o.cache.forget(latestEmailChangeKey(claim.user));
    await recordAccountEvent(o.services, claim.user, { action: 'auth.email_changed' });
    return 'changed';
  }

  /**
   * `PUT /user/password` (`current_password`, `password`): the current
   * password is checked (throttled; 422 on `current_password`), the new
   * hash written only while the row still holds the old one. With
   * `AUTH_PASSWORD_CHANGE_SIGN_OUT` (default) every API token is revoked in
   * the same transaction, and every other session and remembered browser
   * ends; this request stays signed in. Audited as `auth.password_changed`.
   * @throws {HttpError} 422 on `current_password` (`BINDERY_PASSWORD_INCORRECT`, `BINDERY_AUTH_THROTTLED`), or when the password changed meanwhile.
   */
  async updatePassword(ctx: RequestContext, user: unknown, currentPassword: string, password: string): Promise<void> {
    const o = this.#o;
    const { auth, users: u } = o;
    await checkPassword({ auth, cache: o.cache, limit: o.throttle, now: o.now }, user, currentPassword, 'current_password');
    const id = auth.users.idOf(user);
    const oldHash = auth.users.passwordHashOf(user);
    const newHash = await auth.hashPassword(password);
    const revoke = o.passwordChangeSignsOut ? o.revokeAllTokens() : undefined;
    const changed = await o.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable(u.table)
        .set({ [u.password]: newHash, ...this.#touched() })
        .where(u.id, '=', id)
        .where(u.password, '=', oldHash)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      if (revoke !== undefined) await revoke(trx, id);
      return true;
    });
    if (!changed) {
      throw new HttpError('BINDERY_PASSWORD_INCORRECT', 'The given data was invalid.', {
        fieldErrors: { current_password: 'The password was changed meanwhile; type the new one.' },
      });
    }
    const updated = (await auth.users.findById(id)) ?? user;
    if (o.passwordChangeSignsOut) await auth.signOutEverywhere(updated, { except: ctx });
    else ctx.session.setUser(id, auth.fingerprint(newHash));
    await recordAccountEvent(o.services, id, { action: 'auth.password_changed', details: { signed_out_others: o.passwordChangeSignsOut } });
  }

  /**
   * A new address needs the password: the right `current_password` (noted as
   * a confirmation too), else a confirmation within `AUTH_PASSWORD_TIMEOUT`;
   * an app without `passwordConfirmation()` needs `current_password`.
   */
  async #passwordConfirmed(ctx: RequestContext, user: unknown, currentPassword: string | undefined): Promise<void> {
    const o = this.#o;
    const confirmation = this.#confirmation();
    if (hasText(currentPassword)) {
      await checkPassword({ auth: o.auth, cache: o.cache, limit: o.throttle, now: o.now }, user, currentPassword, 'current_password');
      confirmation?.markConfirmed(ctx);
      return;
    }
    if (confirmation === undefined) throw new ValidationError({ current_password: CURRENT_PASSWORD_NEEDED });
    if (!confirmation.isConfirmed(ctx)) throw new HttpError('BINDERY_PASSWORD_CONFIRMATION_REQUIRED', CONFIRMATION_REQUIRED);
  }

  /** The app's password confirmation (`passwordConfirmation()`, set up before or after this step), if any. */
  #confirmation(): PasswordConfirmation | undefined {
    return (this.#o.services as { passwordConfirmation?: PasswordConfirmation }).passwordConfirmation;
  }

  /** The user's address as stored, lower case. */
  #emailOf(user: unknown): string {
    return String((user as Record<string, unknown>)[this.#o.users.email] ?? '').toLowerCase();
  }

  /** Whether an account other than `exceptId` has `email`. */
  async #taken(email: string, exceptId: string): Promise<boolean> {
    const u = this.#o.users;
    const row = await this.#o.db.selectFrom(u.table).select(u.id).where(u.email, '=', email).executeTakeFirst();
    return row !== undefined && String((row as Record<string, unknown>)[u.id]) !== exceptId;
  }

  #touched(): Record<string, Date> {
    const column = this.#o.users.updatedAt;
    return column === null ? {} : { [column]: new Date(this.#o.now()) };
  }

  #link(token: string): string {
    const base = this.#o.appUrl;
    const url = new URL(`${base.pathname.replace(/\/+$/, '')}${this.#o.confirmEmailPath}`, base.origin);
    url.searchParams.set('token', token);
    return url.href;
  }
}

function hasText(value: string | undefined): value is string {
  return typeof value === 'string' && value !== '';
}

function invalidLink(): HttpError {
  return new HttpError('BINDERY_EMAIL_CHANGE_LINK_INVALID', EMAIL_CHANGE_LINK_INVALID);
}

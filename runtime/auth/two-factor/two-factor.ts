/**
 * Two-factor authentication with TOTP codes (docs/auth.md "Two-factor
 * authentication"): enabling (a secret shown as a QR code), confirming with
 * a first code, recovery codes, the code asked after the password at login
 * (with its lockout), and disabling.
 */
import { randomBytes } from 'node:crypto';
import type { Cache } from '../../cache/cache.js';
import type { Encrypter } from '../../crypto/encrypter.js';
import { HttpError } from '../../errors/http-error.js';
import type { RequestContext } from '../../http/context.js';
import type { I18n } from '../../i18n/translator.js';
import type { Mailer } from '../../mail/mailer.js';
import type { AuthService, SecondFactorGate } from '../auth-service.js';
import { recordAccountEvent } from '../account/account-audit.js';
import { newRecoveryCodes } from './recovery-codes.js';
import { newTotpSecret, TOTP_DRIFT_STEPS, TOTP_PERIOD, totpCode, totpQrSvg, totpUri, verifyTotp } from './totp.js';
import { type CodeLockout, LOCKOUT_AFTER } from './code-lockout.js';
import { lockoutNoticeMail } from './lockout-notice.js';
import { codeInvalid, codeLocked, codeThrottled, LOGIN_EXPIRED } from './two-factor-errors.js';
import type { TwoFactorStore } from './two-factor-store.js';

/** Session key of the pending login (Fortify's `login.id` and `login.remember`). */
export const PENDING_KEY = 'auth.two_factor';
/** Session key of the recovery codes not yet shown (sealed). */
export const CODES_KEY = 'auth.two_factor_codes';
/** How long a pending login waits for its code (ms). */
export const PENDING_TTL_MS = 600_000;
/** Encryption purpose of the recovery codes kept in the session until shown. */
export const CODES_PURPOSE = 'recovery-codes';

/** The pending login kept in the session between the password and the code. */
interface Pending {
  readonly id: string;
  /** Fingerprint of the password hash checked: a password changed meanwhile ends the pending login. */
  readonly fp: string;
  readonly remember: boolean;
  readonly at: number;
  /** A random nonce naming this pending login: its recovery-code tries are counted under it. */
  readonly n: string;
}

/** What {@link TwoFactor} is built from (the `twoFactor()` step). */
export interface TwoFactorOptions {
  readonly auth: AuthService;
  readonly store: TwoFactorStore;
  /** The lockout of wrong codes at sign-in (persisted in the two-factor row). */
  readonly lockout: CodeLockout;
  readonly cache: Cache;
  readonly encrypter: Encrypter;
  /** The issuer shown by authenticator apps (the app's name). */
  readonly issuer: string;
  /** `AUTH_TWO_FACTOR_THROTTLE`: recovery codes tried per pending login a minute, and codes per account a minute when confirming. */
  readonly throttle: number;
  /**
   * Whether turning two-factor on revokes the user's API tokens, as a
   * password change does (`AUTH_PASSWORD_CHANGE_SIGN_OUT` when `profile()`
   * is set up; otherwise true, as a reset does).
   */
  readonly revokeApiTokens: boolean;
  /** The app's name, in the lockout notice. */
  readonly appName: string;
  /** The app's translations when `i18n()` is set up (read when a notice is sent): the notice is in the owner's locale. */
  readonly i18n?: () => I18n | undefined;
  /** The app's mailer when `mail()` is set up (read when a notice is sent). */
  readonly mailer: () => Mailer | undefined;
  /** Have the lockout notice sent for an account (queued as a job, or sent in the background); absent: no notice. */
  readonly notifyLockout?: (userId: string) => Promise<unknown>;
  readonly services: object;
  readonly now: () => number;
}

/** An account's two-factor state, as `GET /user/two-factor-authentication` answers it. */
export interface TwoFactorStatus {
  /** A secret exists (enabled, perhaps not yet confirmed). */
  readonly enabled: boolean;
  /** A first code confirmed it: logins ask for a code. */
  readonly confirmed: boolean;
  readonly recovery_codes_left: number;
}

/** The part of the tokens service (`tokens()`) that turning two-factor on uses. */
interface RevokesTokens {
  revokeAll(userId: string): Promise<number>;
}

/** `ctx.services.twoFactor`. */
export class TwoFactor implements SecondFactorGate {
  readonly #o: TwoFactorOptions;

  constructor(options: TwoFactorOptions) {
    this.#o = options;
  }

  // ── managing (signed in) ──

  /** The account's state. */
  async status(user: unknown): Promise<TwoFactorStatus> {
    const id = this.#id(user);
    const row = await this.#o.store.read(id);
    return {
      enabled: row !== null,
      confirmed: row?.confirmedAt != null,
      recovery_codes_left: row === null ? 0 : await this.#o.store.codesLeft(id),
    };
  }

  /**
   * `POST /user/two-factor-authentication`: a new secret and ten recovery
   * codes, unconfirmed (logins ask for codes only once confirmed). An
   * account that has a secret keeps it unless `force`. The codes are kept
   * in the session, sealed, until shown once. Audited as `auth.two_factor_enabled`.
   */
  async enable(ctx: RequestContext, user: unknown, options: { readonly force?: boolean } = {}): Promise<void> {
    const id = this.#id(user);
    if (!options.force && (await this.#o.store.read(id)) !== null) return;
    const codes = newRecoveryCodes();
    await this.#o.store.replace(id, newTotpSecret(), codes);
    this.#stash(ctx, id, codes);
    await recordAccountEvent(this.#o.services, id, { action: 'auth.two_factor_enabled' });
  }

  /** `GET /user/two-factor-qr-code`: `{ svg, url }` (the `otpauth://` URI and its QR code), or `null` without a secret. */
  async qrCode(user: unknown): Promise<{ svg: string; url: string } | null> {
    const row = await this.#o.store.read(this.#id(user));
    if (row === null) return null;
    const url = totpUri(this.#o.issuer, this.#label(user), row.secret);
    return { svg: await totpQrSvg(url), url };
  }

  /**
   * `GET /user/two-factor-secret-key`: the secret in base32, for typing into an app.
   * @throws {HttpError} 404 `BINDERY_TWO_FACTOR_NOT_ENABLED` without a secret.
   */
  async secretKey(user: unknown): Promise<string> {
    const row = await this.#o.store.read(this.#id(user));
    if (row === null) throw new HttpError('BINDERY_TWO_FACTOR_NOT_ENABLED', 'Two factor authentication has not been enabled.');
    return row.secret;
  }

  /**
   * `POST /user/confirmed-two-factor-authentication`: a first code from the
   * authenticator turns two-factor on for logins. Counted by the throttle.
   * Then every credential made without a code ends, as after a password
   * change (docs/auth.md "Two-factor authentication"): the remember token is
   * replaced (remembered browsers would sign in without a code), the user's
   * other server-side sessions are deleted, and the API tokens revoked when
   * a password change revokes them; this request stays signed in. Audited
   * as `auth.two_factor_confirmed`.
   * @throws {HttpError} 422 on `code` (`BINDERY_TWO_FACTOR_CODE_INVALID`, `BINDERY_TWO_FACTOR_THROTTLED`).
   */
  async confirm(ctx: RequestContext, user: unknown, code: string): Promise<void> {
    const id = this.#id(user);
    await this.#count(id, 'code');
    if (!(await this.#acceptCode(id, code, true))) throw codeInvalid('code');
    await this.#o.cache.forget(throttleKey(id));
    const apiTokens = this.#o.revokeApiTokens ? (this.#o.services as { apiTokens?: RevokesTokens }).apiTokens : undefined;
    const revoked = apiTokens === undefined ? null : await apiTokens.revokeAll(id);
    await this.#o.auth.signOutEverywhere(user, { except: ctx });
    await recordAccountEvent(this.#o.services, id, {
      action: 'auth.two_factor_confirmed',
      details: { signed_out_others: true, api_tokens_revoked: revoked },
    });
  }

  /** `DELETE /user/two-factor-authentication` (behind a password confirmation): secret and codes removed. Audited as `auth.two_factor_disabled`. */
  async disable(user: unknown): Promise<void> {
    const id = this.#id(user);
    if (await this.#o.store.remove(id)) await recordAccountEvent(this.#o.services, id, { action: 'auth.two_factor_disabled' });
  }

  /**
   * The recovery codes made by the last enable or regenerate in this
   * session, once: they are removed from the session as they are read.
   * Empty when there are none to show (they are stored hashed).
   */
  takeRecoveryCodes(ctx: RequestContext, user: unknown): string[] {
    const sealed = ctx.session.pull<unknown>(CODES_KEY);
    if (typeof sealed !== 'string') return [];
    const opened = this.#o.encrypter.openJson<unknown>(CODES_PURPOSE, sealed, { context: this.#id(user), now: this.#o.now() });
    return opened.ok && Array.isArray(opened.value) ? opened.value.filter((c): c is string => typeof c === 'string') : [];
  }

  /**
   * `POST /user/two-factor-recovery-codes`: ten new codes replace the old
   * ones (kept in the session until shown once). Audited as `auth.recovery_codes_regenerated`.
   * @throws {HttpError} 404 `BINDERY_TWO_FACTOR_NOT_ENABLED` without a secret.
   */
  async regenerateRecoveryCodes(ctx: RequestContext, user: unknown): Promise<void> {
    const id = this.#id(user);
    if ((await this.#o.store.read(id)) === null)
      throw new HttpError('BINDERY_TWO_FACTOR_NOT_ENABLED', 'Two factor authentication has not been enabled.');
    const codes = newRecoveryCodes();
    await this.#o.store.replaceCodes(id, codes);
    this.#stash(ctx, id, codes);
    await recordAccountEvent(this.#o.services, id, { action: 'auth.recovery_codes_regenerated' });
  }

  /**
   * A code the account would accept now: the current time step's, or — when
   * that one was used already — the next step's (still within the drift
   * allowed). For the test kit (`t.signIn(user, { totp: true })`); `null`
   * without a secret or when no step of the window is left.
   */
  async nextCode(userId: string): Promise<string | null> {
    const row = await this.#o.store.read(userId);
    if (row === null) return null;
    const current = Math.floor(this.#o.now() / 1000 / TOTP_PERIOD);
    for (let step = current; step <= current + TOTP_DRIFT_STEPS; step++) {
      if (row.lastUsedStep === null || step > row.lastUsedStep) return totpCode(row.secret, step * TOTP_PERIOD * 1000);
    }
    return null;
  }

  // ── the login (SecondFactorGate) ──

  /** Whether `user` has confirmed two-factor authentication (the login then asks for a code). */
  async required(user: unknown): Promise<boolean> {
    return (await this.#o.store.read(this.#id(user)))?.confirmedAt != null;
  }

  /**
   * Keep the pending login in the session (not signed in). The session keeps
   * its ID and CSRF token here, so a JSON client posts its code with the
   * token it has; the sign-in after the code gives it a new ID.
   */
  async challenge(ctx: RequestContext, user: unknown, options: { readonly remember: boolean }): Promise<void> {
    const { auth } = this.#o;
    const pending: Pending = {
      id: this.#id(user),
      fp: auth.fingerprint(auth.users.passwordHashOf(user)),
      remember: options.remember,
      at: this.#o.now(),
      n: randomBytes(12).toString('base64url'),
    };
    ctx.session.put(PENDING_KEY, pending);
  }

  /** Whether this session has a pending login waiting for its code. */
  hasPendingLogin(ctx: RequestContext): boolean {
    return this.#pending(ctx) !== null;
  }

  /**
   * `POST /two-factor-challenge` (`code` or `recovery_code`): finish the
   * pending login (docs/auth.md "Two-factor lockout"). Every code counts
   * towards the account's lockout: past {@link LOCKOUT_AFTER} wrong codes in
   * a row, codes are refused unchecked for a growing time, and the owner is
   * mailed once. Recovery codes are not locked out; they are limited per
   * pending login (`AUTH_TWO_FACTOR_THROTTLE` a minute). A code is accepted
   * once (a replay within its window is refused), a recovery code once. On
   * success the user is signed in (`remember` as asked at the password
   * step) and the lockout cleared. Audited as `auth.two_factor_login` or
   * `auth.recovery_code_used`; a wrong code as `auth.two_factor_failed`.
   * @returns the user, signed in.
   * @throws {HttpError} 422 on `code` or `recovery_code` (`BINDERY_TWO_FACTOR_CODE_INVALID`, `BINDERY_TWO_FACTOR_THROTTLED`).
   * @throws {HttpError} 429 on `code` while codes are locked out (`BINDERY_TWO_FACTOR_LOCKED`, `Retry-After`).
   */
  async completeLogin(
    ctx: RequestContext,
    input: { readonly code?: string | undefined; readonly recovery_code?: string | undefined },
  ): Promise<unknown> {
    const { auth } = this.#o;
    const field = input.recovery_code !== undefined && input.recovery_code !== '' ? 'recovery_code' : 'code';
    const pending = this.#pending(ctx);
    if (pending === null) throw codeInvalid(field, LOGIN_EXPIRED);
    const user = await auth.users.findById(pending.id);
    if (user === null || auth.fingerprint(auth.users.passwordHashOf(user)) !== pending.fp) {
      ctx.session.forget(PENDING_KEY);
      throw codeInvalid(field, LOGIN_EXPIRED);
    }
    const ok =
      field === 'recovery_code'
        ? await this.#tryRecoveryCode(pending, input.recovery_code!)
        : await this.#trySignInCode(pending, input.code ?? '');
    if (!ok) {
      await recordAccountEvent(this.#o.services, pending.id, { action: 'auth.two_factor_failed', details: { field } });
      throw codeInvalid(field);
    }
    await this.#o.lockout.clear(pending.id);
    ctx.session.forget(PENDING_KEY);
    await auth.login(ctx, user, { remember: pending.remember, method: 'two-factor' });
    await recordAccountEvent(this.#o.services, pending.id, {
      action: field === 'recovery_code' ? 'auth.recovery_code_used' : 'auth.two_factor_login',
      ...(field === 'recovery_code' ? { details: { recovery_codes_left: await this.#o.store.codesLeft(pending.id) } } : {}),
    });
    return user;
  }

  /**
   * Mail the owner of account `userId` that its codes were locked out (the
   * lockout notice job's work). Nothing when the app has no `mail()`, or the
   * account is gone or has no `email`.
   * @returns whether a mail was sent.
   * @throws {BinderyError} `BINDERY_MAIL_FAILED` when the mail cannot be sent (the job retries).
   */
  async sendLockoutNotice(userId: string): Promise<boolean> {
    const mailer = this.#o.mailer();
    if (mailer === undefined) return false;
    const user = await this.#o.auth.users.findById(userId);
    const email = user === null ? undefined : (user as Record<string, unknown>)['email'];
    if (typeof email !== 'string' || email === '') return false;
    const i18n = this.#o.i18n?.();
    const words = i18n === undefined ? undefined : { i18n, locale: (user as Record<string, unknown>)['locale'] };
    await mailer.send(lockoutNoticeMail(this.#o.appName, email, words));
    return true;
  }

  // ── internals ──

  /** A sign-in code: counted by the lockout before it is checked; refused unchecked while locked out; the owner told once per lockout. */
  async #trySignInCode(pending: Pending, code: string): Promise<boolean> {
    const lockout = this.#o.lockout;
    const attempt = await lockout.reserve(pending.id, pending.fp);
    if (!attempt.allowed) throw codeLocked(attempt.retryAfterMs);
    if (await this.#acceptCode(pending.id, code, false)) return true;
    if (attempt.failures >= LOCKOUT_AFTER && this.#o.notifyLockout !== undefined && (await lockout.claimNotice(pending.id, pending.fp))) {
      await this.#o.notifyLockout(pending.id);
    }
    return false;
  }

  /** A recovery code: limited per pending login (another login's tries do not use up this one's), not locked out. */
  async #tryRecoveryCode(pending: Pending, code: string): Promise<boolean> {
    const state = await this.#o.cache.increment(`auth:two-factor:login:${pending.n}`, 60_000);
    if (state.count > this.#o.throttle)
      throw codeThrottled('recovery_code', Math.max(1, Math.ceil((state.resetAt - this.#o.now()) / 1000)));
    return this.#o.store.useRecoveryCode(pending.id, code, new Date(this.#o.now()));
  }

  #id(user: unknown): string {
    return this.#o.auth.users.idOf(user);
  }

  #label(user: unknown): string {
    const email = (user as Record<string, unknown>)['email'];
    return typeof email === 'string' ? email : this.#id(user);
  }

  #pending(ctx: RequestContext): Pending | null {
    const p = ctx.session.get<Partial<Pending>>(PENDING_KEY);
    if (
      typeof p !== 'object' ||
      p === null ||
      typeof p.id !== 'string' ||
      typeof p.fp !== 'string' ||
      typeof p.at !== 'number' ||
      typeof p.n !== 'string'
    )
      return null;
    const age = this.#o.now() - p.at;
    if (age < 0 || age > PENDING_TTL_MS) return null;
    return { id: p.id, fp: p.fp, remember: p.remember === true, at: p.at, n: p.n };
  }

  /** Count a confirming attempt for the account; past the limit it is refused without a check. */
  async #count(id: string, field: 'code' | 'recovery_code'): Promise<void> {
    const state = await this.#o.cache.increment(throttleKey(id), 60_000);
    if (state.count > this.#o.throttle) throw codeThrottled(field, Math.max(1, Math.ceil((state.resetAt - this.#o.now()) / 1000)));
  }

  /** Check a TOTP code and note its step as used (refusing a step used before). */
  async #acceptCode(id: string, code: string, confirm: boolean): Promise<boolean> {
    const row = await this.#o.store.read(id);
    if (row === null) return false;
    const step = await verifyTotp(row.secret, code.replace(/\s+/g, ''), this.#o.now(), row.lastUsedStep);
    return step !== null && (await this.#o.store.useStep(id, step, confirm, new Date(this.#o.now())));
  }

  #stash(ctx: RequestContext, id: string, codes: readonly string[]): void {
    ctx.session.put(CODES_KEY, this.#o.encrypter.sealJson(CODES_PURPOSE, codes, { context: id, expiresAt: this.#o.now() + 900_000 }));
  }
}

function throttleKey(id: string): string {
  return `auth:two-factor:${id}`;
}

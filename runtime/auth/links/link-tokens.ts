/**
 * The tokens of emailed account links (docs/spec.md 2.3 "Email verification
 * token", "Password reset token"; 5.6): encrypted with `APP_KEY`, never
 * stored. Each has its own encryption purpose, so a verification token never
 * opens as a reset token nor the reverse.
 *
 * | token | purpose | content |
 * |---|---|---|
 * | verification | `verify-email` | user ID, the address being verified, link fingerprint, expiry |
 * | reset | `reset-password` | user ID, link fingerprint, expiry |
 *
 * The link fingerprint (runtime/auth/account/link-fingerprint.ts) is made of
 * the address the link was mailed to and the password hash: a change of
 * either ends the link. Tokens made before the fingerprint existed (without
 * it) are refused as invalid.
 */
import type { Encrypter } from '../../crypto/encrypter.js';

/** Encryption purpose of email verification tokens. */
export const VERIFY_PURPOSE = 'verify-email';
/** Encryption purpose of password reset tokens. */
export const RESET_PURPOSE = 'reset-password';

/** What a verification token says. */
export interface VerificationClaim {
  /** The user's authentication ID. */
  readonly user: string;
  /** The address the link verifies (lower case). */
  readonly email: string;
  /** The link fingerprint of the account (address and password hash) when the link was made. */
  readonly fingerprint: string;
}

/** What a reset token says. */
export interface ResetClaim {
  /** The user's authentication ID. */
  readonly user: string;
  /** The link fingerprint of the account (the address mailed and the password hash) when the link was made (LinkFingerprints.of). */
  readonly fingerprint: string;
}

/** Why a token was refused. */
export type LinkTokenProblem = 'invalid' | 'expired';

/** Outcome of opening a link token. */
export type OpenedLink<T> = { readonly ok: true; readonly claim: T } | { readonly ok: false; readonly reason: LinkTokenProblem };

/**
 * Seals and opens the tokens of account links with an {@link Encrypter}.
 * Opening never throws: a malformed, tampered, foreign-purpose or expired
 * token is a refusal with its reason.
 */
export class LinkTokens {
  readonly #encrypter: Encrypter;

  constructor(encrypter: Encrypter) {
    this.#encrypter = encrypter;
  }

  /** A verification token valid until `expiresAt` (ms since the epoch). */
  sealVerification(claim: VerificationClaim, expiresAt: number): string {
    return this.#encrypter.sealJson(VERIFY_PURPOSE, { u: claim.user, e: claim.email, l: claim.fingerprint }, { expiresAt });
  }

  /** Open a verification token (checked against `now`, default the current time). */
  openVerification(token: string, now?: number): OpenedLink<VerificationClaim> {
    const opened = this.#encrypter.openJson<{ u?: unknown; e?: unknown; l?: unknown }>(
      VERIFY_PURPOSE,
      token,
      now === undefined ? {} : { now },
    );
    if (!opened.ok) return opened;
    const { u, e, l } = opened.value ?? {};
    if (typeof u !== 'string' || typeof e !== 'string' || typeof l !== 'string') return { ok: false, reason: 'invalid' };
    return { ok: true, claim: { user: u, email: e, fingerprint: l } };
  }

  /** A reset token valid until `expiresAt` (ms since the epoch). */
  sealReset(claim: ResetClaim, expiresAt: number): string {
    return this.#encrypter.sealJson(RESET_PURPOSE, { u: claim.user, l: claim.fingerprint }, { expiresAt });
  }

  /** Open a reset token (checked against `now`, default the current time). */
  openReset(token: string, now?: number): OpenedLink<ResetClaim> {
    const opened = this.#encrypter.openJson<{ u?: unknown; l?: unknown }>(RESET_PURPOSE, token, now === undefined ? {} : { now });
    if (!opened.ok) return opened;
    // `l`, not the `f` (password-only fingerprint) of earlier tokens: those open as invalid.
    const { u, l } = opened.value ?? {};
    if (typeof u !== 'string' || typeof l !== 'string') return { ok: false, reason: 'invalid' };
    return { ok: true, claim: { user: u, fingerprint: l } };
  }
}

/**
 * The token of an email change link (docs/auth.md "Changing the email
 * address"): the user, the address the account had when the change was
 * asked for, the new address, the link fingerprint of the account then
 * (its address and password hash: a change of either ends the link), the
 * request's nonce (only the latest request's link works) and an expiry,
 * encrypted with `APP_KEY` under its own purpose (it never opens as a
 * verification or reset token). Not stored; the latest nonce is kept in
 * the cache.
 */
import type { Encrypter } from '../../crypto/encrypter.js';

/** Encryption purpose of email change tokens. */
export const EMAIL_CHANGE_PURPOSE = 'change-email';

/** What an email change token says. */
export interface EmailChangeClaim {
  /** The user's authentication ID. */
  readonly user: string;
  /** The address the account had when the change was asked for (lower case). */
  readonly from: string;
  /** The new address (lower case). */
  readonly to: string;
  /** The link fingerprint of the account (the `from` address and the password hash) when the change was asked for. */
  readonly fingerprint: string;
  /** The random nonce of the request: only the account's latest request is followed. */
  readonly nonce: string;
}

/** Seal a claim valid until `expiresAt` (ms since the epoch). */
export function sealEmailChange(encrypter: Encrypter, claim: EmailChangeClaim, expiresAt: number): string {
  return encrypter.sealJson(
    EMAIL_CHANGE_PURPOSE,
    { u: claim.user, f: claim.from, t: claim.to, l: claim.fingerprint, n: claim.nonce },
    { expiresAt },
  );
}

/** Open a token at `now`; `null` when it is malformed, tampered, of another purpose or expired. Never throws. */
export function openEmailChange(encrypter: Encrypter, token: string, now: number): EmailChangeClaim | null {
  const opened = encrypter.openJson<{ u?: unknown; f?: unknown; t?: unknown; l?: unknown; n?: unknown }>(EMAIL_CHANGE_PURPOSE, token, {
    now,
  });
  if (!opened.ok) return null;
  const { u, f, t, l, n } = opened.value ?? {};
  // Tokens without a fingerprint or nonce (made before they existed) are refused.
  if (typeof u !== 'string' || typeof f !== 'string' || typeof t !== 'string' || typeof l !== 'string' || typeof n !== 'string')
    return null;
  return { user: u, from: f, to: t, fingerprint: l, nonce: n };
}

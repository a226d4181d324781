/**
 * TOTP codes (RFC 6238) through otplib (docs/auth.md "Two-factor
 * authentication"): 6 digits, 30-second steps, SHA-1 — what authenticator
 * apps expect from an `otpauth://` URI without parameters.
 */
import { generate, generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

/** Seconds per time step. */
export const TOTP_PERIOD = 30;
/** Steps accepted on either side of the current one (clock drift, typing time). */
export const TOTP_DRIFT_STEPS = 1;

/** A new secret: 20 random bytes, base32 (what the QR code and the setup key carry). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The `otpauth://totp/<issuer>:<label>?secret=…&issuer=…` URI of a secret. */
export function totpUri(issuer: string, label: string, secret: string): string {
  return generateURI({ issuer, label, secret });
}

/** The URI as an inline SVG QR code (rendered here; no external service). */
export function totpQrSvg(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
}

/**
 * The time step a code belongs to, when it is right at `nowMs` (within
 * {@link TOTP_DRIFT_STEPS}) and later than `afterStep`; else `null`.
 */
export async function verifyTotp(secret: string, code: string, nowMs: number, afterStep: number | null): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: TOTP_PERIOD * TOTP_DRIFT_STEPS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid ? (result as { timeStep: number }).timeStep : null;
}

/** The code of `secret` at `nowMs` (the test kit signs in with it). */
export function totpCode(secret: string, nowMs: number): Promise<string> {
  return generate({ secret, epoch: Math.floor(nowMs / 1000) });
}

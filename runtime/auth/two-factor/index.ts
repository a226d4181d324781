/**
 * Two-factor authentication with TOTP codes and recovery codes (docs/auth.md
 * "Two-factor authentication"): the `twoFactor()` step and `ctx.services.twoFactor`.
 */
export { twoFactor, twoFactorSettings, TWO_FACTOR_MIGRATIONS_DIR, type TwoFactorStepOptions } from './two-factor-step.js';
export { TwoFactor, PENDING_KEY, PENDING_TTL_MS, type TwoFactorOptions, type TwoFactorStatus } from './two-factor.js';
export { TwoFactorStore, SECRET_PURPOSE, type TwoFactorRow } from './two-factor-store.js';
export { newTotpSecret, totpUri, totpQrSvg, verifyTotp, totpCode, TOTP_PERIOD, TOTP_DRIFT_STEPS } from './totp.js';
export { newRecoveryCodes, hashRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes.js';
export { CODE_INVALID, RECOVERY_CODE_INVALID, LOGIN_EXPIRED } from './two-factor-errors.js';

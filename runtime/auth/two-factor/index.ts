/**
 * Two-factor authentication with TOTP codes and recovery codes (docs/auth.md
 * "Two-factor authentication"): the `twoFactor()` step and `ctx.services.twoFactor`.
 */
export { twoFactor, type TwoFactorStepOptions } from './two-factor-step.js';
export { TwoFactor, type TwoFactorStatus } from './two-factor.js';

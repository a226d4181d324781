/**
 * Passkeys, WebAuthn (docs/auth.md "Passkeys"): the `passkeys()` step,
 * `ctx.services.passkeys` and the browser script `bindery/passkeys.js`.
 */
export { passkeys, type PasskeysStepOptions } from './passkeys-step.js';
export { Passkeys, type PasskeyInfo } from './passkeys.js';

/**
 * Passkeys, WebAuthn (docs/auth.md "Passkeys"): the `passkeys()` step,
 * `ctx.services.passkeys` and the browser script `bindery/passkeys.js`.
 */
export { passkeys, PASSKEYS_MIGRATIONS_DIR, PASSKEYS_SCRIPT, type PasskeysStepOptions } from './passkeys-step.js';
export { Passkeys, CHALLENGE_KEY, CHALLENGE_TTL_MS, type PasskeyInfo, type PasskeysOptions } from './passkeys.js';
export { PasskeyStore, type StoredPasskey } from './passkey-store.js';

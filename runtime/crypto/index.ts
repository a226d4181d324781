/**
 * Encryption with the application key (docs/spec.md 2.3, 5.3): the key ring of
 * `APP_KEY` and `APP_PREVIOUS_KEYS`, and AES-256-GCM with per-value
 * HKDF-SHA256 keys, a purpose and an authenticated context
 * (docs/sessions.md "Encryption").
 */
export { KeyRing, type AppKey } from './key-ring.js';
export { Encrypter, type Opened, type OpenedJson, type OpenJsonOptions, type SealJsonOptions, type SealOptions } from './encrypter.js';

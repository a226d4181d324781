/**
 * Passwords (docs/spec.md 5.1 rule 9): argon2id hashing, bcrypt verification,
 * upgrades, and the bounded concurrency of hashing.
 */
export { PasswordHasher, ARGON2_DEFAULTS, hashKind, type Argon2Params, type HashKind } from './password-hasher.js';
export { Semaphore } from './semaphore.js';

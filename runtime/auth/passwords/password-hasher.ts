/**
 * Password hashing (docs/spec.md 5.1 rule 9, 8 "password hash", "bcrypt check"):
 * argon2id with 19 MiB of memory, 2 passes and one lane; legacy bcrypt
 * hashes (`$2a$`, `$2b$`, `$2y$`) still verify, only their first 72 bytes
 * counting; at most one hash (or verification) per CPU at a time.
 */
import { availableParallelism } from 'node:os';
import argon2 from 'argon2';
import bcrypt from 'bcryptjs';
import { Semaphore } from './semaphore.js';

/** argon2id cost parameters. */
export interface Argon2Params {
  /** Memory in KiB (19456 = 19 MiB). */
  readonly memoryCost: number;
  /** Passes over the memory. */
  readonly timeCost: number;
  /** Lanes. */
  readonly parallelism: number;
}

/** The parameters of new hashes: OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane). */
export const ARGON2_DEFAULTS: Argon2Params = Object.freeze({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });

const BCRYPT = /^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/;
const ARGON2 = /^\$(argon2(?:id|i|d))\$(?:v=(\d+)\$)?m=(\d+),t=(\d+),p=(\d+)(?:,[^$]*)?\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/;

/** What kind of hash a stored value is. */
export type HashKind = 'argon2id' | 'argon2-other' | 'bcrypt' | 'unknown';

/** The kind of a stored hash, read from its prefix. Never throws. */
export function hashKind(hash: string): HashKind {
  if (BCRYPT.test(hash)) return 'bcrypt';
  const m = ARGON2.exec(hash);
  if (m === null) return 'unknown';
  return m[1] === 'argon2id' ? 'argon2id' : 'argon2-other';
}

/**
 * Hashes and verifies passwords.
 *
 * @example
 *   const hasher = new PasswordHasher();
 *   const hash = await hasher.hash('correct horse');
 *   await hasher.verify(hash, 'correct horse'); // true
 *   hasher.needsUpgrade(hash);                  // false
 */
export class PasswordHasher {
  readonly params: Argon2Params;
  readonly #gate: Semaphore;
  #dummy: Promise<string> | undefined;

  /**
   * @param options.params argon2id parameters of new hashes (default {@link ARGON2_DEFAULTS}).
   * @param options.concurrency hashes at once (default: the number of CPUs).
   */
  constructor(options: { readonly params?: Argon2Params; readonly concurrency?: number } = {}) {
    this.params = options.params ?? ARGON2_DEFAULTS;
    this.#gate = new Semaphore(options.concurrency ?? availableParallelism());
  }

  /** Hash `plain` with argon2id (a PHC string `$argon2id$v=19$m=19456,t=2,p=1$…`). */
  hash(plain: string): Promise<string> {
    return this.#gate.run(() => argon2.hash(plain, { type: argon2.argon2id, ...this.params }));
  }

  /**
   * Whether `plain` matches `hash`: argon2 (any variant) or bcrypt (first 72
   * bytes of the password, as bcrypt always did). False for a malformed or
   * unknown hash; never throws for one.
   */
  verify(hash: string, plain: string): Promise<boolean> {
    const kind = hashKind(hash);
    if (kind === 'unknown') return Promise.resolve(false);
    return this.#gate.run(async () => {
      try {
        return kind === 'bcrypt' ? await bcrypt.compare(plain, hash) : await argon2.verify(hash, plain);
      } catch {
        return false;
      }
    });
  }

  /**
   * Whether a hash should be replaced after a successful login: bcrypt, argon2i/argon2d,
   * or argon2id weaker than {@link params} (less memory, fewer passes, an older version).
   * Stronger argon2id hashes are kept.
   */
  needsUpgrade(hash: string): boolean {
    const kind = hashKind(hash);
    if (kind !== 'argon2id') return true;
    const m = ARGON2.exec(hash)!;
    const version = m[2] === undefined ? 0x10 : Number(m[2]);
    return version < 0x13 || Number(m[3]) < this.params.memoryCost || Number(m[4]) < this.params.timeCost;
  }

  /**
   * A hash of a random password with the current parameters, made once: the
   * login verifies against it when the account does not exist, so an unknown
   * account takes as long as a wrong password (docs/spec.md 5.1 rule 6).
   */
  dummyHash(): Promise<string> {
    return (this.#dummy ??= argon2.hash(`bindery-dummy-${Math.random()}`, { type: argon2.argon2id, ...this.params }));
  }
}

/**
 * The lockout of wrong two-factor codes at sign-in (docs/auth.md
 * "Two-factor lockout"): wrong codes in a row are counted per account in
 * its `bindery_two_factor` row — shared by every instance, kept across
 * restarts — and past {@link LOCKOUT_AFTER} of them codes are refused,
 * unchecked, for a time that doubles with each further wrong code.
 *
 * Every attempt is counted before its code is checked (as if it failed),
 * under a row lock, so concurrent attempts can never check more codes than
 * the count allows; a right code clears the count. The count belongs to
 * the password it was made under: once the password changes (which also
 * ends every pending login made with the old one) the count starts afresh,
 * so an attacker's failures stop weighing on the owner.
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';

/** Wrong codes in a row after which codes are locked out. */
export const LOCKOUT_AFTER = 5;
/** The first lockout (ms): one minute. */
export const LOCKOUT_FIRST_MS = 60_000;
/** The longest lockout (ms): one day. */
export const LOCKOUT_MAX_MS = 86_400_000;

/**
 * How long codes are refused after the `failures`-th wrong code in a row
 * (ms): none before {@link LOCKOUT_AFTER}, then one minute, doubling with
 * each further wrong code (2, 4, 8 … minutes), at most a day.
 */
export function lockoutMs(failures: number): number {
  if (failures < LOCKOUT_AFTER) return 0;
  return Math.min(LOCKOUT_MAX_MS, LOCKOUT_FIRST_MS * 2 ** Math.min(failures - LOCKOUT_AFTER, 20));
}

/** Outcome of {@link CodeLockout.reserve}. */
export type CodeAttempt =
  /** The code may be checked; `failures` counts this attempt as if it failed. */
  | { readonly allowed: true; readonly failures: number }
  /** Codes are locked out for `retryAfterMs` more. */
  | { readonly allowed: false; readonly retryAfterMs: number };

interface LockRow {
  failed_codes: number;
  /** bigint: a string or a number, as the pool's type parsers give it. */
  locked_until: string | number | null;
  failures_fp: string | null;
}

/** Reads and writes the lockout columns of `bindery_two_factor`. */
export class CodeLockout {
  readonly #db: AnyKysely;
  readonly #now: () => number;

  /** @param now the app's clock, ms since the epoch. */
  constructor(db: AnyKysely, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /**
   * Count one code attempt of `userId` before checking it, unless codes are
   * locked out. `fingerprint` is the password fingerprint of the pending
   * login: a count made under another password is dropped.
   */
  async reserve(userId: string, fingerprint: string): Promise<CodeAttempt> {
    return this.#db.transaction().execute(async (trx) => {
      const row = (
        await sql<LockRow>`SELECT failed_codes, locked_until, failures_fp FROM bindery_two_factor
          WHERE user_id = ${userId} FOR UPDATE`.execute(trx)
      ).rows[0];
      // No row: no secret either, so the code check fails without a count to keep.
      if (row === undefined) return { allowed: true, failures: 0 };
      const same = row.failures_fp === fingerprint;
      const now = this.#now();
      const lockedUntil = same && row.locked_until !== null ? Number(row.locked_until) : null;
      if (lockedUntil !== null && now < lockedUntil) return { allowed: false, retryAfterMs: lockedUntil - now };
      const failures = (same ? row.failed_codes : 0) + 1;
      const lock = lockoutMs(failures);
      await sql`UPDATE bindery_two_factor SET failed_codes = ${failures}, locked_until = ${lock === 0 ? null : now + lock},
          lockout_notified_at = CASE WHEN failures_fp = ${fingerprint} THEN lockout_notified_at END, failures_fp = ${fingerprint}
        WHERE user_id = ${userId}`.execute(trx);
      return { allowed: true, failures };
    });
  }

  /** A right code or recovery code: the count, the lockout and its notice are cleared. */
  async clear(userId: string): Promise<void> {
    await sql`UPDATE bindery_two_factor SET failed_codes = 0, locked_until = NULL, failures_fp = NULL, lockout_notified_at = NULL
      WHERE user_id = ${userId} AND (failed_codes <> 0 OR locked_until IS NOT NULL OR lockout_notified_at IS NOT NULL)`.execute(this.#db);
  }

  /**
   * Claim the notice of the current lockout: true for the first caller once
   * the count reached {@link LOCKOUT_AFTER} under `fingerprint`, false after
   * (one mail per lockout, however many codes follow).
   */
  async claimNotice(userId: string, fingerprint: string): Promise<boolean> {
    const result = await sql`UPDATE bindery_two_factor SET lockout_notified_at = ${new Date(this.#now())}
      WHERE user_id = ${userId} AND failures_fp = ${fingerprint} AND failed_codes >= ${LOCKOUT_AFTER}
        AND lockout_notified_at IS NULL`.execute(this.#db);
    return Number(result.numAffectedRows ?? 0n) === 1;
  }
}

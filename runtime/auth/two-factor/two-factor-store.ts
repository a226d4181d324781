/**
 * The two-factor tables (migration set `two-factor`): the encrypted secret,
 * its confirmation, the last accepted time step, and the hashed recovery
 * codes of each account.
 */
import { sql } from 'kysely';
import type { Encrypter } from '../../crypto/encrypter.js';
import type { AnyKysely } from '../../db/any-kysely.js';
import { hashRecoveryCode } from './recovery-codes.js';

/** Encryption purpose of stored TOTP secrets. */
export const SECRET_PURPOSE = 'two-factor-secret';

/** An account's two-factor row. */
export interface TwoFactorRow {
  /** The secret, decrypted. */
  readonly secret: string;
  readonly confirmedAt: Date | null;
  readonly lastUsedStep: number | null;
}

/** Reads and writes the two-factor tables. */
export class TwoFactorStore {
  readonly #db: AnyKysely;
  readonly #encrypter: Encrypter;

  constructor(db: AnyKysely, encrypter: Encrypter) {
    this.#db = db;
    this.#encrypter = encrypter;
  }

  /** The account's row, or `null` (none, or a secret that no key opens). */
  async read(userId: string): Promise<TwoFactorRow | null> {
    const result = await sql<{ secret: string; confirmed_at: Date | null; last_used_step: string | null }>`
      SELECT secret, confirmed_at, last_used_step FROM bindery_two_factor WHERE user_id = ${userId}`.execute(this.#db);
    const row = result.rows[0];
    if (row === undefined) return null;
    const opened = this.#encrypter.open(SECRET_PURPOSE, row.secret, { context: userId });
    if (opened === null) return null;
    return {
      secret: opened.plaintext.toString('utf8'),
      confirmedAt: row.confirmed_at,
      lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
    };
  }

  /** Replace the account's secret (unconfirmed) and recovery codes, in one transaction. */
  async replace(userId: string, secret: string, codes: readonly string[]): Promise<void> {
    const sealed = this.#encrypter.seal(SECRET_PURPOSE, secret, { context: userId });
    await this.#db.transaction().execute(async (trx) => {
      await sql`DELETE FROM bindery_two_factor WHERE user_id = ${userId}`.execute(trx);
      await sql`INSERT INTO bindery_two_factor (user_id, secret) VALUES (${userId}, ${sealed})`.execute(trx);
      await this.#insertCodes(trx, userId, codes);
    });
  }

  /** Replace the recovery codes of an account that has a row. */
  async replaceCodes(userId: string, codes: readonly string[]): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      await sql`DELETE FROM bindery_recovery_codes WHERE user_id = ${userId}`.execute(trx);
      await this.#insertCodes(trx, userId, codes);
    });
  }

  /**
   * Accept the code of time step `step`: note it as the last one used, only
   * if it is later than the last one (so two requests with one code cannot
   * both pass). With `confirm`, the row is confirmed too.
   * @returns whether the step was accepted.
   */
  async useStep(userId: string, step: number, confirm: boolean, now: Date): Promise<boolean> {
    const result = confirm
      ? await sql`UPDATE bindery_two_factor SET last_used_step = ${step}, confirmed_at = COALESCE(confirmed_at, ${now})
          WHERE user_id = ${userId} AND (last_used_step IS NULL OR last_used_step < ${step})`.execute(this.#db)
      : await sql`UPDATE bindery_two_factor SET last_used_step = ${step}
          WHERE user_id = ${userId} AND (last_used_step IS NULL OR last_used_step < ${step})`.execute(this.#db);
    return Number(result.numAffectedRows ?? 0n) === 1;
  }

  /** Use a recovery code: marks it used; `false` when it is unknown or used already. */
  async useRecoveryCode(userId: string, code: string, now: Date): Promise<boolean> {
    const result = await sql`UPDATE bindery_recovery_codes SET used_at = ${now}
      WHERE user_id = ${userId} AND code_hash = ${hashRecoveryCode(code)} AND used_at IS NULL`.execute(this.#db);
    return Number(result.numAffectedRows ?? 0n) === 1;
  }

  /** How many unused recovery codes the account has. */
  async codesLeft(userId: string): Promise<number> {
    const result = await sql<{
      n: string;
    }>`SELECT count(*) AS n FROM bindery_recovery_codes WHERE user_id = ${userId} AND used_at IS NULL`.execute(this.#db);
    return Number(result.rows[0]?.n ?? 0);
  }

  /** Remove the account's two-factor row and codes; whether it had one. */
  async remove(userId: string): Promise<boolean> {
    const result = await sql`DELETE FROM bindery_two_factor WHERE user_id = ${userId}`.execute(this.#db);
    return Number(result.numAffectedRows ?? 0n) > 0;
  }

  async #insertCodes(db: AnyKysely, userId: string, codes: readonly string[]): Promise<void> {
    for (const code of codes) {
      await sql`INSERT INTO bindery_recovery_codes (user_id, code_hash) VALUES (${userId}, ${hashRecoveryCode(code)})`.execute(db);
    }
  }
}

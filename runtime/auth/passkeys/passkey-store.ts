/**
 * The passkey tables (migration set `passkeys`): credentials and the
 * account's WebAuthn user handle.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';
import { insertIfAbsent } from '../../db/portable-writes.js';

/** A stored credential. */
export interface StoredPasskey {
  readonly id: string;
  readonly userId: string;
  readonly name: string;
  readonly publicKey: Uint8Array;
  readonly counter: number;
  readonly transports: string[];
  readonly deviceType: string;
  readonly backedUp: boolean;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

interface Row {
  id: string;
  user_id: string;
  name: string;
  public_key: Buffer;
  counter: string;
  transports: string[];
  device_type: string;
  backed_up: boolean;
  created_at: Date;
  last_used_at: Date | null;
}

function fromRow(r: Row): StoredPasskey {
  return {
    id: r.id,
    userId: r.user_id,
    name: r.name,
    publicKey: new Uint8Array(r.public_key),
    counter: Number(r.counter),
    transports: r.transports,
    deviceType: r.device_type,
    backedUp: r.backed_up,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
  };
}

/** Reads and writes the passkey tables. */
export class PasskeyStore {
  readonly #db: AnyKysely;

  constructor(db: AnyKysely) {
    this.#db = db;
  }

  /** The account's user handle (base64url), made on first use. */
  async handleOf(userId: string): Promise<string> {
    const fresh = randomBytes(32).toString('base64url');
    await insertIfAbsent(this.#db, 'bindery_passkey_users', { user_id: userId, user_handle: fresh }, { conflict: ['user_id'] });
    const result = await sql<{ user_handle: string }>`SELECT user_handle FROM bindery_passkey_users WHERE user_id = ${userId}`.execute(
      this.#db,
    );
    return result.rows[0]!.user_handle;
  }

  /** The account a user handle stands for, or `null`. */
  async userOfHandle(handle: string): Promise<string | null> {
    const result = await sql<{ user_id: string }>`SELECT user_id FROM bindery_passkey_users WHERE user_handle = ${handle}`.execute(
      this.#db,
    );
    return result.rows[0]?.user_id ?? null;
  }

  /** The account's passkeys, oldest first. */
  async list(userId: string): Promise<StoredPasskey[]> {
    const result = await sql<Row>`SELECT * FROM bindery_passkeys WHERE user_id = ${userId} ORDER BY created_at, id`.execute(this.#db);
    return result.rows.map(fromRow);
  }

  /** A credential by ID, or `null`. */
  async find(id: string): Promise<StoredPasskey | null> {
    const result = await sql<Row>`SELECT * FROM bindery_passkeys WHERE id = ${id}`.execute(this.#db);
    const row = result.rows[0];
    return row === undefined ? null : fromRow(row);
  }

  /** Store a new credential; `false` when its ID is registered already. */
  async add(p: Omit<StoredPasskey, 'createdAt' | 'lastUsedAt'>, now: Date): Promise<boolean> {
    const row = {
      id: p.id,
      user_id: p.userId,
      name: p.name,
      public_key: Buffer.from(p.publicKey),
      counter: p.counter,
      transports: p.transports,
      device_type: p.deviceType,
      backed_up: p.backedUp,
      created_at: now,
    };
    return (await insertIfAbsent(this.#db, 'bindery_passkeys', row, { conflict: ['id'] })) === 1;
  }

  /**
   * Note a sign-in: the new counter and the time, only while the stored
   * counter is the one the assertion was checked against (two sign-ins
   * with one assertion cannot both pass).
   */
  async used(id: string, checkedCounter: number, newCounter: number, now: Date): Promise<boolean> {
    const result = await sql`UPDATE bindery_passkeys SET counter = ${newCounter}, last_used_at = ${now}
      WHERE id = ${id} AND counter = ${checkedCounter}`.execute(this.#db);
    return Number(result.numAffectedRows ?? 0n) === 1;
  }

  /** Remove one of the account's credentials; whether it existed. */
  async remove(userId: string, id: string): Promise<boolean> {
    const result = await sql`DELETE FROM bindery_passkeys WHERE user_id = ${userId} AND id = ${id}`.execute(this.#db);
    return Number(result.numAffectedRows ?? 0n) > 0;
  }
}

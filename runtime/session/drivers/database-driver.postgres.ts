/**
 * The session rows of the database driver on PostgreSQL (docs/sessions.md
 * "Drivers"): a save is one statement, an upsert of the row — with the
 * delete of the row it replaces (a regenerated ID) in the same statement.
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';

/** One session's row in `bindery_sessions`. */
export interface SessionRow {
  readonly id: string;
  /** The record as JSON text. */
  readonly data: string;
  readonly userId: string | null;
  readonly startedAt: Date;
  readonly lastUsedAt: Date;
  readonly ip: string | null;
  readonly userAgent: string | null;
}

/** The session row statements of the database driver on PostgreSQL. */
export const postgresSessionRows = {
  /** Write `row` (inserted or replacing the row of its ID), deleting the row `revoke` (another ID) in the same statement. */
  save(db: AnyKysely, row: SessionRow, revoke: string | null): Promise<unknown> {
    const { id, data, userId, startedAt, lastUsedAt, ip, userAgent } = row;
    if (revoke !== null && revoke !== id) {
      return sql`WITH gone AS (DELETE FROM bindery_sessions WHERE id = ${revoke})
          INSERT INTO bindery_sessions (id, data, user_id, started_at, last_used_at, ip_address, user_agent) VALUES (${id}, ${data}::jsonb, ${userId}, ${startedAt}, ${lastUsedAt}, ${ip}, ${userAgent})
          ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, user_id = EXCLUDED.user_id, started_at = EXCLUDED.started_at, last_used_at = EXCLUDED.last_used_at, ip_address = EXCLUDED.ip_address, user_agent = EXCLUDED.user_agent`.execute(
        db,
      );
    }
    return sql`INSERT INTO bindery_sessions (id, data, user_id, started_at, last_used_at, ip_address, user_agent) VALUES (${id}, ${data}::jsonb, ${userId}, ${startedAt}, ${lastUsedAt}, ${ip}, ${userAgent})
          ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, user_id = EXCLUDED.user_id, started_at = EXCLUDED.started_at, last_used_at = EXCLUDED.last_used_at, ip_address = EXCLUDED.ip_address, user_agent = EXCLUDED.user_agent`.execute(
      db,
    );
  },
};

/**
 * The session rows of the database driver on MySQL and MariaDB
 * (docs/sessions.md "Drivers"): MySQL has no data-modifying `WITH`, so a
 * save that replaces the row of a regenerated ID is a short transaction —
 * the old row's delete, then the upsert of the new one (`upsert` of the
 * portable writes: `INSERT … ON DUPLICATE KEY UPDATE`) — and a plain save
 * is the upsert alone.
 */
import type { Kysely } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';
import { upsert } from '../../db/portable-writes.js';
import type { SessionRow } from './database-driver.postgres.js';

/** The columns of `bindery_sessions`. */
interface SessionsTable {
  id: string;
  data: string;
  user_id: string | null;
  started_at: Date;
  last_used_at: Date;
  ip_address: string | null;
  user_agent: string | null;
}

type SessionsDb = Kysely<{ bindery_sessions: SessionsTable }>;

/** The upsert of `row` (a duplicate ID updates every column but the ID). */
function upsertRow(db: SessionsDb, row: SessionRow): Promise<void> {
  const values = {
    id: row.id,
    data: row.data,
    user_id: row.userId,
    started_at: row.startedAt,
    last_used_at: row.lastUsedAt,
    ip_address: row.ip,
    user_agent: row.userAgent,
  };
  return upsert(db, 'bindery_sessions', values, { conflict: ['id'] });
}

/** The session row statements of the database driver on MySQL and MariaDB. */
export const mysqlSessionRows = {
  /** Write `row` (inserted or replacing the row of its ID), deleting the row `revoke` (another ID) in the same transaction. */
  save(db: AnyKysely, row: SessionRow, revoke: string | null): Promise<unknown> {
    const sessions = db as unknown as SessionsDb;
    if (revoke === null || revoke === row.id) return upsertRow(sessions, row);
    const run = async (tx: SessionsDb) => {
      await tx.deleteFrom('bindery_sessions').where('id', '=', revoke).execute();
      await upsertRow(tx, row);
    };
    return sessions.isTransaction ? run(sessions) : sessions.transaction().execute(run);
  },
};

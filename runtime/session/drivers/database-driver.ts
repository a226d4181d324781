/**
 * The database driver (`SESSION_DRIVER=database`; docs/spec.md 5.1 rule 7, 9):
 * one row per session in `bindery_sessions` (migration set `session`), the
 * cookie holding only the encrypted session ID. Regenerating deletes the old
 * row and invalidating deletes the row, so a copy of the cookie made before
 * login, logout or `invalidate()` stops working.
 *
 * No row until the session holds something worth keeping: a session with
 * no signed-in user and no values — its ID, its CSRF token and at most flash
 * data (a visitor who loaded a form; a guest whose form post failed, with
 * its errors and old input) — lives in the cookie, encrypted like a cookie
 * session and bounded by its 4 KB, so page views and failed form posts of
 * anonymous clients write nothing to the table (docs/sessions.md
 * "Drivers"). Its first value or sign-in moves it into a row; a session read
 * from a row stays there.
 *
 * Expired rows are deleted once an hour (and at boot).
 */
import { sql } from 'kysely';
import { SessionError } from '../errors.js';
import { parseRecord, recordIsFlashOnly, serializeRecord, type SessionRecord } from '../session-record.js';
import { TOO_LARGE, type SessionDriver, type SessionDriverContext, type SessionStore } from '../session-store.js';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { EngineName } from '../../db/engine.js';
import { mysqlSessionRows } from './database-driver.mysql.js';
import { postgresSessionRows, type SessionRow } from './database-driver.postgres.js';

/** Encryption purpose of the database driver's cookie (the session ID). */
export const SESSION_ID_PURPOSE = 'session-id';

/**
 * Encryption purpose of the database driver's cookie for a session without a
 * row (the whole record: no user, no values, at most flash data). The name
 * dates from when only empty sessions went without a row; it is kept so
 * such cookies stay readable.
 */
export const EMPTY_SESSION_PURPOSE = 'session-empty';

/** How often expired rows are deleted (ms). */
export const PRUNE_INTERVAL_MS = 3_600_000;

/** The statements that write a session's row, which differ by engine (`database-driver.<engine>.ts`). */
interface SessionRowStatements {
  /** Write `row` (inserted or replacing the row of its ID) and delete the row `revoke` (another ID, or null), at once. */
  save(db: AnyKysely, row: SessionRow, revoke: string | null): Promise<unknown>;
}

/**
 * The session row statements of `engine`.
 * @throws {SessionError} `BINDERY_SESSION_DRIVER_FAILED` when the engine has none.
 */
function sessionRowsOf(engine: EngineName): SessionRowStatements {
  if (engine === 'postgres') return postgresSessionRows;
  if (engine === 'mysql' || engine === 'mariadb') return mysqlSessionRows;
  throw new SessionError(
    'BINDERY_SESSION_DRIVER_FAILED',
    `SESSION_DRIVER=database has no session rows for ${engine} yet; use SESSION_DRIVER=cookie.`,
  );
}

/** `SESSION_DRIVER=database`. */
export const databaseDriver: SessionDriver = async (ctx) => {
  const { encrypter, cookieName, database, lifetimeMs, maxLifetimeMs, maxCookieBytes, now } = ctx;
  if (database === undefined) {
    throw new SessionError(
      'BINDERY_SESSION_DRIVER_FAILED',
      'SESSION_DRIVER=database needs the app database, but the session layer was built without one.',
    );
  }
  const db = database.db as AnyKysely;
  const rows = sessionRowsOf(database.engine.name);
  const options = { context: cookieName };

  const timer = await startPruning(db, ctx);

  // Records that have a row (read from one, or written to one): they keep it even when they become empty.
  const stored = new WeakSet<SessionRecord>();
  const store: SessionStore = {
    eager: true,
    async read(cookieValue) {
      const opened = encrypter.open(SESSION_ID_PURPOSE, cookieValue, options);
      if (opened === null) {
        const empty = encrypter.open(EMPTY_SESSION_PURPOSE, cookieValue, options);
        return empty === null ? null : parseRecord(empty.plaintext.toString('utf8'));
      }
      const id = opened.plaintext.toString('utf8');
      const result = await sql<{ data: unknown }>`SELECT data FROM bindery_sessions WHERE id = ${id}`.execute(db);
      const row = result.rows[0];
      if (row === undefined) return null;
      const record = parseRecord(row.data);
      if (record === null || record.id !== id) return null;
      stored.add(record);
      return record;
    },
    async write(record: SessionRecord, revoke, client) {
      if (!stored.has(record) && recordIsFlashOnly(record)) {
        if (revoke !== null) await sql`DELETE FROM bindery_sessions WHERE id = ${revoke}`.execute(db);
        const value = encrypter.seal(EMPTY_SESSION_PURPOSE, serializeRecord(record), options);
        // Bounded like a cookie session: too large, the old input is dropped (then the save skipped), never a row.
        return cookieName.length + 1 + value.length > maxCookieBytes ? TOO_LARGE : value;
      }
      stored.add(record);
      const row = {
        id: record.id,
        data: serializeRecord(record),
        userId: record.userId,
        startedAt: new Date(record.startedAt),
        lastUsedAt: new Date(record.lastUsedAt),
        ip: client?.ip ?? null,
        userAgent: client?.userAgent ?? null,
      };
      await rows.save(db, row, revoke);
      return encrypter.seal(SESSION_ID_PURPOSE, record.id, options);
    },
    async revoke(id) {
      await sql`DELETE FROM bindery_sessions WHERE id = ${id}`.execute(db);
    },
    async revokeUser(userId, exceptId = null) {
      const result =
        exceptId === null
          ? await sql`DELETE FROM bindery_sessions WHERE user_id = ${userId}`.execute(db)
          : await sql`DELETE FROM bindery_sessions WHERE user_id = ${userId} AND id <> ${exceptId}`.execute(db);
      return Number(result.numAffectedRows ?? 0n);
    },
    async listUser(userId) {
      const t = now();
      const idle = new Date(t - lifetimeMs);
      const oldest = new Date(maxLifetimeMs > 0 ? t - maxLifetimeMs : 0);
      const result = await sql<{
        id: string;
        started_at: Date;
        last_used_at: Date;
        ip_address: string | null;
        user_agent: string | null;
      }>`SELECT id, started_at, last_used_at, ip_address, user_agent FROM bindery_sessions
          WHERE user_id = ${userId} AND last_used_at >= ${idle} AND started_at >= ${oldest}
          ORDER BY last_used_at DESC, id`.execute(db);
      return result.rows.map((r) => ({
        id: r.id,
        startedAt: r.started_at.getTime(),
        lastUsedAt: r.last_used_at.getTime(),
        ip: r.ip_address,
        userAgent: r.user_agent,
      }));
    },
    async revokeUserSession(userId, id) {
      const result = await sql`DELETE FROM bindery_sessions WHERE user_id = ${userId} AND id = ${id}`.execute(db);
      return Number(result.numAffectedRows ?? 0n) > 0;
    },
    close() {
      clearInterval(timer);
    },
  };
  return store;
};

/**
 * Delete the expired rows now (which also checks that the table is there), then every
 * {@link PRUNE_INTERVAL_MS}; later failures are logged, not thrown.
 * @returns the interval timer (unref'd), cleared by the store's `close`.
 * @throws {SessionError} `BINDERY_SESSION_DRIVER_FAILED` when the table cannot be used (not migrated).
 */
async function startPruning(db: AnyKysely, ctx: SessionDriverContext): Promise<NodeJS.Timeout> {
  const { lifetimeMs, maxLifetimeMs, now, log } = ctx;
  const prune = async (): Promise<number> => {
    const t = now();
    const idle = new Date(t - lifetimeMs);
    const result =
      maxLifetimeMs > 0
        ? await sql`DELETE FROM bindery_sessions WHERE last_used_at < ${idle} OR started_at < ${new Date(t - maxLifetimeMs)}`.execute(db)
        : await sql`DELETE FROM bindery_sessions WHERE last_used_at < ${idle}`.execute(db);
    return Number(result.numAffectedRows ?? 0n);
  };
  const runPrune = () => {
    prune().then(
      (n) => {
        if (n > 0) log.debug({ deleted: n }, 'expired sessions deleted');
      },
      (error: unknown) => log.warn({ err: error, code: 'BINDERY_SESSION_DRIVER_FAILED' }, 'deleting expired sessions failed'),
    );
  };
  try {
    await prune();
  } catch (error) {
    throw new SessionError(
      'BINDERY_SESSION_DRIVER_FAILED',
      `SESSION_DRIVER=database cannot use the table bindery_sessions: ${(error as Error).message}. Run "bindery migrate" (the session migration set creates it).`,
      { cause: error },
    );
  }
  const timer = setInterval(runPrune, PRUNE_INTERVAL_MS);
  timer.unref();
  return timer;
}

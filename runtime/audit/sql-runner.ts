/**
 * Running the audit log's statements: each write is one transaction — its
 * own, or a savepoint inside the caller's (docs/spec.md 6.1).
 *
 * Writes made on the app's pool run through the database engine as prepared
 * statements (`DatabaseEngine.run` with `prepare`): the statement text of a
 * write shape is parsed and planned once per connection, which keeps an
 * audited single-row update within the cost of a plain one (docs/audit.md
 * "Performance"); the bulk writes' transactions hold one of the engine's
 * connections. Writes inside a caller's Kysely transaction run through
 * Kysely on that transaction's connection.
 */
import { sql, type CompiledQuery } from 'kysely';
import type { DatabaseEngine, EngineConnection, RunOptions, StatementResult } from '../db/engine.js';
import { asUnavailable } from '../db/unavailable.js';
import type { AnyKysely } from '../db/any-kysely.js';

export type { StatementResult } from '../db/engine.js';

/** Runs compiled statements on one connection (or the pool). */
export interface Runner {
  run<R>(query: CompiledQuery, options?: { readonly prepare?: boolean }): Promise<StatementResult<R>>;
}

/** Where audited writes go: the app's pool through its engine (own transactions), or a Kysely instance or transaction given by the caller. */
export type WriteTarget = { readonly kind: 'pool'; readonly engine: DatabaseEngine } | { readonly kind: 'kysely'; readonly db: AnyKysely };

const PREPARED: RunOptions = { prepare: true };
const UNPREPARED: RunOptions = { prepare: false };

/** Statements on the engine's pool or a held connection: prepared unless `prepare: false`. */
function engineRunner(on: Pick<EngineConnection, 'run'>): Runner {
  return {
    run<R>(query: CompiledQuery, options?: { readonly prepare?: boolean }) {
      return on.run<R>(query.sql, query.parameters, options?.prepare === false ? UNPREPARED : PREPARED);
    },
  };
}

function kyselyRunner(db: AnyKysely): Runner {
  return {
    async run<R>(query: CompiledQuery) {
      const result = await db.executeQuery<R>(query);
      return {
        rows: [...result.rows],
        rowCount: result.numAffectedRows === undefined ? result.rows.length : Number(result.numAffectedRows),
      };
    },
  };
}

/**
 * Run one statement: atomic by itself on the pool (prepared), in a savepoint inside a caller's transaction.
 * @throws {DatabaseUnavailableError} when the pool's connection failed; the engine's error for a failing statement.
 */
export function runStatement<R>(target: WriteTarget, query: CompiledQuery): Promise<StatementResult<R>> {
  if (target.kind === 'pool') return target.engine.run<R>(query.sql, query.parameters, PREPARED);
  if (!target.db.isTransaction) return kyselyRunner(target.db).run<R>(query);
  return inSavepoint(target.db, (runner) => runner.run<R>(query));
}

/** Run one read statement (never prepared). */
export function runRead<R>(target: WriteTarget, query: CompiledQuery): Promise<StatementResult<R>> {
  if (target.kind === 'pool') return target.engine.run<R>(query.sql, query.parameters, UNPREPARED);
  return kyselyRunner(target.db).run<R>(query);
}

/**
 * Run `fn` in a transaction: BEGIN/COMMIT on a connection held from the
 * engine's pool, a Kysely transaction on a caller's Kysely instance, or a
 * savepoint inside a caller's transaction. Any error rolls back (to the
 * savepoint) and is rethrown; a lost connection as `DatabaseUnavailableError`.
 */
export async function runTransaction<T>(target: WriteTarget, fn: (runner: Runner) => Promise<T>): Promise<T> {
  if (target.kind === 'kysely') {
    if (target.db.isTransaction) return inSavepoint(target.db, fn);
    return target.db.transaction().execute((trx) => fn(kyselyRunner(trx)));
  }
  const connection = await target.engine.connect();
  let broken: Error | undefined;
  try {
    await connection.run('BEGIN');
    const result = await fn(engineRunner(connection));
    await connection.run('COMMIT');
    return result;
  } catch (error) {
    await connection.run('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw asUnavailable(error);
  } finally {
    connection.release(broken);
  }
}

let savepoints = 0;

async function inSavepoint<T>(trx: AnyKysely, fn: (runner: Runner) => Promise<T>): Promise<T> {
  const name = sql.id(`bindery_audit_${++savepoints}`);
  await sql`savepoint ${name}`.execute(trx);
  try {
    const result = await fn(kyselyRunner(trx));
    await sql`release savepoint ${name}`.execute(trx);
    return result;
  } catch (error) {
    await sql`rollback to savepoint ${name}`.execute(trx);
    await sql`release savepoint ${name}`.execute(trx);
    throw error;
  }
}

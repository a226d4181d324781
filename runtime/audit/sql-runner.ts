/**
 * Running the audit log's statements: each write is one transaction — its
 * own, or a savepoint inside the caller's (docs/spec.md 6.1).
 *
 * Writes made on the app's pool run as named (prepared) statements: the
 * statement text of a write shape is parsed and planned once per connection,
 * which keeps an audited single-row update within the cost of a plain one
 * (docs/audit.md "Performance"). Writes inside a caller's Kysely transaction
 * run through Kysely on that transaction's connection.
 */
import { createHash } from 'node:crypto';
import { sql, type CompiledQuery } from 'kysely';
import type pg from 'pg';
import { asUnavailable, rethrowUnavailable } from '../db/unavailable.js';
import type { AnyKysely } from '../db/any-kysely.js';

/** Rows and affected-row count of one statement. */
export interface StatementResult<R> {
  readonly rows: R[];
  readonly rowCount: number;
}

/** Runs compiled statements on one connection (or the pool). */
export interface Runner {
  run<R>(query: CompiledQuery, options?: { readonly prepare?: boolean }): Promise<StatementResult<R>>;
}

/** Where audited writes go: the app's pool (own transactions), or a Kysely instance or transaction given by the caller. */
export type WriteTarget = { readonly kind: 'pool'; readonly pool: pg.Pool } | { readonly kind: 'kysely'; readonly db: AnyKysely };

const NAMES = new Map<string, string>();
const MAX_NAMES = 2000;

/** A stable prepared-statement name for a statement text. */
function statementName(text: string): string {
  let name = NAMES.get(text);
  if (name === undefined) {
    name = `bindery_${createHash('sha1').update(text).digest('base64url')}`;
    if (NAMES.size >= MAX_NAMES) NAMES.clear();
    NAMES.set(text, name);
  }
  return name;
}

function pgRunner(client: pg.Pool | pg.PoolClient): Runner {
  return {
    async run<R>(query: CompiledQuery, options?: { readonly prepare?: boolean }) {
      const values = [...query.parameters];
      const result = await client.query(
        options?.prepare === false ? { text: query.sql, values } : { name: statementName(query.sql), text: query.sql, values },
      );
      return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
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

/** Run one statement: atomic by itself on the pool, in a savepoint inside a caller's transaction. */
export async function runStatement<R>(target: WriteTarget, query: CompiledQuery): Promise<StatementResult<R>> {
  if (target.kind === 'pool') return pgRunner(target.pool).run<R>(query).catch(rethrowUnavailable);
  if (!target.db.isTransaction) return kyselyRunner(target.db).run<R>(query);
  return inSavepoint(target.db, (runner) => runner.run<R>(query));
}

/** Run one read statement (never prepared). */
export async function runRead<R>(target: WriteTarget, query: CompiledQuery): Promise<StatementResult<R>> {
  if (target.kind === 'pool') return pgRunner(target.pool).run<R>(query, { prepare: false }).catch(rethrowUnavailable);
  return kyselyRunner(target.db).run<R>(query);
}

/**
 * Run `fn` in a transaction: BEGIN/COMMIT on a client of the pool, a Kysely
 * transaction on a caller's Kysely instance, or a savepoint inside a caller's
 * transaction. Any error rolls back (to the savepoint) and is rethrown.
 */
export async function runTransaction<T>(target: WriteTarget, fn: (runner: Runner) => Promise<T>): Promise<T> {
  if (target.kind === 'kysely') {
    if (target.db.isTransaction) return inSavepoint(target.db, fn);
    return target.db.transaction().execute((trx) => fn(kyselyRunner(trx)));
  }
  const client = await target.pool.connect().catch(rethrowUnavailable);
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await fn(pgRunner(client));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw asUnavailable(error);
  } finally {
    client.release(broken);
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

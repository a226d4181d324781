/**
 * MySQL's and MariaDB's audit writer (docs/audit.md "Engines"). There are
 * no data-modifying `WITH` queries and no `UPDATE … RETURNING`, so a
 * single-row write and its entry are a few statements in ONE transaction —
 * its own on a connection held from the pool, or a savepoint inside the
 * caller's (sql-runner.ts) — and commit or roll back together:
 *
 * - create: the insert, the row read back by its key (`LAST_INSERT_ID()`,
 *   the key given, or a UUID made here for a generated UUID key), the entry;
 * - update: the row read `FOR UPDATE` (its old values are what the database
 *   held once the lock was granted), the update, the row read back, the
 *   entry with the changed columns compared as stored (none when nothing changed);
 * - delete and restore: the update of the soft-delete marker (live or
 *   deleted rows only), the row read back, the entry;
 * - force delete: the row read `FOR UPDATE`, the delete, the entry with the values it had.
 *
 * Statements on a held connection are server-side prepared. The entry's
 * values are those of the rows read back (rows.ts, json.ts), written as
 * PostgreSQL's strategy writes them. The bulk writes (mysql/bulk.ts,
 * mysql/bulk-rows.ts), the history (mysql/history.ts) and the prune
 * (mysql/prune.ts) are its other parts.
 */
import { type CompiledQuery, sql, type RawBuilder } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';
import { AuditModelError } from '../errors.js';
import { runTransaction, type Runner, type StatementResult } from '../sql-runner.js';
import type { ResolvedModel } from '../tracked-config.js';
import { mysqlBulkWriter } from './mysql/bulk.js';
import { mysqlRowChunks } from './mysql/bulk-rows.js';
import { mysqlHistory } from './mysql/history.js';
import { mysqlPruneBulk, mysqlPruneEntries } from './mysql/prune.js';
import { jsonText } from './mysql/json.js';
import { keyedValues, lastInsertId } from './mysql/keys.js';
import { changesOf, entryValues, insertEntry, rowOf, selectRow } from './mysql/rows.js';
import { tableInfo, type TableInfo } from './mysql/table-info.js';
import type { AuditWriter, Values } from './writer.js';

/** The current time for the timestamps the log sets, to the microsecond (`NOW()` alone has whole seconds). */
const NOW: RawBuilder<unknown> = sql`current_timestamp(6)`;

const NONE: StatementResult<Values> = { rows: [], rowCount: 0 };

/** One row read by `query` (with its texts), or undefined. */
async function readOne(run: Runner, query: { compile(): CompiledQuery }): Promise<Values | undefined> {
  return (await run.run<Values>(query.compile())).rows[0];
}

/** The row of `key` as it is now (read back after a write, in its transaction). */
async function readBack(db: AnyKysely, run: Runner, m: ResolvedModel, info: TableInfo, key: unknown): Promise<Values> {
  const row = await readOne(run, selectRow(db, m, info).where(m.pk, '=', key));
  // The row is locked or was just written by this transaction: it is there.
  if (row === undefined) throw new AuditModelError(`The row ${String(key)} of ${m.table} was not found after it was written.`);
  return row;
}

/** MySQL's strategy, for MySQL 8 and MariaDB (`mysqlWriter`, `mariadbWriter`). */
const mysqlFamilyWriter: Omit<AuditWriter, 'engine'> = {
  now: NOW,
  documentText: jsonText,

  create(db, target, m, a, given) {
    return runTransaction(target, async (run) => {
      const info = await tableInfo(run, m);
      const { values, key } = keyedValues(m, info, given);
      await run.run(
        db
          .insertInto(m.table)
          .values(values as never)
          .compile(),
      );
      const row = await readBack(db, run, m, info, key ?? (await lastInsertId(run)));
      await insertEntry(run, a, 'created', m, row[m.pk], { new: entryValues(m, info, row, m.logged) });
      return { rows: [rowOf(m, row)], rowCount: 1 };
    });
  },

  update(db, target, m, a, key, set, filter) {
    return runTransaction(target, async (run) => {
      const info = await tableInfo(run, m);
      let locked = selectRow(db, m, info).where(m.pk, '=', key);
      if (m.softDelete !== null && !filter.withDeleted) locked = locked.where(m.softDelete, 'is', null);
      if (filter.where) locked = locked.where(filter.where as never);
      const before = await readOne(run, locked.forUpdate());
      if (before === undefined) return NONE;
      await run.run(db.updateTable(m.table).set(set).where(m.pk, '=', before[m.pk]).compile());
      const after = await readBack(db, run, m, info, before[m.pk]);
      const changes = changesOf(m, info, before, after);
      if (changes !== undefined) await insertEntry(run, a, 'updated', m, after[m.pk], changes);
      return { rows: [rowOf(m, after)], rowCount: 1 };
    });
  },

  mark(db, target, m, a, key, where, action) {
    const softDelete = m.softDelete!;
    return runTransaction(target, async (run) => {
      const info = await tableInfo(run, m);
      let update = db
        .updateTable(m.table)
        .set({ [softDelete]: action === 'deleted' ? NOW : null })
        .where(m.pk, '=', key)
        .where(softDelete, action === 'deleted' ? 'is' : 'is not', null);
      if (where) update = update.where(where as never);
      if ((await run.run(update.compile())).rowCount === 0) return NONE;
      const row = await readBack(db, run, m, info, key);
      await insertEntry(run, a, action, m, row[m.pk], null);
      return { rows: [rowOf(m, row)], rowCount: 1 };
    });
  },

  forceDelete(db, target, m, a, key, where) {
    return runTransaction(target, async (run) => {
      const info = await tableInfo(run, m);
      let locked = selectRow(db, m, info).where(m.pk, '=', key);
      if (where) locked = locked.where(where as never);
      const before = await readOne(run, locked.forUpdate());
      if (before === undefined) return NONE;
      await run.run(db.deleteFrom(m.table).where(m.pk, '=', before[m.pk]).compile());
      await insertEntry(run, a, 'force_deleted', m, before[m.pk], { old: entryValues(m, info, before, m.logged) });
      return { rows: [rowOf(m, before)], rowCount: 1 };
    });
  },

  ...mysqlBulkWriter,
  ...mysqlRowChunks,
  history: mysqlHistory,
  pruneEntries: mysqlPruneEntries,
  pruneBulk: mysqlPruneBulk,
};

/** The strategy on MySQL 8. */
export const mysqlWriter: AuditWriter = { engine: 'mysql', ...mysqlFamilyWriter };

/** The strategy on MariaDB: MySQL's (the same statements run on both servers). */
export const mariadbWriter: AuditWriter = { engine: 'mariadb', ...mysqlFamilyWriter };

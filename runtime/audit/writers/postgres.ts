/**
 * PostgreSQL's audit writer (docs/audit.md "Engines", "Decisions"): a
 * single-row write and its entry are ONE statement — data-modifying parts of
 * one `WITH` query (`bindery_old` … `for update`, `bindery_new` as the
 * write's `RETURNING`, `bindery_entry` inserting into `audit_log` from it) —
 * run on the pool as a named prepared statement, so the entry exists exactly
 * when the write does and an audited write costs one round trip. The bulk
 * writes' chunk statements (postgres/bulk.ts), the history query
 * (postgres/history.ts) and the prune's batches (postgres/prune.ts) are its
 * other parts.
 */
import { sql, type RawBuilder } from 'kysely';
import type { AnyKysely } from '../../db/any-kysely.js';
import type { Attribution } from '../attribution.js';
import { runStatement, type WriteTarget } from '../sql-runner.js';
import type { ResolvedModel } from '../tracked-config.js';
import { postgresBulkWriter } from './postgres/bulk.js';
import { postgresHistory } from './postgres/history.js';
import { columnListOf, diffJsonSql, quoteId, rowJsonSql } from './postgres/json.js';
import { postgresPruneBulk, postgresPruneEntries } from './postgres/prune.js';
import type { AuditWriter, Values } from './writer.js';
import type { StatementResult } from '../sql-runner.js';

/**
 * `insert into audit_log (…) select … from <source> [where <filter>]`: one
 * entry per row of `source` (a CTE of the same statement holding the rows
 * written), so the entry exists exactly when the write does.
 */
function logInsert(
  a: Attribution,
  action: string,
  model: ResolvedModel,
  source: string,
  changesSql: string,
  filter?: string,
): RawBuilder<unknown> {
  const subjectId = sql.raw(`cast(${source}."${model.pk}" as text)`);
  return sql`insert into audit_log (actor_type, actor_id, action, subject_type, subject_id, changes, properties, via_kind, via_name, request_id, ip) select cast(${a.actorType} as text), cast(${a.actorId} as text), ${sql.lit(action)}, ${sql.lit(model.table)}, ${subjectId}, ${sql.raw(changesSql)}, cast(${a.details === null ? null : JSON.stringify(a.details)} as jsonb), cast(${a.viaKind} as text), cast(${a.viaName} as text), cast(${a.requestId} as text), cast(${a.ip} as inet) from ${sql.raw(source)}${sql.raw(filter === undefined ? '' : ` where ${filter}`)}`;
}

/** Run the write's one statement (prepared on the pool, in a savepoint inside a caller's transaction). */
function write(db: AnyKysely, target: WriteTarget, query: RawBuilder<unknown>): Promise<StatementResult<Values>> {
  return runStatement<Values>(target, query.compile(db));
}

/** PostgreSQL's strategy: the single-statement writes here, the rest in `postgres/`. */
export const postgresWriter: AuditWriter = {
  engine: 'postgres',
  now: sql`now()`,
  documentText: (value) => JSON.stringify(value),

  create(db, target, m, a, values) {
    const insert = db
      .insertInto(m.table)
      .values(values as never)
      .returning([...m.columns]);
    const entry = logInsert(a, 'created', m, 'bindery_new', `jsonb_build_object('new', ${rowJsonSql(m, 'bindery_new', [...m.logged])})`);
    const query = sql`with bindery_new as (${insert}), bindery_entry as (${entry}) select ${sql.raw(columnListOf(m))} from bindery_new`;
    return write(db, target, query);
  },

  update(db, target, m, a, key, set, filter) {
    let locked = db
      .selectFrom(m.table)
      .select([...m.columns])
      .where(m.pk, '=', key);
    if (m.softDelete !== null && !filter.withDeleted) locked = locked.where(m.softDelete, 'is', null);
    if (filter.where) locked = locked.where(filter.where as never);
    const pk = quoteId(m.pk);
    const update = db
      .updateTable(m.table)
      .set(set)
      .where(sql<boolean>`${sql.ref(`${m.table}.${m.pk}`)} in (select ${sql.ref(m.pk)} from bindery_old)`)
      .returning(m.columns.map((c) => `${m.table}.${c}`));
    const diff = sql.raw(
      `select ${diffJsonSql(m, 'bindery_old', 'bindery_new', 'bindery_old')} as old, ${diffJsonSql(m, 'bindery_old', 'bindery_new', 'bindery_new')} as new, bindery_new.${pk} ` +
        `from bindery_old join bindery_new on bindery_new.${pk} = bindery_old.${pk}`,
    );
    const entry = logInsert(
      a,
      'updated',
      m,
      'bindery_diff',
      `jsonb_build_object('old', bindery_diff.old, 'new', bindery_diff.new)`,
      `bindery_diff.new <> '{}'::jsonb`,
    );
    const query = sql`with bindery_old as (${locked.forUpdate()}), bindery_new as (${update}), bindery_diff as (${diff}), bindery_entry as (${entry}) select ${sql.raw(columnListOf(m))} from bindery_new`;
    return write(db, target, query);
  },

  mark(db, target, m, a, key, where, action) {
    const softDelete = m.softDelete!;
    let update = db
      .updateTable(m.table)
      .set({ [softDelete]: action === 'deleted' ? sql`now()` : null })
      .where(m.pk, '=', key)
      .where(softDelete, action === 'deleted' ? 'is' : 'is not', null);
    if (where) update = update.where(where as never);
    const entry = logInsert(a, action, m, 'bindery_new', 'null::jsonb');
    const query = sql`with bindery_new as (${update.returning([...m.columns])}), bindery_entry as (${entry}) select ${sql.raw(columnListOf(m))} from bindery_new`;
    return write(db, target, query);
  },

  forceDelete(db, target, m, a, key, where) {
    let del = db.deleteFrom(m.table).where(m.pk, '=', key);
    if (where) del = del.where(where as never);
    const entry = logInsert(
      a,
      'force_deleted',
      m,
      'bindery_old',
      `jsonb_build_object('old', ${rowJsonSql(m, 'bindery_old', [...m.logged])})`,
    );
    const query = sql`with bindery_old as (${del.returning([...m.columns])}), bindery_entry as (${entry}) select ${sql.raw(columnListOf(m))} from bindery_old`;
    return write(db, target, query);
  },

  ...postgresBulkWriter,
  history: postgresHistory,
  pruneEntries: postgresPruneEntries,
  pruneBulk: postgresPruneBulk,
};

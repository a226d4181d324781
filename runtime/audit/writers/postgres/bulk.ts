/**
 * PostgreSQL's bulk writes (docs/audit.md "Bulk writes", "Engines"): each
 * chunk of 1,000 keys or rows is one statement — the write, its keys into
 * `audit_bulk_items` and the values before and after as jsonb, data-modifying
 * parts of one `WITH` query; the entry's ID is taken from its sequence first,
 * and the entry is inserted last.
 */
import { sql, type RawBuilder } from 'kysely';
import type { AnyKysely } from '../../../db/any-kysely.js';
import { runStatement } from '../../sql-runner.js';
import type { ResolvedModel } from '../../tracked-config.js';
import type { AuditWriter, ChunkRow, Values } from '../writer.js';
import { quoteId, rowJsonSql } from './json.js';

/** The `audit_bulk_items` insert of a chunk: one item per row of `source`. */
function itemsInsert(model: ResolvedModel, bulkId: number, source: string): RawBuilder<unknown> {
  return sql`insert into audit_bulk_items (bulk_id, subject_type, subject_id) select cast(${bulkId} as bigint), ${sql.lit(model.table)}, cast(${sql.raw(`${source}.${quoteId(model.pk)}`)} as text) from ${sql.raw(source)}`;
}

/** What an insert or upsert chunk returns: the rows written, and `[key, values]` pairs while under the limit. */
interface RowsWritten {
  readonly n: number;
  readonly after?: [string, unknown][] | null;
}

/** The bulk half of PostgreSQL's writer. */
export const postgresBulkWriter: Pick<
  AuditWriter,
  | 'reserveBulkId'
  | 'insertBulkEntry'
  | 'updateChunks'
  | 'deleteChunks'
  | 'insertChunks'
  | 'upsertChunks'
  | 'upsertAssignment'
  | 'updateUnlogged'
> = {
  async reserveBulkId(db, run) {
    const result = await run.run<{ id: number }>(sql`select nextval(pg_get_serial_sequence('audit_bulk', 'id')) as id`.compile(db));
    return result.rows[0]!.id;
  },

  async insertBulkEntry(db, run, model, a, bulkId, entry) {
    const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
    await run.run(
      db
        .insertInto('audit_bulk')
        .values({
          id: bulkId,
          actor_type: a.actorType,
          actor_id: a.actorId,
          action: entry.action,
          subject_type: model.table,
          row_count: entry.rowCount,
          where_clause: json(entry.where),
          assignments: json(entry.assignments),
          values_before: json(entry.before),
          values_after: json(entry.after),
          values_complete: entry.complete,
          via_kind: a.viaKind,
          via_name: a.viaName,
          request_id: a.requestId,
          ip: a.ip,
        })
        .compile(),
    );
  },

  updateChunks(db, model, set, logged) {
    const pk = model.pk;
    const json = rowJsonSql(model, quoteId(model.table), logged);
    return async (run, keys, bulkId, withValues) => {
      const update = db
        .updateTable(model.table)
        .set(set)
        .where(sql<boolean>`${sql.ref(pk)} = any(${keys})`)
        .returning(withValues ? [pk, sql.raw(json).as('bindery_v')] : [pk]);
      const items = itemsInsert(model, bulkId, 'bindery_new');
      const query = withValues
        ? sql`with bindery_old as (select ${sql.ref(pk)}, ${sql.raw(json)} as bindery_v from ${sql.table(model.table)} where ${sql.ref(pk)} = any(${keys})), bindery_new as (${update}), bindery_items as (${items}) select (select count(*) from bindery_new)::int as n, (select jsonb_object_agg(cast(${sql.ref(pk)} as text), bindery_v) from bindery_old) as before, (select jsonb_object_agg(cast(${sql.ref(pk)} as text), bindery_v) from bindery_new) as after`
        : sql`with bindery_new as (${update}), bindery_items as (${items}) select (select count(*) from bindery_new)::int as n`;
      return (await run.run<ChunkRow>(query.compile(db))).rows[0]!;
    };
  },

  deleteChunks(db, model) {
    const pk = model.pk;
    const json = rowJsonSql(model, quoteId(model.table), [...model.logged]);
    return async (run, keys, bulkId, withValues) => {
      const del = db
        .deleteFrom(model.table)
        .where(sql<boolean>`${sql.ref(pk)} = any(${keys})`)
        .returning(withValues ? [pk, sql.raw(json).as('bindery_v')] : [pk]);
      const items = itemsInsert(model, bulkId, 'bindery_old');
      const query = withValues
        ? sql`with bindery_old as (${del}), bindery_items as (${items}) select (select count(*) from bindery_old)::int as n, (select jsonb_object_agg(cast(${sql.ref(pk)} as text), bindery_v) from bindery_old) as before`
        : sql`with bindery_old as (${del}), bindery_items as (${items}) select (select count(*) from bindery_old)::int as n`;
      return (await run.run<ChunkRow>(query.compile(db))).rows[0]!;
    };
  },

  insertChunks(db, model, columns) {
    const pk = model.pk;
    const json = rowJsonSql(model, quoteId(model.table), columns);
    return async (run, chunk, bulkId, room) => {
      const withValues = room > 0;
      const insert = db
        .insertInto(model.table)
        .values(chunk as never)
        .returning(withValues ? [pk, sql.raw(json).as('bindery_v')] : [pk]);
      const items = itemsInsert(model, bulkId, 'bindery_new');
      const query = withValues
        ? sql`with bindery_new as (${insert}), bindery_items as (${items}) select (select count(*) from bindery_new)::int as n, (select jsonb_agg(jsonb_build_array(cast(${sql.ref(pk)} as text), bindery_v)) from bindery_new) as after`
        : sql`with bindery_new as (${insert}), bindery_items as (${items}) select (select count(*) from bindery_new)::int as n`;
      const result = (await run.run<RowsWritten>(query.compile(db))).rows[0]!;
      return { n: result.n, before: [], after: result.after ?? [] };
    };
  },

  upsertChunks(db, model, plan) {
    const pk = model.pk;
    const { conflict, updated } = plan;
    const beforeJson = rowJsonSql(model, quoteId(model.table), plan.beforeColumns);
    const afterJson = rowJsonSql(model, quoteId(model.table), plan.afterColumns);
    return async (run, chunk, bulkId, room) => {
      // The existing rows, locked: their values before are what the database held.
      const existing = await run.run<{ k: string; bindery_v: unknown }>(
        db
          .selectFrom(model.table)
          .select([sql<string>`cast(${sql.ref(pk)} as text)`.as('k'), sql.raw(beforeJson).as('bindery_v')])
          .where((eb) =>
            conflict.length === 1
              ? eb(
                  conflict[0]!,
                  'in',
                  chunk.map((r) => r[conflict[0]!]),
                )
              : eb.or(chunk.map((r) => eb.and(conflict.map((c) => eb(c, '=', r[c]))))),
          )
          .orderBy(pk)
          .forUpdate()
          .compile(),
        { prepare: false },
      );
      const set: Values = Object.fromEntries(updated.map((c) => [c, sql.ref(`excluded.${c}`)]));
      if (model.updatedAt !== null && !(model.updatedAt in set)) set[model.updatedAt] = sql`now()`;
      if (Object.keys(set).length === 0) set[conflict[0]!] = sql.ref(`excluded.${conflict[0]}`);
      const insert = db
        .insertInto(model.table)
        .values(chunk as never)
        .onConflict((oc) => oc.columns(conflict).doUpdateSet(set))
        .returning(room > 0 ? [pk, sql.raw(afterJson).as('bindery_v')] : [pk]);
      const items = itemsInsert(model, bulkId, 'bindery_new');
      const query =
        room > 0
          ? sql`with bindery_new as (${insert}), bindery_items as (${items}) select (select count(*) from bindery_new)::int as n, (select jsonb_agg(jsonb_build_array(cast(${sql.ref(pk)} as text), bindery_v)) from bindery_new) as after`
          : sql`with bindery_new as (${insert}), bindery_items as (${items}) select (select count(*) from bindery_new)::int as n`;
      const result = (await run.run<RowsWritten>(query.compile(db), { prepare: false })).rows[0]!;
      return { n: result.n, before: existing.rows.map((r) => [r.k, r.bindery_v] as const), after: result.after ?? [] };
    };
  },

  upsertAssignment(column) {
    return { sql: `excluded.${quoteId(column)}`, args: [] };
  },

  async updateUnlogged(db: AnyKysely, target, model, selection, set) {
    const pk = model.pk;
    let update = db.updateTable(model.table).set(set);
    update =
      selection.limit === undefined
        ? selection.apply(update)
        : update.where(pk, 'in', selection.apply(db.selectFrom(model.table).select(pk)).orderBy(pk).limit(selection.limit));
    return (await runStatement(target, update.compile())).rowCount;
  },
};

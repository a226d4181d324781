/**
 * The bulk write engine behind `BulkQuery`, `createMany` and `upsert`
 * (docs/spec.md 2.5, 6.1 rules 3, 5, 6, 7; docs/audit.md "Bulk writes"):
 * each operation's chunk statement and entry, on the shared skeleton of
 * bulk-skeleton.ts (lock the keys, write the chunks, record the entry) and
 * the stored forms of bulk-record.ts.
 */
import { sql } from 'kysely';
import { attribute } from './attribution.js';
import type { AuditCore } from './core.js';
import { BULK_CHUNK, checkKey, keyChange, rethrowWriteError } from './entries.js';
import { AuditBulkConflictError, AuditUpsertKeyError } from './errors.js';
import { runStatement, runTransaction, type WriteTarget } from './sql-runner.js';
import { quoteId, rowJsonSql, type ResolvedModel } from './tracked-config.js';
import { insertBulkEntry, itemsInsert, reserveBulkId, writeBulk, type Selection, type Values } from './bulk-skeleton.js';
import { loggedColumnsOf, recordAssignments, recordCondition } from './bulk-record.js';

export type { Selection } from './bulk-skeleton.js';

/** Options of `upsert`. */
export interface UpsertOptions<Row> {
  /** The columns of the unique index to match on (default: the primary key). */
  readonly conflict?: readonly (keyof Row & string)[];
  /** The columns to overwrite when a row exists (default: every given column but the conflict columns and the key). */
  readonly update?: readonly (keyof Row & string)[];
}

/**
 * Update the selected rows (query-level Update, Delete on a soft-delete
 * model, Restore).
 * @returns the number of rows written.
 */
export async function bulkUpdate(
  core: AuditCore,
  model: ResolvedModel,
  target: WriteTarget,
  selection: Selection,
  values: Values,
  action: 'updated' | 'deleted' | 'restored',
): Promise<number> {
  const set: Values = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  const assigned = Object.keys(set);
  if (assigned.length === 0) return 0;
  if (model.pk in set) throw keyChange(model);
  if (action === 'updated' && model.updatedAt !== null && !(model.updatedAt in set)) set[model.updatedAt] = sql`now()`;
  const logged = assigned.filter((c) => model.compared.includes(c));
  const db = core.db;
  const pk = model.pk;

  if (logged.length === 0) {
    // Only excluded columns (and timestamps): written, not logged (docs/spec.md 6.1 rule 6).
    let update = db.updateTable(model.table).set(set);
    update =
      selection.limit === undefined
        ? selection.apply(update)
        : update.where(pk, 'in', selection.apply(db.selectFrom(model.table).select(pk)).orderBy(pk).limit(selection.limit));
    return (await runStatement(target, update.compile())).rowCount;
  }

  const a = await attribute(core.settings.AUDIT_IP);
  const where = recordCondition(db, model, selection);
  const assignments = recordAssignments(db, model, set, logged);
  const json = rowJsonSql(model, quoteId(model.table), logged);
  return writeBulk(
    core,
    model,
    target,
    a,
    selection,
    (keys, bulkId, withValues) => {
      const update = db
        .updateTable(model.table)
        .set(set)
        .where(sql<boolean>`${sql.ref(pk)} = any(${keys})`)
        .returning(withValues ? [pk, sql.raw(json).as('bindery_v')] : [pk]);
      const items = itemsInsert(model, bulkId, 'bindery_new');
      return withValues
        ? sql`with bindery_old as (select ${sql.ref(pk)}, ${sql.raw(json)} as bindery_v from ${sql.table(model.table)} where ${sql.ref(pk)} = any(${keys})), bindery_new as (${update}), bindery_items as (${items}) select (select count(*) from bindery_new)::int as n, (select jsonb_object_agg(cast(${sql.ref(pk)} as text), bindery_v) from bindery_old) as before, (select jsonb_object_agg(cast(${sql.ref(pk)} as text), bindery_v) from bindery_new) as after`
        : sql`with bindery_new as (${update}), bindery_items as (${items}) select (select count(*) from bindery_new)::int as n`;
    },
    (rowCount, before, after, complete) => ({ action, rowCount, where, assignments, before, after, complete }),
  );
}

/**
 * Remove the selected rows (query-level ForceDelete, or Delete on a model
 * without soft delete); the entry keeps the values they had.
 * @returns the number of rows removed.
 */
export async function bulkForceDelete(core: AuditCore, model: ResolvedModel, target: WriteTarget, selection: Selection): Promise<number> {
  const db = core.db;
  const pk = model.pk;
  const a = await attribute(core.settings.AUDIT_IP);
  const where = recordCondition(db, model, selection);
  const json = rowJsonSql(model, quoteId(model.table), [...model.logged]);
  return writeBulk(
    core,
    model,
    target,
    a,
    selection,
    (keys, bulkId, withValues) => {
      const del = db
        .deleteFrom(model.table)
        .where(sql<boolean>`${sql.ref(pk)} = any(${keys})`)
        .returning(withValues ? [pk, sql.raw(json).as('bindery_v')] : [pk]);
      const items = itemsInsert(model, bulkId, 'bindery_old');
      return withValues
        ? sql`with bindery_old as (${del}), bindery_items as (${items}) select (select count(*) from bindery_old)::int as n, (select jsonb_object_agg(cast(${sql.ref(pk)} as text), bindery_v) from bindery_old) as before`
        : sql`with bindery_old as (${del}), bindery_items as (${items}) select (select count(*) from bindery_old)::int as n`;
    },
    (rowCount, before, _after, complete) => ({
      action: 'force_deleted',
      rowCount,
      where,
      assignments: null,
      before,
      after: null,
      complete,
    }),
  );
}

/**
 * Insert rows in chunks of 1,000 (query-level CreateMany); the entry keeps
 * the values of up to `AUDIT_BULK_MAX_VALUES` rows.
 * @returns the number of rows inserted.
 */
export async function bulkCreate(core: AuditCore, model: ResolvedModel, target: WriteTarget, rows: readonly Values[]): Promise<number> {
  if (rows.length === 0) return 0;
  for (const row of rows) if (row[model.pk] !== undefined && row[model.pk] !== null) checkKey(model, row[model.pk]);
  const db = core.db;
  const pk = model.pk;
  const columns = loggedColumnsOf(model, rows);
  const json = rowJsonSql(model, quoteId(model.table), columns);
  const a = await attribute(core.settings.AUDIT_IP);
  const max = core.settings.AUDIT_BULK_MAX_VALUES;
  try {
    return await runTransaction(target, async (run) => {
      const bulkId = await reserveBulkId(db, run);
      const after: Values = {};
      for (let offset = 0; offset < rows.length; offset += BULK_CHUNK) {
        const chunk = rows.slice(offset, offset + BULK_CHUNK);
        const withValues = offset < max;
        const insert = db
          .insertInto(model.table)
          .values(chunk as never)
          .returning(withValues ? [pk, sql.raw(json).as('bindery_v')] : [pk]);
        const items = itemsInsert(model, bulkId, 'bindery_new');
        const query = withValues
          ? sql`with bindery_new as (${insert}), bindery_items as (${items}) select (select count(*) from bindery_new)::int as n, (select jsonb_agg(jsonb_build_array(cast(${sql.ref(pk)} as text), bindery_v)) from bindery_new) as after`
          : sql`with bindery_new as (${insert}), bindery_items as (${items}) select (select count(*) from bindery_new)::int as n`;
        const result = (await run.run<{ n: number; after?: [string, unknown][] | null }>(query.compile(db))).rows[0]!;
        if (result.n !== chunk.length) throw new AuditBulkConflictError(model.table, chunk.length, result.n);
        for (const [key, value] of (result.after ?? []).slice(0, Math.max(0, max - offset))) after[key] = value;
      }
      await insertBulkEntry(db, run, model, a, bulkId, {
        action: 'created',
        rowCount: rows.length,
        where: null,
        assignments: null,
        before: null,
        after,
        complete: rows.length <= max,
      });
      return rows.length;
    });
  } catch (error) {
    rethrowWriteError(model, error);
  }
}

/**
 * Insert rows or update the existing ones matching the conflict columns
 * (query-level Upsert): existing rows are locked first so their values
 * before are what the database held.
 * @returns the number of rows inserted or updated.
 * @throws {AuditUpsertKeyError} when a row lacks a value in a conflict column.
 */
export async function bulkUpsert(
  core: AuditCore,
  model: ResolvedModel,
  target: WriteTarget,
  rows: readonly Values[],
  options: UpsertOptions<unknown>,
): Promise<number> {
  if (rows.length === 0) return 0;
  const conflict: readonly string[] = options.conflict?.length ? options.conflict : [model.pk];
  for (const [i, row] of rows.entries()) {
    for (const column of conflict) {
      const value = row[column];
      const missing =
        value === null || value === undefined || (column === model.pk && model.config.generatedKey && (value === 0 || value === '0'));
      if (missing) {
        throw new AuditUpsertKeyError(
          `Row ${i + 1} of an upsert into ${model.table} has ${value === 0 || value === '0' ? 'the generated key 0' : 'no value'} in the conflict column "${column}"; every row needs a real value in each conflict column (docs/spec.md 6.1 rule 7). Nothing was written.`,
        );
      }
    }
    if (row[model.pk] !== undefined && row[model.pk] !== null) checkKey(model, row[model.pk]);
  }
  const given = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => r[k] !== undefined)))];
  const updated = options.update
    ? [...options.update]
    : given.filter((c) => !conflict.includes(c) && c !== model.pk && c !== model.config.timestamps?.created && c !== model.updatedAt);
  const db = core.db;
  const pk = model.pk;
  const beforeJson = rowJsonSql(
    model,
    quoteId(model.table),
    updated.filter((c) => model.compared.includes(c)),
  );
  const afterJson = rowJsonSql(model, quoteId(model.table), loggedColumnsOf(model, rows));
  const assignments = Object.fromEntries(
    updated.filter((c) => model.compared.includes(c)).map((c) => [c, { sql: `excluded.${quoteId(c)}`, args: [] }]),
  );
  const a = await attribute(core.settings.AUDIT_IP);
  const max = core.settings.AUDIT_BULK_MAX_VALUES;
  try {
    return await runTransaction(target, async (run) => {
      const bulkId = await reserveBulkId(db, run);
      const before: Values = {};
      const after: Values = {};
      for (let offset = 0; offset < rows.length; offset += BULK_CHUNK) {
        const chunk = rows.slice(offset, offset + BULK_CHUNK);
        const room = Math.max(0, max - offset);
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
        for (const row of existing.rows.slice(0, room)) before[row.k] = row.bindery_v;
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
        const result = (await run.run<{ n: number; after?: [string, unknown][] | null }>(query.compile(db), { prepare: false })).rows[0]!;
        if (result.n !== chunk.length) throw new AuditBulkConflictError(model.table, chunk.length, result.n);
        for (const [key, value] of (result.after ?? []).slice(0, room)) after[key] = value;
      }
      await insertBulkEntry(db, run, model, a, bulkId, {
        action: 'upserted',
        rowCount: rows.length,
        where: null,
        assignments,
        before,
        after,
        complete: rows.length <= max,
      });
      return rows.length;
    });
  } catch (error) {
    rethrowWriteError(model, error);
  }
}

/**
 * The bulk writes behind `BulkQuery`, `createMany` and `upsert` (docs/spec.md
 * 2.5, 6.1 rules 3, 5, 6, 7; docs/audit.md "Bulk writes"): each operation's
 * checks, recorded condition and assignments (bulk-record.ts) and entry, on
 * the shared skeleton of bulk-skeleton.ts (lock the keys, write the chunks,
 * record the entry) with the chunk statements of the engine's writer
 * strategy (writers/writer.ts).
 */
import { attribute } from './attribution.js';
import type { AuditCore } from './core.js';
import { checkKey, keyChange } from './entries.js';
import { AuditUpsertKeyError } from './errors.js';
import type { WriteTarget } from './sql-runner.js';
import type { ResolvedModel } from './tracked-config.js';
import { writeBulk, writeRows, type Selection, type Values } from './bulk-skeleton.js';
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
  if (action === 'updated' && model.updatedAt !== null && !(model.updatedAt in set)) set[model.updatedAt] = core.writer.now;
  const logged = assigned.filter((c) => model.compared.includes(c));
  const db = core.db;
  // Only excluded columns (and timestamps): written, not logged (docs/spec.md 6.1 rule 6).
  if (logged.length === 0) return core.writer.updateUnlogged(db, target, model, selection, set);

  const a = await attribute(core.settings.AUDIT_IP);
  const where = recordCondition(db, model, selection);
  const assignments = recordAssignments(db, model, set, logged);
  return writeBulk(
    core,
    model,
    target,
    a,
    selection,
    core.writer.updateChunks(db, model, set, logged),
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
  const a = await attribute(core.settings.AUDIT_IP);
  const where = recordCondition(db, model, selection);
  return writeBulk(core, model, target, a, selection, core.writer.deleteChunks(db, model), (rowCount, before, _after, complete) => ({
    action: 'force_deleted',
    rowCount,
    where,
    assignments: null,
    before,
    after: null,
    complete,
  }));
}

/**
 * Insert rows in chunks of 1,000 (query-level CreateMany); the entry keeps
 * the values of up to `AUDIT_BULK_MAX_VALUES` rows.
 * @returns the number of rows inserted.
 */
export async function bulkCreate(core: AuditCore, model: ResolvedModel, target: WriteTarget, rows: readonly Values[]): Promise<number> {
  if (rows.length === 0) return 0;
  for (const row of rows) if (row[model.pk] !== undefined && row[model.pk] !== null) checkKey(model, row[model.pk]);
  const writeChunk = core.writer.insertChunks(core.db, model, loggedColumnsOf(model, rows));
  const a = await attribute(core.settings.AUDIT_IP);
  return writeRows(core, model, target, a, rows, writeChunk, (_before, after, complete) => ({
    action: 'created',
    rowCount: rows.length,
    where: null,
    assignments: null,
    before: null,
    after,
    complete,
  }));
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
  const compared = updated.filter((c) => model.compared.includes(c));
  const writeChunk = core.writer.upsertChunks(core.db, model, {
    conflict,
    updated,
    beforeColumns: compared,
    afterColumns: loggedColumnsOf(model, rows),
  });
  const assignments = Object.fromEntries(compared.map((c) => [c, core.writer.upsertAssignment(c)]));
  const a = await attribute(core.settings.AUDIT_IP);
  return writeRows(core, model, target, a, rows, writeChunk, (before, after, complete) => ({
    action: 'upserted',
    rowCount: rows.length,
    where: null,
    assignments,
    before,
    after,
    complete,
  }));
}

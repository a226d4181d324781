/**
 * The revert of one single-row entry (docs/audit.md "Revert"), inside the
 * revert's transaction: the row is locked first (`FOR UPDATE`), then
 * compared, then written through its tracked model, whose entry is then
 * recorded as `reverted`. (framework-internal: not exported by an entry).
 */
import { databaseErrorOf } from '../../db/database-errors.js';
import { REDACTED, type ResolvedModel } from '../tracked-config.js';
import type { TrackedModel } from '../tracked-model.js';
import type { LogRow } from '../reads/entry-rows.js';
import { RevertConflictError, RevertRefusedError, type FieldConflict } from './errors.js';
import { authorizeWrite, entryAfter, latestEntryId, markEntry, modelOf, type Performed, type RevertRun } from './run.js';
import { sameJson, valueWriter } from './values.js';

type Values = Record<string, unknown>;

/** What reverting an entry of each action does, by the action its revert records as `performed`. */
const UNDO: Readonly<Record<string, string>> = {
  update: 'updated',
  restore: 'restored',
  delete: 'deleted',
  create: 'created',
  force_delete: 'force_deleted',
};

/** The write an entry records: its action, or for a revert's entry the write it performed. */
export function effectiveAction(action: string, properties: Record<string, unknown> | null): string {
  if (action !== 'reverted') return action;
  const performed = properties?.performed;
  return typeof performed === 'string' ? (UNDO[performed] ?? action) : action;
}

/**
 * Revert `entry`.
 * @throws {RevertConflictError} (409) when the row changed since; {@link RevertRefusedError} (409) when it cannot be reverted; {@link RevertForbiddenError} (403).
 */
export async function revertLogEntry(run: RevertRun, entry: LogRow): Promise<void> {
  const what = `Entry ${entry.id} (${entry.action})`;
  const { model, resolved } = modelOf(run, entry.subjectType, what);
  const key = entry.subjectId;
  if (key === null) throw new RevertRefusedError(what, { entry: 'It names no row.' });
  const table = resolved.table;
  const current = (await run.trx.selectFrom(table).selectAll().where(resolved.pk, '=', key).forUpdate().executeTakeFirst()) as
    | Values
    | undefined;
  const before = await latestEntryId(run, table, key);
  const gone = (reason: string) => new RevertConflictError([{ resource: table, id: key, reason, fields: [] }]);
  const action = effectiveAction(entry.action, entry.properties);
  const soft = resolved.softDelete;
  const live = current !== undefined && (soft === null || current[soft] === null);
  let performed: Performed;
  switch (action) {
    case 'updated': {
      if (current === undefined) throw gone('The row no longer exists.');
      await authorizeWrite(run, 'update', table, key, current);
      await revertUpdate(run, entry, model, resolved, key, before);
      return;
    }
    case 'created': {
      if (!live) throw gone(current === undefined ? 'The row no longer exists.' : 'The row was deleted since.');
      performed = soft === null ? 'force_delete' : 'delete';
      await authorizeWrite(run, 'delete', table, key, current);
      await model.delete(key as never);
      break;
    }
    case 'restored': {
      if (!live) throw gone(current === undefined ? 'The row no longer exists.' : 'The row was deleted since.');
      performed = 'delete';
      await authorizeWrite(run, 'delete', table, key, current);
      await model.delete(key as never);
      break;
    }
    case 'deleted': {
      if (current === undefined) throw gone('The row no longer exists.');
      if (live) throw gone('The row was restored since.');
      performed = 'restore';
      await authorizeWrite(run, 'restore', table, key, current);
      await checkUniqueLive(run, resolved, key, current, what);
      await refusingConstraints(what, () => model.restore(key as never));
      break;
    }
    case 'force_deleted': {
      performed = 'create';
      const values = await reinsertValues(run, entry, resolved, key, current !== undefined, what);
      await authorizeWrite(run, 'create', table, key, values);
      await checkUniqueLive(run, resolved, key, values, what);
      const writable = (await valueWriter(run.engine.name, run.trx, resolved))(values);
      await refusingConstraints(what, () => model.create(writable as never));
      break;
    }
    default:
      throw new RevertRefusedError(what, {
        entry:
          entry.action === 'reverted'
            ? 'Its details do not say which write it performed (details.performed), so it cannot be reverted.'
            : `"${entry.action}" is an application event, not a write of a row; there is nothing to write back.`,
      });
  }
  const written = await entryAfter(run, table, key, before);
  if (written !== undefined) await markEntry(run, written.id, performed);
}

/** An `updated` entry: its old values written back, refused if a field changed since unless confirmed. */
async function revertUpdate(
  run: RevertRun,
  entry: LogRow,
  model: TrackedModel,
  m: ResolvedModel,
  key: string,
  before: string,
): Promise<void> {
  const what = `Entry ${entry.id} (${entry.action})`;
  const old = entry.changes?.old ?? {};
  const after = entry.changes?.new ?? {};
  const set: Values = {};
  for (const field of new Set([...Object.keys(old), ...Object.keys(after)])) {
    if (m.redacted.has(field) && (old[field] === REDACTED || after[field] === REDACTED)) {
      run.notes.push({ resource: m.table, id: key, field, reason: 'Redacted: its old value is not kept, so it was left as it is.' });
      continue;
    }
    if (!m.columns.includes(field)) continue;
    set[field] = old[field] ?? null;
  }
  if (Object.keys(set).length === 0)
    throw new RevertRefusedError(what, {
      entry: 'It changed only redacted fields, whose old values the log does not keep (docs/audit.md "Redaction").',
    });
  const writable = (await valueWriter(run.engine.name, run.trx, m))(set);
  await model.update(key as never, writable as never, { withDeleted: true });
  const written = await entryAfter(run, m.table, key, before);
  const seen = written?.changes?.old ?? {};
  const conflicts: FieldConflict[] = [];
  for (const field of Object.keys(set)) {
    // A field the write changed was what its entry's old value says; one it did not change already held the old value.
    const current = field in seen ? seen[field] : set[field];
    if (!sameJson(current, after[field] ?? null) && !run.confirm.has(field))
      conflicts.push({ field, old: old[field] ?? null, new: after[field] ?? null, current });
  }
  if (conflicts.length > 0)
    throw new RevertConflictError(
      [{ resource: m.table, id: key, fields: conflicts }],
      ` Confirm the fields (${conflicts.map((c) => c.field).join(', ')}) to write the old values over them.`,
    );
  if (written !== undefined) await markEntry(run, written.id, 'update');
}

/** The values a force-deleted row is inserted again with; refused when the entry lacks some or the key is taken. */
async function reinsertValues(run: RevertRun, entry: LogRow, m: ResolvedModel, key: string, taken: boolean, what: string): Promise<Values> {
  const old = entry.changes?.old ?? {};
  const reasons: Record<string, string> = {};
  if (taken) reasons[m.pk] = `A row with the key ${key} exists again.`;
  const values: Values = {};
  for (const column of m.columns) {
    const kept = column in old;
    const redacted = kept && old[column] === REDACTED && m.redacted.has(column);
    if (kept && !redacted) values[column] = old[column];
    else if (!run.confirm.has(column))
      reasons[column] = redacted
        ? `${column} is redacted in the entry: its value was not kept. Confirm "${column}" to insert the row without it (the column's default).`
        : `${column} is left out of the log (except): its value was not kept. Confirm "${column}" to insert the row without it (the column's default).`;
  }
  if (Object.keys(reasons).length > 0) throw new RevertRefusedError(what, reasons);
  return values;
}

/** Refuse a row that would be live while another live row holds one of its values unique among live rows. */
async function checkUniqueLive(run: RevertRun, m: ResolvedModel, key: string, row: Values, what: string): Promise<void> {
  if (m.softDelete === null) return;
  const reasons: Record<string, string> = {};
  for (const columns of m.config.uniqueLive ?? []) {
    if (columns.some((c) => row[c] === null || row[c] === undefined)) continue;
    let query = run.trx.selectFrom(m.table).select(m.pk).where(m.softDelete, 'is', null).where(m.pk, '!=', key);
    for (const c of columns) query = query.where(c, '=', row[c] as never);
    const other = (await query.executeTakeFirst()) as Values | undefined;
    if (other !== undefined)
      reasons[columns.join(',')] =
        `${columns.join(', ')} ${JSON.stringify(columns.map((c) => row[c]).join(', '))} is taken by the live row ${String(other[m.pk])}, and must be unique among live rows.`;
  }
  if (Object.keys(reasons).length > 0) throw new RevertRefusedError(what, reasons);
}

/** Run a write; a unique, foreign-key, CHECK or NOT NULL violation becomes a refusal naming the constraint. */
export async function refusingConstraints<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const info = databaseErrorOf(error);
    const says: Record<string, string> = {
      'unique-violation': 'a value it holds is taken by another row',
      'foreign-key-violation': 'a row it refers to does not exist',
      'check-violation': 'a check of the table refuses its values',
      'not-null-violation': 'a column it needs has no value',
    };
    if (info !== undefined && info.kind in says)
      throw new RevertRefusedError(what, {
        row: `The database refused the write: ${says[info.kind]}${info.constraint ? ` (${info.constraint})` : ''}.`,
      });
    throw error;
  }
}

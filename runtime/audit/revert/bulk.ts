/**
 * The revert of one bulk entry as one unit (docs/audit.md "Revert"), inside
 * the revert's transaction, as one new bulk entry `reverted` written by the
 * bulk writer (bulk-skeleton.ts, the engine's chunk statements): the rows
 * are locked, each chunk writes the rows back to their values before, and
 * the values the chunk found (what the rows held, locked) must be the
 * entry's values after — else everything rolls back with the rows named.
 * (framework-internal: not exported by an entry).
 */
import { attribute } from '../attribution.js';
import { loggedColumnsOf } from '../bulk-record.js';
import { writeBulk, writeRows, type Selection } from '../bulk-skeleton.js';
import type { AuditCore } from '../core.js';
import type { BulkRow } from '../reads/entry-rows.js';
import { bulkKeys } from '../reads/entry-rows.js';
import { REDACTED, type ResolvedModel } from '../tracked-config.js';
import type { Action, AuditWriter, BulkEntry, ChunkRow, KeyChunkWriter } from '../writers/writer.js';
import { RevertConflictError, RevertRefusedError, type FieldConflict, type RowConflict } from './errors.js';
import { authorizeWrite, modelOf, revertDetails, type Performed, type RevertRun } from './run.js';
import { effectiveAction, refusingConstraints } from './single.js';
import { sameJson, valueWriter } from './values.js';

type Values = Record<string, unknown>;
type RowValues = Record<string, Values>;

const PERFORMED: Readonly<Record<string, Performed>> = { updated: 'update', deleted: 'restore', restored: 'delete' };

/**
 * Revert the bulk entry `bulk`.
 * @throws {RevertConflictError} (409) naming the rows changed since; {@link RevertRefusedError} (409) when the entry did not keep every row's values, or for an upsert; {@link RevertForbiddenError} (403).
 */
export async function revertBulkEntry(run: RevertRun, bulk: BulkRow): Promise<void> {
  const what = `Bulk entry ${bulk.id} (${bulk.action})`;
  const { resolved: m } = modelOf(run, bulk.subjectType, what);
  const action = effectiveAction(bulk.action, bulk.properties);
  if (!bulk.complete || bulk.before === null)
    if (action !== 'created')
      throw new RevertRefusedError(what, {
        entry: `It did not keep the values of all its ${bulk.rowCount} rows (AUDIT_BULK_MAX_VALUES, docs/audit.md "Settings"), so they cannot be written back.`,
      });
  const keys = await bulkKeys(run.trx, bulk.id);
  const current = await lockRows(run, m, keys);
  const missing = keys.filter((k) => !current.has(k));
  if (action === 'force_deleted') {
    if (current.size > 0) {
      const taken = [...current.keys()];
      throw new RevertRefusedError(what, { [m.pk]: `Rows with the keys ${taken.join(', ')} exist again.` });
    }
  } else if (missing.length > 0) {
    throw new RevertConflictError(missing.map((id) => ({ resource: m.table, id, reason: 'The row no longer exists.', fields: [] })));
  }
  const core = markingCore(run);
  if (action === 'updated' || action === 'deleted' || action === 'restored') {
    const performed = PERFORMED[action]!;
    for (const [id, row] of current) await authorizeWrite(run, performed, m.table, id, row);
    await writeBack(run, core(performed), m, keys, bulk.before ?? {}, bulk.after ?? {}, action === 'updated', what);
  } else if (action === 'created') {
    const performed: Performed = m.softDelete === null ? 'force_delete' : 'delete';
    for (const [id, row] of current) await authorizeWrite(run, 'delete', m.table, id, row);
    await undoCreate(run, core(performed), m, keys, current, bulk.after);
  } else if (action === 'force_deleted') {
    await reinsert(run, core('create'), m, keys, bulk.before ?? {}, what);
  } else {
    throw new RevertRefusedError(what, {
      entry: `A bulk "${bulk.action}" cannot be reverted as one unit (an upsert's inserted and updated rows are not told apart); revert its rows one by one.`,
    });
  }
}

/** The rows of `keys`, locked (`FOR UPDATE`), by key as text. */
async function lockRows(run: RevertRun, m: ResolvedModel, keys: readonly string[]): Promise<Map<string, Values>> {
  const rows = new Map<string, Values>();
  for (let i = 0; i < keys.length; i += 1000) {
    const chunk = keys.slice(i, i + 1000);
    const found = await run.trx.selectFrom(m.table).selectAll().where(m.pk, 'in', chunk).orderBy(m.pk).forUpdate().execute();
    for (const row of found as Values[]) rows.set(String(row[m.pk]), row);
  }
  return rows;
}

/** An audit core whose bulk entry is recorded as `reverted`, its details naming what it reverted, and remembered by the run. */
function markingCore(run: RevertRun): (performed: Performed) => AuditCore {
  return (performed) => {
    const writer: AuditWriter = Object.create(run.writer);
    writer.insertBulkEntry = async (db, runner, model, a, bulkId, entry) => {
      await run.writer.insertBulkEntry(db, runner, model, a, bulkId, { ...entry, action: 'reverted' as Action });
      const details = run.writer.documentText(revertDetails(run, performed));
      await runner.run(db.updateTable('audit_bulk').set({ properties: details }).where('id', '=', bulkId).compile(), { prepare: false });
      run.written.push({ kind: 'bulk', id: String(bulkId) });
    };
    return { db: run.log.database.db, engine: run.engine, writer, settings: run.log.settings };
  };
}

function selectionOf(m: ResolvedModel, keys: readonly string[]): Selection {
  return { limit: undefined, apply: (query) => query.where(m.pk, 'in', keys) };
}

function entryOf(rowCount: number, before: Values, after: Values, complete: boolean): BulkEntry {
  return { action: 'reverted' as Action, rowCount, where: null, assignments: null, before, after, complete };
}

/** Write every row back to its values before, refusing rows whose values now are not the entry's values after. */
async function writeBack(
  run: RevertRun,
  core: AuditCore,
  m: ResolvedModel,
  keys: readonly string[],
  before: RowValues,
  after: RowValues,
  touch: boolean,
  what: string,
): Promise<void> {
  const redacted = keys.flatMap((k) =>
    Object.entries(before[k] ?? {})
      .filter(([c, v]) => v === REDACTED && m.redacted.has(c))
      .map(([c]) => c),
  );
  if (redacted.length > 0)
    throw new RevertRefusedError(
      what,
      Object.fromEntries([...new Set(redacted)].map((c) => [c, `${c} is redacted: its values before were not kept.`])),
    );
  const writable = await valueWriter(run.engine.name, run.trx, m);
  const writeChunk: KeyChunkWriter = async (runner, chunkKeys, bulkId) => {
    const groups = new Map<string, unknown[]>();
    for (const key of chunkKeys) {
      const values = before[String(key)] ?? {};
      const id = JSON.stringify(Object.entries(values).sort(([a], [b]) => (a < b ? -1 : 1)));
      groups.set(id, [...(groups.get(id) ?? []), key]);
    }
    const out: { n: number; before: Values; after: Values } = { n: 0, before: {}, after: {} };
    const conflicts: RowConflict[] = [];
    for (const group of groups.values()) {
      const values = before[String(group[0])] ?? {};
      const columns = Object.keys(values).filter((c) => m.columns.includes(c));
      const set: Values = writable(Object.fromEntries(columns.map((c) => [c, values[c]])));
      if (touch && m.updatedAt !== null) set[m.updatedAt] = core.writer.now;
      const result: ChunkRow = await core.writer.updateChunks(core.db, m, set, columns)(runner, group, bulkId, true);
      out.n += result.n;
      for (const key of group) {
        const k = String(key);
        const now = (result.before?.[k] ?? {}) as Values;
        const fields: FieldConflict[] = columns
          .filter((c) => !sameJson(now[c], after[k]?.[c]))
          .map((c) => ({ field: c, old: values[c] ?? null, new: after[k]?.[c] ?? null, current: now[c] ?? null }));
        if (fields.length > 0) conflicts.push({ resource: m.table, id: k, fields });
        out.before[k] = now;
        if (result.after?.[k] !== undefined) out.after[k] = result.after[k];
      }
    }
    if (conflicts.length > 0) throw new RevertConflictError(conflicts, ' Revert the later entries first.');
    return out;
  };
  await writeBulk(
    core,
    m,
    { kind: 'kysely', db: run.trx },
    await attribute(run.log.settings.AUDIT_IP),
    selectionOf(m, keys),
    writeChunk,
    entryOf,
  );
}

/** Delete the rows a bulk create inserted: soft on a soft-delete model (live rows only), else removed. */
async function undoCreate(
  run: RevertRun,
  core: AuditCore,
  m: ResolvedModel,
  keys: readonly string[],
  current: ReadonlyMap<string, Values>,
  after: RowValues | null,
): Promise<void> {
  const soft = m.softDelete;
  const a = await attribute(run.log.settings.AUDIT_IP);
  const target = { kind: 'kysely', db: run.trx } as const;
  if (soft !== null) {
    const deleted = [...current].filter(([, row]) => row[soft] !== null).map(([id]) => id);
    if (deleted.length > 0)
      throw new RevertConflictError(deleted.map((id) => ({ resource: m.table, id, reason: 'The row was deleted since.', fields: [] })));
    const chunk = core.writer.updateChunks(core.db, m, { [soft]: core.writer.now }, [soft]);
    await writeBulk(core, m, target, a, selectionOf(m, keys), chunk, entryOf);
    return;
  }
  const remove = core.writer.deleteChunks(core.db, m);
  const checked: KeyChunkWriter = async (runner, chunkKeys, bulkId, withValues) => {
    const result = await remove(runner, chunkKeys, bulkId, true);
    const conflicts: RowConflict[] = [];
    for (const key of chunkKeys) {
      const k = String(key);
      const was = after?.[k];
      const now = (result.before?.[k] ?? {}) as Values;
      if (was === undefined) continue;
      const fields = Object.keys(was)
        .filter((c) => !sameJson(now[c], was[c]))
        .map((c) => ({ field: c, old: null, new: was[c], current: now[c] ?? null }));
      if (fields.length > 0) conflicts.push({ resource: m.table, id: k, fields });
    }
    if (conflicts.length > 0) throw new RevertConflictError(conflicts, ' Revert the later entries first.');
    return withValues ? result : { n: result.n };
  };
  await writeBulk(core, m, target, a, selectionOf(m, keys), checked, entryOf);
}

/** Insert the rows a bulk force delete removed, from their values before. */
async function reinsert(
  run: RevertRun,
  core: AuditCore,
  m: ResolvedModel,
  keys: readonly string[],
  before: RowValues,
  what: string,
): Promise<void> {
  const reasons: Record<string, string> = {};
  for (const column of m.columns) {
    const kept = keys.every((k) => column in (before[k] ?? {}) && !(m.redacted.has(column) && before[k]![column] === REDACTED));
    if (!kept && !run.confirm.has(column))
      reasons[column] =
        `${column} was not kept in the entry (redacted or left out of the log). Confirm "${column}" to insert the rows without it (the column's default).`;
  }
  if (Object.keys(reasons).length > 0) throw new RevertRefusedError(what, reasons);
  const writable = await valueWriter(run.engine.name, run.trx, m);
  const rows = keys.map((k) =>
    writable(
      Object.fromEntries(
        Object.entries(before[k] ?? {}).filter(([c, v]) => m.columns.includes(c) && !(m.redacted.has(c) && v === REDACTED)),
      ),
    ),
  );
  for (const row of rows) await authorizeWrite(run, 'create', m.table, String(row[m.pk]), row);
  const chunk = core.writer.insertChunks(core.db, m, loggedColumnsOf(m, rows));
  const a = await attribute(run.log.settings.AUDIT_IP);
  await refusingConstraints(what, () =>
    writeRows(core, m, { kind: 'kysely', db: run.trx }, a, rows, chunk, (_b, after, complete) => entryOf(rows.length, {}, after, complete)),
  );
}

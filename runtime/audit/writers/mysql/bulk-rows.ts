/**
 * MySQL's bulk writes of given rows (docs/audit.md "Bulk writes",
 * "Engines"): `createMany` and `upsert`, in chunks of up to 1,000 rows, each
 * on the bulk write's transaction.
 *
 * - insert: the rows with a key (given, or a UUID made here), then those the
 *   server numbers (`AUTO_INCREMENT`: a multi-row insert's numbers are
 *   consecutive from `LAST_INSERT_ID()`, by `auto_increment_increment`),
 *   the rows read back by their keys while their values are kept, the keys
 *   into `audit_bulk_items`;
 * - upsert: the existing rows of the conflict columns read `FOR UPDATE`
 *   (their values before), `INSERT … ON DUPLICATE KEY UPDATE` with the
 *   values of the row (`VALUES(column)`), then the rows of the chunk's
 *   conflict values read back: their count is what the chunk wrote, so two
 *   rows of one chunk with the same conflict values, or a row that met
 *   another unique key of the table (MySQL updates the row of any unique
 *   key), fail the whole write.
 *
 * An upsert is refused before anything is written when its conflict columns
 * are an index unique among live rows (MySQL has no partial indexes:
 * `AuditUpsertUniqueLiveError`) or no unique key of the table.
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../../../db/any-kysely.js';
import { AuditModelError, AuditUpsertUniqueLiveError } from '../../errors.js';
import type { Runner } from '../../sql-runner.js';
import type { ResolvedModel } from '../../tracked-config.js';
import type { AuditWriter, RowChunk, Values } from '../writer.js';
import { insertItems, UNPREPARED } from './bulk.js';
import { keyedValues } from './keys.js';
import { entryValues, selectRow } from './rows.js';
import { tableInfo, type TableInfo } from './table-info.js';

const sameColumns = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((c) => b.includes(c));

/**
 * Refuse an upsert on an index unique among live rows.
 * @throws {AuditUpsertUniqueLiveError} naming the index's columns, why, and what to do instead.
 */
export function refuseUniqueLive(model: ResolvedModel, conflict: readonly string[]): void {
  if (!(model.config.uniqueLive ?? []).some((columns) => sameColumns(columns, conflict))) return;
  throw new AuditUpsertUniqueLiveError(
    `An upsert into ${model.table} matches rows on (${conflict.join(', ')}), an index unique only among live rows (not soft-deleted): MySQL and MariaDB have no partial indexes, so INSERT … ON DUPLICATE KEY UPDATE cannot match on it (docs/spec.md 7 rule 10; docs/audit.md "Engines"). Nothing was written. Upsert on the primary key or a plain unique index instead, or find the live row and update it (update), else create it (create).`,
  );
}

/** A key (or a conflict column's value) as text: how entries and items name rows. */
function keyText(value: unknown): string {
  return String(value);
}

/** `[key as text, values]` of the first `room` of `rows`. */
function pairsOf(model: ResolvedModel, info: TableInfo, rows: readonly Values[], columns: readonly string[], room: number) {
  return rows.slice(0, room).map((row) => [keyText(row[model.pk]), entryValues(model, info, row, columns)] as const);
}

/** The key values the inserted rows have, in order: those known, and the server's consecutive numbers for the rest. */
async function insertRows(db: AnyKysely, run: Runner, model: ResolvedModel, info: TableInfo, chunk: readonly Values[]) {
  const keyed = chunk.map((row) => keyedValues(model, info, row));
  const known = keyed.filter((k) => k.key !== undefined);
  const numbered = keyed.filter((k) => k.key === undefined);
  let n = 0;
  const insert = (rows: readonly { values: Values }[]) =>
    run.run(
      db
        .insertInto(model.table)
        .values(rows.map((r) => r.values) as never)
        .compile(),
      UNPREPARED,
    );
  if (known.length > 0) n += (await insert(known)).rowCount;
  let next: () => unknown = () => undefined;
  if (numbered.length > 0) {
    n += (await insert(numbered)).rowCount;
    const { rows } = await run.run<{ id: number; step: number }>(
      sql`select last_insert_id() as id, @@auto_increment_increment as step`.compile(db),
      UNPREPARED,
    );
    let id = Number(rows[0]!.id);
    const step = Number(rows[0]!.step);
    next = () => {
      const key = id;
      id += step;
      return key;
    };
  }
  return { n, keys: keyed.map((k) => (k.key !== undefined ? k.key : next())) };
}

/** The insert and upsert halves of MySQL's bulk writer. */
export const mysqlRowChunks: Pick<AuditWriter, 'insertChunks' | 'upsertChunks'> = {
  insertChunks(db, model, columns) {
    return async (run, chunk, bulkId, room): Promise<RowChunk> => {
      const info = await tableInfo(run, model);
      const { n, keys } = await insertRows(db, run, model, info, chunk);
      let after: RowChunk['after'] = [];
      if (room > 0) {
        const read = selectRow(db, model, info, [...new Set([model.pk, ...columns])]).where(model.pk, 'in', keys.slice(0, room));
        const byKey = new Map<string, Values>(
          (await run.run<Values>(read.compile(), UNPREPARED)).rows.map((r) => [keyText(r[model.pk]), r]),
        );
        const rows = keys
          .slice(0, room)
          .map((k) => byKey.get(keyText(k)))
          .filter((r): r is Values => r !== undefined);
        after = pairsOf(model, info, rows, columns, room);
      }
      await insertItems(db, run, model, bulkId, keys);
      return { n, before: [], after };
    };
  },

  upsertChunks(db, model, plan) {
    const { conflict, updated } = plan;
    refuseUniqueLive(model, conflict);
    const pk = model.pk;
    // The rows of the chunk's conflict values: `c in (…)`, or `(a = … and b = …) or …` for several columns.
    const matching = (chunk: readonly Values[]) =>
      conflict.length === 1
        ? sql<boolean>`${sql.ref(conflict[0]!)} in (${sql.join(chunk.map((r) => r[conflict[0]!]))})`
        : sql<boolean>`(${sql.join(
            chunk.map(
              (r) =>
                sql`(${sql.join(
                  conflict.map((c) => sql`${sql.ref(c)} = ${r[c]}`),
                  sql` and `,
                )})`,
            ),
            sql` or `,
          )})`;
    const set: Values = Object.fromEntries(updated.map((c) => [c, sql`values(${sql.ref(c)})`]));
    if (model.updatedAt !== null && !(model.updatedAt in set)) set[model.updatedAt] = sql`current_timestamp(6)`;
    if (Object.keys(set).length === 0) set[conflict[0]!] = sql`values(${sql.ref(conflict[0]!)})`;
    return async (run, chunk, bulkId, room): Promise<RowChunk> => {
      const info = await tableInfo(run, model);
      if (!info.uniqueKeys.some((key) => sameColumns(key, conflict)))
        throw new AuditModelError(
          `An upsert into ${model.table} matches rows on (${conflict.join(', ')}), which is neither the primary key nor a unique index of the table, so rows cannot be matched on it. Nothing was written.`,
        );
      // The existing rows, locked: their values before are what the database held.
      const locked = selectRow(db, model, info, [...new Set([pk, ...plan.beforeColumns])])
        .where(matching(chunk))
        .orderBy(pk)
        .forUpdate();
      const existing = (await run.run<Values>(locked.compile(), UNPREPARED)).rows;
      const rows = chunk.map((row) => keyedValues(model, info, row).values);
      const upsert = db
        .insertInto(model.table)
        .values(rows as never)
        .onDuplicateKeyUpdate(set);
      await run.run(upsert.compile(), UNPREPARED);
      // What the chunk wrote: the rows of its conflict values, in the order of the chunk.
      const read = selectRow(db, model, info, [...new Set([pk, ...conflict, ...plan.afterColumns])]).where(matching(chunk));
      const written = (await run.run<Values>(read.compile(), UNPREPARED)).rows;
      const tuple = (row: Values) => JSON.stringify(conflict.map((c) => keyText(row[c])));
      const byTuple = new Map<string, Values>(written.map((row) => [tuple(row), row]));
      const ordered = [...new Set(chunk.map((row) => byTuple.get(tuple(row))).filter((r): r is Values => r !== undefined))];
      const rest = written.filter((row) => !ordered.includes(row));
      await insertItems(
        db,
        run,
        model,
        bulkId,
        written.map((row) => row[pk]),
      );
      return {
        n: written.length,
        before: pairsOf(model, info, existing, plan.beforeColumns, existing.length),
        after: pairsOf(model, info, [...ordered, ...rest], plan.afterColumns, room),
      };
    };
  },
};

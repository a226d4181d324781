/**
 * What a duplicate key does to an insert, on PostgreSQL (docs/database.md
 * "Writing portable queries"): `on conflict (<key>) do nothing`, or `do
 * update set <column> = excluded.<column>` for the columns named. Only a
 * duplicate of that key is the conflict; another unique index still fails.
 */
import { sql } from 'kysely';
import type { AnyKysely } from '../../any-kysely.js';

/** An insert of any table, as `upsert` and `insertIfAbsent` build it. */
type AnyInsert = ReturnType<AnyKysely['insertInto']>;

/** `insert` with PostgreSQL's conflict clause on the key `conflict`: nothing, or the `update` columns taken from the new row. */
export function postgresOnConflict(insert: AnyInsert, conflict: readonly string[], update: readonly string[]): AnyInsert {
  return insert.onConflict((oc) => {
    const target = oc.columns(conflict as never);
    return update.length === 0
      ? target.doNothing()
      : target.doUpdateSet(Object.fromEntries(update.map((c) => [c, sql.ref(`excluded.${c}`)])));
  });
}

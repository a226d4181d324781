/**
 * The shapes of `generated/schema.snapshot.json` (version 2): the tables as
 * of the last generated migration, in bindery's own terms — column types
 * (`runtime/db/column-type.ts`), defaults as values, `live` unique indexes —
 * so that every engine's migration dialect reads the same snapshot
 * (docs/generator.md "Migrations"). Types only: the dialects and the
 * emitter's modules all read them without importing one another.
 */
import type { ColumnTypeText } from '../../../runtime/db/column-type.js';
import type { JsonValue } from '../../model/model.js';

/** A column default: the instant of the insert, a random UUID, or a value in the column's stored form. */
export type DefaultSnapshot =
  | { readonly kind: 'now' }
  | { readonly kind: 'randomUuid' }
  | { readonly kind: 'value'; readonly value: JsonValue };

/** A column as the database has it. */
export interface ColumnSnapshot {
  /** Column type, e.g. `string(200)`, `string[]`, `timestamp`. */
  readonly type: ColumnTypeText;
  readonly nullable: boolean;
  readonly default?: DefaultSnapshot;
  readonly identity?: boolean;
  readonly primaryKey?: boolean;
  /**
   * The values of an enum column, sorted: the column has the CHECK
   * constraint `<table>_<column>_check` allowing only them (`names.ts`, `checkName`).
   */
  readonly values?: readonly string[];
}

/** An index. */
export interface IndexSnapshot {
  readonly columns: readonly string[];
  readonly unique: boolean;
  /** Unique among the rows not soft-deleted (`deleted_at` null): YAML `unique: live`. */
  readonly live?: true;
}

/** A foreign key. */
export interface ForeignKeySnapshot {
  readonly column: string;
  readonly table: string;
  readonly references: string;
  readonly onDelete: string;
}

/** A table. Map keys are SQL names; columns keep their declared order. */
export interface TableSnapshot {
  readonly columns: Readonly<Record<string, ColumnSnapshot>>;
  readonly indexes: Readonly<Record<string, IndexSnapshot>>;
  readonly foreignKeys: Readonly<Record<string, ForeignKeySnapshot>>;
}

/** The version of the snapshot files written now (1: PostgreSQL types and default SQL, read and converted). */
export const SNAPSHOT_VERSION = 2;

/** The snapshot file's content. */
export interface Snapshot {
  readonly version: typeof SNAPSHOT_VERSION;
  /** Name of the last migration (without `.sql`), or null before the first. */
  readonly lastMigration: string | null;
  /** Tables by name, sorted. */
  readonly tables: Readonly<Record<string, TableSnapshot>>;
}

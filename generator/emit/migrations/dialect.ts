/**
 * A migration dialect (docs/generator.md "Migrations"; docs/database.md
 * "Engines"): every statement the migration emitter writes, in one engine's
 * DDL, and the reading back of those statements (`--rebuild-snapshot`, the
 * check of the snapshot against its migrations). The emitter (`diff.ts`,
 * `renames.ts`, `replay.ts`) decides *what* changes, in bindery's own terms
 * (`snapshot-types.ts`); the dialect says it in its engine's SQL. Each
 * engine's dialect lives in a folder named for it (`dialects/postgres/`,
 * `dialects/mysql/`); `dialects/index.ts` chooses them by the project's
 * `databases` setting.
 *
 * Every statement is one text ending with `;` (a guard may be a block).
 */
import type { ColumnTypeText } from '../../../runtime/db/column-type.js';
import type { ColumnSnapshot, DefaultSnapshot, ForeignKeySnapshot, IndexSnapshot, TableSnapshot } from './snapshot-types.js';

/** The SQL families bindery writes migrations for: PostgreSQL, and MySQL (with MariaDB). */
export type MigrationEngine = 'postgres' | 'mysql';

/** One change of a column, as a statement read back says it. */
export type ColumnChange =
  | { readonly kind: 'type'; readonly type: ColumnTypeText }
  /** The default of a `SET DEFAULT`, read as a value of the column's type (its text reads differently by type). */
  | { readonly kind: 'setDefault'; readonly read: (type: ColumnTypeText) => DefaultSnapshot | undefined; readonly text: string }
  | { readonly kind: 'dropDefault' | 'dropIdentity' | 'addIdentity' | 'setNotNull' | 'dropNotNull' };

/** What one statement of a migration does to the tables, as {@link MigrationDialect.readStatement} reads it. */
export type ReplayStep =
  | { readonly kind: 'createTable'; readonly table: string; readonly columns: readonly (readonly [string, ColumnSnapshot])[] }
  | { readonly kind: 'dropTable'; readonly table: string }
  | { readonly kind: 'addColumn'; readonly table: string; readonly column: string; readonly definition: ColumnSnapshot }
  | { readonly kind: 'dropColumn'; readonly table: string; readonly column: string }
  | { readonly kind: 'alterColumn'; readonly table: string; readonly column: string; readonly change: ColumnChange }
  /** A foreign key or an enum's CHECK constraint, by name. */
  | { readonly kind: 'dropConstraint'; readonly table: string; readonly name: string }
  | {
      readonly kind: 'addCheck';
      readonly table: string;
      readonly name: string;
      readonly column: string;
      readonly values: readonly string[];
      /** The column's type as an enum, where the engine's DDL does not say it (MySQL's `VARCHAR(255)` of an enum is a `string`). */
      readonly type?: ColumnTypeText;
    }
  | { readonly kind: 'renameTable'; readonly from: string; readonly to: string }
  | { readonly kind: 'renameColumn'; readonly table: string; readonly from: string; readonly to: string }
  | { readonly kind: 'renameConstraint'; readonly table: string; readonly from: string; readonly to: string }
  /** `primaryKey`: the rename may be of a primary key's own index, which the tables do not record. */
  | { readonly kind: 'renameIndex'; readonly from: string; readonly to: string; readonly primaryKey: boolean }
  | { readonly kind: 'addForeignKey'; readonly table: string; readonly name: string; readonly foreignKey: ForeignKeySnapshot }
  | { readonly kind: 'createIndex'; readonly table: string; readonly name: string; readonly index: IndexSnapshot }
  | { readonly kind: 'dropIndex'; readonly name: string }
  /** A column redefined whole (MySQL's `MODIFY COLUMN`): its type, nullability, default and identity; an enum's values stay with its CHECK. */
  | { readonly kind: 'modifyColumn'; readonly table: string; readonly column: string; readonly definition: ColumnSnapshot }
  /** A data statement or a guard: no table changes shape. */
  | { readonly kind: 'data' };

/** A statement {@link MigrationDialect.readStatement} cannot read, and why. */
export interface UnreadableStatement {
  readonly unreadable: string;
}

/** The DDL of one engine, for the migration emitter (see the module's comment). */
export interface MigrationDialect {
  /** The engine whose DDL this is (its SQL family: `mysql` for MySQL and MariaDB). */
  readonly engine: MigrationEngine;

  /** The engine's SQL type of a column type (its name for `string(200)`, `timestamp`…): what columns are compared by, and what messages name. */
  columnType(type: ColumnTypeText): string;
  /** The engine's `DEFAULT` expression of a default, for a column of `type`: what defaults are compared by. */
  defaultValue(value: DefaultSnapshot, type: ColumnTypeText): string;

  /** `CREATE TABLE` with every column (type, identity, NOT NULL, DEFAULT, PRIMARY KEY); indexes and foreign keys are separate statements. */
  createTable(table: string, t: TableSnapshot): string;
  dropTable(table: string): string;
  renameTable(from: string, to: string): string;
  /**
   * After {@link renameTable}: the statement renaming what the engine named
   * after the table for its primary key, or `undefined` when nothing is.
   */
  renamePrimaryKey(from: string, to: string): string | undefined;

  /** Add a column to a table with rows (never as its primary key). */
  addColumn(table: string, column: string, c: ColumnSnapshot): string;
  dropColumn(table: string, column: string): string;
  renameColumn(table: string, from: string, to: string): string;
  dropIdentity(table: string, column: string, c: ColumnSnapshot): string;
  addIdentity(table: string, column: string, c: ColumnSnapshot): string;
  dropDefault(table: string, column: string): string;
  /** Set the default of `c` (which has one). */
  setDefault(table: string, column: string, c: ColumnSnapshot): string;
  /** Change the column's type from `from`'s to `to`'s, converting the values. */
  changeType(table: string, column: string, from: ColumnSnapshot, to: ColumnSnapshot): string;
  /**
   * The data check before a narrowing {@link changeType}: it stops the
   * migration, changing nothing, when a value would not come back unchanged
   * (or cannot be converted), naming the table, column and rows.
   */
  typeChangeGuard(table: string, column: string, from: ColumnSnapshot, to: ColumnSnapshot): string;
  /** Set the column's rows holding NULL to the default of `c` (before NOT NULL). */
  fillNulls(table: string, column: string, c: ColumnSnapshot): string;
  setNotNull(table: string, column: string, c: ColumnSnapshot): string;
  dropNotNull(table: string, column: string, c: ColumnSnapshot): string;
  /**
   * An engine that redefines a column whole (MySQL's `MODIFY COLUMN`, which
   * needs the full definition) has this: the diff then writes one statement
   * per changed column — `c`, its type, NOT NULL, default and identity —
   * after its guards and {@link fillNulls}, instead of one per attribute.
   */
  modifyColumn?(table: string, column: string, c: ColumnSnapshot): string;

  /** The CHECK constraint of an enum column (`checkName`): only its values (every item, for a list), NULL passing. */
  addEnumCheck(table: string, column: string, c: ColumnSnapshot): string;
  dropEnumCheck(table: string, column: string): string;
  /** Rename an enum's CHECK constraint (after its table or column was renamed); `column` and `c` are the column's as it is now. */
  renameEnumCheck(table: string, from: string, to: string, column: string, c: ColumnSnapshot): string;
  /**
   * The data check before an enum's CHECK constraint is added to a table
   * with rows: it stops the migration, changing nothing, naming the table,
   * column, count and allowed values when rows hold another value.
   */
  enumGuard(table: string, column: string, c: ColumnSnapshot): string;

  /**
   * `CREATE [UNIQUE] INDEX`; a `live` index is unique among the rows whose
   * `deleted_at` is null (an engine without partial indexes emulates it: MySQL
   * indexes a generated column). `t` is the table as it is then.
   */
  createIndex(table: string, name: string, i: IndexSnapshot, t: TableSnapshot): string;
  /** Drop the index `i` (and what its emulation added). */
  dropIndex(table: string, name: string, i: IndexSnapshot): string;
  renameIndex(table: string, from: string, to: string): string;

  addForeignKey(table: string, name: string, fk: ForeignKeySnapshot): string;
  dropForeignKey(table: string, name: string): string;
  /** Rename a foreign key (`fk` is its definition). */
  renameForeignKey(table: string, from: string, to: string, fk: ForeignKeySnapshot): string;

  /**
   * Move the audit history of the renamed table `from` to `to`: the
   * `subject_type` of the rows of `auditTables`, each where it exists.
   */
  moveAuditSubjects(from: string, to: string, auditTables: readonly string[]): string;

  /** The statements of a migration file, without comments, each ending with its `;`. */
  statementsOf(sql: string): string[];
  /** What `statement` (one this dialect writes) does to the tables; unreadable for a statement it does not write (a hand-written migration). */
  readStatement(statement: string): ReplayStep | UnreadableStatement;
}

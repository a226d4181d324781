/**
 * Where the next migration starts from: the snapshot on disk, checked
 * against the migration files it follows, or — with `--rebuild-snapshot` —
 * the tables those files build (docs/database.md "When a migration fails").
 */
import type { Diagnostics, SourcePosition } from '../../diagnostics.js';
import { Diagnostics as Collector } from '../../diagnostics.js';
import { positionOf, type DataPath } from '../../load/node-position.js';
import { parseSchemaFile } from '../../load/schema-file.js';
import type { MigrationDialect } from './dialect.js';
import { MIGRATIONS_DIR, SNAPSHOT_FILE } from './files.js';
import { replayMigrations } from './replay.js';
import { parseSnapshot, SNAPSHOT_VERSION, type ColumnSnapshot, type Snapshot, type TableSnapshot } from './snapshot.js';

const REBUILD = 'bindery generate --rebuild-snapshot';

/** What is on disk already. */
export interface MigrationHistory {
  /** The output folder relative to the root, e.g. `generated` (for diagnostics). */
  readonly outDir: string;
  /** Text of the existing snapshot, or undefined when there is none. */
  readonly snapshotText: string | undefined;
  /** The folder of the migrations inside the output folder (default `migrations`; `migrations/postgres` for a project of two engines). */
  readonly dir?: string;
  /** Where the next migration is written, when not in `dir` (the history moving into `migrations/postgres`). */
  readonly writeDir?: string;
  /** Names of the existing migration files without `.sql`, e.g. `0001_create_notes`. */
  readonly migrations: readonly string[];
  /** Text of an existing migration file by name (without `.sql`); without it the snapshot is not checked against the migrations. */
  readonly read?: (name: string) => string | undefined;
  /**
   * Re-derive the snapshot from the migration files instead of reading it
   * (`bindery generate --rebuild-snapshot`): after removing a migration that
   * failed and was never applied, or to replace a hand-edited snapshot.
   */
  readonly rebuildSnapshot?: boolean;
  /**
   * The draft migration (docs/generator.md "Draft migrations"), by name: one
   * `make:resource` wrote and nothing here has applied. When it is the newest
   * migration and the one the snapshot follows, the schema's changes are
   * folded into it rather than written as a migration after it.
   */
  readonly draft?: string;
}

/** Where a fold into the draft starts from: the tables before the draft, and the draft's number. */
export interface DraftBase {
  /** The snapshot as of the migration before the draft (built from the migration files). */
  readonly snapshot: Snapshot;
  /** The draft's number (`2` for `0002_create_blog_posts`): the folded migration keeps it. */
  readonly number: number;
}

/**
 * The start of a fold into `history.draft` when there is one to fold into:
 * the draft is the newest migration file and the snapshot's `lastMigration`,
 * and the migrations before it are all bindery's (they can be read back).
 * Undefined otherwise (the next migration is appended as usual).
 */
export function draftBase(dialect: MigrationDialect, history: MigrationHistory, snapshot: Snapshot): DraftBase | undefined {
  const draft = history.draft;
  if (draft === undefined || history.read === undefined || history.rebuildSnapshot || snapshot.lastMigration !== draft) return undefined;
  const names = sortedNames(history.migrations);
  if (names[names.length - 1] !== draft) return undefined;
  const before = names.slice(0, -1);
  const replayed = replayMigrations(
    dialect,
    before.map((name) => ({ name, sql: history.read!(name) ?? '' })),
  );
  if (!replayed.ok) return undefined;
  const number = Number(/^(\d+)_/.exec(draft)?.[1] ?? Number.NaN);
  if (!Number.isInteger(number)) return undefined;
  return { snapshot: { version: SNAPSHOT_VERSION, lastMigration: before[before.length - 1] ?? null, tables: replayed.tables }, number };
}

/**
 * The snapshot on disk, after checking that it follows the migration files:
 * present when migrations exist, naming an existing last migration, and —
 * when every migration is one bindery wrote — equal to the tables those
 * migrations build, as `dialect` reads them (so a hand edit is reported
 * against the snapshot, not blamed on the schema). Problems go to
 * `diagnostics`; undefined then.
 */
export function readSnapshot(dialect: MigrationDialect, history: MigrationHistory, diagnostics: Diagnostics): Snapshot | undefined {
  const file = `${history.outDir}/${SNAPSHOT_FILE}`;
  const at: SourcePosition = { file, line: 1, column: 1 };
  if (history.snapshotText === undefined) {
    if (history.migrations.length === 0) return { version: SNAPSHOT_VERSION, lastMigration: null, tables: {} };
    diagnostics.add(
      at,
      '',
      `the snapshot is missing but ${history.outDir}/${history.dir ?? MIGRATIONS_DIR}/ holds ${history.migrations.length} migration(s); restore ${SNAPSHOT_FILE} from version control, or rebuild it from the migrations with "${REBUILD}"`,
      'BINDERY_MIGRATION_UNSUPPORTED',
    );
    return undefined;
  }
  const parsed = parseSnapshot(history.snapshotText);
  if (!parsed.ok) {
    diagnostics.add(
      at,
      '',
      `the snapshot is ${parsed.message}; restore it from version control, or rebuild it from the migrations with "${REBUILD}"`,
      'BINDERY_MIGRATION_UNSUPPORTED',
    );
    return undefined;
  }
  const snapshot = parsed.snapshot;
  const last = snapshot.lastMigration;
  if (last !== null && !history.migrations.includes(last)) {
    diagnostics.add(
      snapshotPosition(history, ['lastMigration']),
      'lastMigration',
      `the snapshot follows migration ${last}, but ${history.outDir}/${history.dir ?? MIGRATIONS_DIR}/${last}.sql is missing; restore it from version control — or, if you removed it on purpose (it failed at "bindery migrate" and was applied nowhere), rebuild the snapshot from the migrations left with "${REBUILD}"`,
      'BINDERY_MIGRATION_UNSUPPORTED',
    );
    return undefined;
  }
  if (history.read === undefined) return snapshot;
  const followed = sortedNames(history.migrations).filter((m) => last !== null && m <= last);
  const replayed = replayMigrations(
    dialect,
    followed.map((name) => ({ name, sql: history.read!(name) ?? '' })),
  );
  // A migration bindery did not write (hand-written SQL) leaves the tables unknown: nothing to compare with.
  if (!replayed.ok) return snapshot;
  const difference = firstDifference(dialect, snapshot.tables, replayed.tables);
  if (difference !== undefined) {
    const upTo = last === null ? 'no migration' : `the migrations up to ${last}`;
    diagnostics.add(
      snapshotPosition(history, ['tables', ...difference.path]),
      ['tables', ...difference.path].join('.'),
      `the snapshot has ${difference.snapshot}, but ${upTo} build ${difference.migrations}: ${SNAPSHOT_FILE} was edited by hand (it must match ${history.outDir}/${history.dir ?? MIGRATIONS_DIR}/). Restore it from version control, or rebuild it from the migrations with "${REBUILD}"`,
      'BINDERY_MIGRATION_UNSUPPORTED',
    );
    return undefined;
  }
  return snapshot;
}

/**
 * The snapshot re-derived from every migration file on disk, in name order
 * (`lastMigration` is the last of them). A migration bindery did not write
 * cannot be read back: reported at that file; undefined then.
 */
export function rebuildSnapshot(dialect: MigrationDialect, history: MigrationHistory, diagnostics: Diagnostics): Snapshot | undefined {
  const names = sortedNames(history.migrations);
  const replayed = replayMigrations(
    dialect,
    names.map((name) => ({ name, sql: history.read?.(name) ?? '' })),
  );
  if (!replayed.ok) {
    diagnostics.add(
      { file: `${history.outDir}/${history.dir ?? MIGRATIONS_DIR}/${replayed.migration}.sql`, line: 1, column: 1 },
      '',
      `cannot rebuild the snapshot from the statement "${replayed.statement}": ${replayed.reason}; restore ${SNAPSHOT_FILE} from version control instead`,
      'BINDERY_MIGRATION_UNSUPPORTED',
    );
    return undefined;
  }
  return { version: SNAPSHOT_VERSION, lastMigration: names[names.length - 1] ?? null, tables: replayed.tables };
}

function sortedNames(names: readonly string[]): string[] {
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

interface Difference {
  /** Path under `tables`. */
  readonly path: DataPath;
  /** What the snapshot holds there, and what the migrations build, as words. */
  readonly snapshot: string;
  readonly migrations: string;
}

/**
 * The first difference between two sets of tables (column order does not
 * count), or undefined. Column types and defaults are compared as `dialect`
 * writes them: the migrations say `text` for both `string` and `text`.
 */
export function firstDifference(
  dialect: MigrationDialect,
  snapshot: Readonly<Record<string, TableSnapshot>>,
  built: Readonly<Record<string, TableSnapshot>>,
): Difference | undefined {
  for (const table of union(snapshot, built)) {
    const a = snapshot[table];
    const b = built[table];
    if (!a || !b)
      return { path: [table], snapshot: a ? `the table ${table}` : `no table ${table}`, migrations: b ? 'it' : 'no such table' };
    for (const section of ['columns', 'indexes', 'foreignKeys'] as const) {
      const x = (a[section] ?? {}) as Record<string, unknown>;
      const y = (b[section] ?? {}) as Record<string, unknown>;
      const noun = section === 'columns' ? 'column' : section === 'indexes' ? 'index' : 'foreign key';
      for (const key of union(x, y)) {
        if (x[key] === undefined || y[key] === undefined) {
          const named = `${noun} ${key} in table ${table}`;
          return {
            path: [table, section, key],
            snapshot: x[key] ? `the ${named}` : `no ${named}`,
            migrations: y[key] ? 'it' : `no such ${noun}`,
          };
        }
        const xs = x[key] as Record<string, unknown>;
        const ys = y[key] as Record<string, unknown>;
        const [xe, ye] = section === 'columns' ? [onEngine(dialect, xs), onEngine(dialect, ys)] : [xs, ys];
        for (const attribute of union(xs, ys)) {
          if (canonical(xe[attribute]) !== canonical(ye[attribute])) {
            return { path: [table, section, key, attribute], snapshot: show(xs[attribute]), migrations: show(ys[attribute]) };
          }
        }
      }
    }
  }
  return undefined;
}

/** A column's attributes with its type and default as the engine writes them. */
function onEngine(dialect: MigrationDialect, column: Record<string, unknown>): Record<string, unknown> {
  const c = column as unknown as ColumnSnapshot;
  return {
    ...column,
    type: dialect.columnType(c.type),
    ...(c.default !== undefined ? { default: dialect.defaultValue(c.default, c.type) } : {}),
  };
}

function union(a: object, b: object): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}

function canonical(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}

function show(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/** Position of the node at `path` in the snapshot text (1:1 when it cannot be found). */
function snapshotPosition(history: MigrationHistory, path: DataPath): SourcePosition {
  const file = `${history.outDir}/${SNAPSHOT_FILE}`;
  const parsed = parseSchemaFile(file, history.snapshotText ?? '', new Collector());
  return parsed.data === undefined ? { file, line: 1, column: 1 } : positionOf(parsed, path, 'key');
}

/**
 * Migrations: compare the model's tables with `schema.snapshot.json` and,
 * when they differ, write the next numbered `migrations/NNNN_<slug>.sql` — in
 * the statements of the project's migration dialect (`dialects/index.ts`) —
 * and the updated snapshot. Existing migration files are never rewritten — but
 * the draft migration, which no database has yet: the changes are folded
 * into it (docs/generator.md "Draft migrations"). A
 * destructive change is refused unless `allowDestructive` is set (then the
 * migration starts with a comment saying what it loses); an unsupported one
 * is always refused (each with a diagnostic saying what to do).
 */
import type { Diagnostics, SourcePosition } from '../../diagnostics.js';
import type { Model } from '../../model/model.js';
import type { EmitContext } from '../context.js';
import type { GeneratedFile } from '../../write/generated-file.js';
import { Diagnostics as Collector } from '../../diagnostics.js';
import type { MigrationDialect, MigrationEngine } from './dialect.js';
import { migrationDialect } from './dialects/index.js';
import { checkMysqlSchema } from './dialects/mysql/schema-checks.js';
import { replayMigrations } from './replay.js';
import { diffTables, type RefusedChange } from './diff.js';
import { MIGRATIONS_DIR, SNAPSHOT_FILE } from './files.js';
import { draftBase, firstDifference, rebuildSnapshot, readSnapshot, type MigrationHistory } from './history.js';
import { applyRenames } from './renames.js';
import { printSnapshot, SNAPSHOT_VERSION, tablesOf, type TableSnapshot } from './snapshot.js';

export type { MigrationHistory };

export { MIGRATIONS_DIR, SNAPSHOT_FILE };

/** Another engine's migrations (`bindery.databases`), written beside the history of record under the same names. */
export interface RenderedFolder {
  readonly engine: MigrationEngine;
  /** The folder inside the output folder, e.g. `migrations/mysql`. */
  readonly dir: string;
  /** Names (without `.sql`) of its files on disk. */
  readonly migrations: readonly string[];
  /** Text of one of its files by name (without `.sql`); without it the files are not checked against the snapshot. */
  readonly read?: (name: string) => string | undefined;
}

/** What {@link emitMigrations} makes. */
export interface MigrationOutput {
  /** The snapshot file and, when the tables changed, the new (or folded) migration file of each engine. */
  readonly files: GeneratedFile[];
  /** The changes were folded into `history.draft`: its file is replaced by the migration in `files`, or removed when there is none. */
  readonly folded: boolean;
}

/**
 * The snapshot file and, when the tables changed, the new migration file
 * (the draft, folded, when `history.draft` can take the changes) in
 * `history`'s engine (`engine`, default PostgreSQL) — and, for each of
 * `rendered`, the same migration in its engine, plus the files it lacks of
 * the history: each written from the tables before and after that
 * migration (a rename there is a drop and a create: no database of that
 * engine has the tables before it).
 * Refusals and a broken history go to `diagnostics` (the caller writes nothing then).
 */
export function emitMigrations(
  ctx: EmitContext,
  history: MigrationHistory,
  allowDestructive: boolean,
  diagnostics: Diagnostics,
  engine: MigrationEngine = 'postgres',
  rendered: readonly RenderedFolder[] = [],
): MigrationOutput {
  const files = migrationFiles(ctx, history, allowDestructive, diagnostics, engine, rendered);
  return { files: files?.files ?? [], folded: files?.folded ?? false };
}

function migrationFiles(
  ctx: EmitContext,
  history: MigrationHistory,
  allowDestructive: boolean,
  diagnostics: Diagnostics,
  engine: MigrationEngine,
  rendered: readonly RenderedFolder[],
): MigrationOutput | undefined {
  const dialect = migrationDialect(engine);
  const dir = history.dir ?? MIGRATIONS_DIR;
  if (rendered.some((r) => r.engine === 'mysql') || engine === 'mysql') {
    if (!checkMysqlSchema(ctx.model, diagnostics)) return undefined;
  }
  const current = history.rebuildSnapshot ? rebuildSnapshot(dialect, history, diagnostics) : readSnapshot(dialect, history, diagnostics);
  if (current === undefined) return undefined;
  // Folding into the draft: the changes since the migration before it, under its number.
  const draft = draftBase(dialect, history, current);
  const previous = draft?.snapshot ?? current;

  const tables = tablesOf(ctx.model);
  const renamed = applyRenames(dialect, previous.tables, tables, ctx.model, diagnostics);
  if (renamed === undefined) return undefined;
  const diff = diffTables(dialect, renamed.tables, tables, allowDestructive);
  for (const refused of diff.refused) report(refused, ctx.model, history, diagnostics);
  if (diff.refused.length > 0) return undefined;

  const files: GeneratedFile[] = [];
  let lastMigration = previous.lastMigration;
  const statements = [...renamed.statements, ...diff.statements];
  const changes = [...renamed.changes, ...diff.changes];
  const header = `-- ${ctx.header}\n\n`;
  if (statements.length > 0) {
    const number = draft?.number ?? Math.max(0, ...history.migrations.map((m) => Number(/^(\d+)_/.exec(m)?.[1] ?? 0))) + 1;
    const words = changes.slice(0, 3).join('_') + (changes.length > 3 ? '_and_more' : '');
    lastMigration = `${String(number).padStart(4, '0')}_${words.slice(0, 60).replace(/_+$/, '')}`;
    files.push({
      path: `${history.writeDir ?? dir}/${lastMigration}.sql`,
      content: `${header}${lossComment(diff.losses)}${statements.join('\n\n')}\n`,
    });
  }
  for (const folder of rendered) {
    const other = migrationDialect(folder.engine);
    // The files of the history this engine lacks (the draft's is written again below, when folded).
    const missing = history.migrations.filter((m) => !folder.migrations.includes(m) && m !== (draft ? history.draft : undefined));
    const backfilled = missing.length > 0 ? backfill(dialect, other, history, missing, diagnostics) : [];
    if (backfilled === undefined) return undefined;
    if (missing.length === 0 && !followsHistory(other, folder, history, previous, diagnostics)) return undefined;
    for (const [name, sql] of backfilled) files.push({ path: `${folder.dir}/${name}.sql`, content: `${header}${sql}` });
    if (statements.length > 0) {
      const again = applyRenames(other, previous.tables, tables, ctx.model, new Collector())!;
      const otherDiff = diffTables(other, again.tables, tables, true);
      const sql = [...again.statements, ...otherDiff.statements];
      files.push({ path: `${folder.dir}/${lastMigration}.sql`, content: `${header}${lossComment(otherDiff.losses)}${sql.join('\n\n')}\n` });
    }
  }
  files.push({ path: SNAPSHOT_FILE, content: printSnapshot(ctx.header, { version: SNAPSHOT_VERSION, lastMigration, tables }) });
  return { files, folded: draft !== undefined };
}

/**
 * Whether the files of `folder` up to the snapshot's last migration build
 * the snapshot's tables, as `other` reads them (a file it cannot read — one
 * written by hand — is not compared). A difference is reported at that
 * folder: its files were edited, or written for other tables.
 */
function followsHistory(
  other: MigrationDialect,
  folder: RenderedFolder,
  history: MigrationHistory,
  previous: { readonly lastMigration: string | null; readonly tables: Readonly<Record<string, TableSnapshot>> },
  diagnostics: Diagnostics,
): boolean {
  const last = previous.lastMigration;
  const names = [...folder.migrations].filter((m) => last !== null && m <= last && history.migrations.includes(m)).sort();
  const read = folder.read;
  if (read === undefined) return true;
  const replayed = replayMigrations(
    other,
    names.map((name) => ({ name, sql: read(name) ?? '' })),
  );
  if (!replayed.ok) return true;
  const difference = firstDifference(other, previous.tables, replayed.tables);
  if (difference === undefined) return true;
  const file = `${history.outDir}/${folder.dir}/${names[names.length - 1] ?? ''}.sql`;
  diagnostics.add(
    { file, line: 1, column: 1 },
    '',
    `the ${engineTitle(other.engine)} migrations in ${history.outDir}/${folder.dir}/ build ${difference.migrations} at tables.${difference.path.join('.')}, but the snapshot (and ${history.outDir}/${history.dir ?? MIGRATIONS_DIR}/) has ${difference.snapshot}: a file there was edited by hand. Restore it from version control — or, when no database has applied it, delete it and run "bindery generate" to write it again`,
    'BINDERY_MIGRATION_UNSUPPORTED',
  );
  return false;
}

function engineTitle(engine: MigrationEngine): string {
  return engine === 'mysql' ? 'MySQL' : 'PostgreSQL';
}

/**
 * The migrations `names` of the history (read by `dialect`) in the statements
 * of `other`: each the difference of the tables before and after it.
 * @returns name and text (without the header) of each; undefined when the history cannot be read (reported at the file).
 */
function backfill(
  dialect: MigrationDialect,
  other: MigrationDialect,
  history: MigrationHistory,
  names: readonly string[],
  diagnostics: Diagnostics,
): [string, string][] | undefined {
  const all = [...history.migrations].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: [string, string][] = [];
  for (const name of names) {
    const upTo = all.indexOf(name);
    const replay = (count: number) =>
      replayMigrations(
        dialect,
        all.slice(0, count).map((m) => ({ name: m, sql: history.read?.(m) ?? '' })),
      );
    const before = replay(upTo);
    const after = replay(upTo + 1);
    if (!before.ok || !after.ok) {
      const failed = (!before.ok ? before : after) as Extract<typeof before, { ok: false }>;
      diagnostics.add(
        { file: `${history.outDir}/${history.dir ?? MIGRATIONS_DIR}/${failed.migration}.sql`, line: 1, column: 1 },
        '',
        `cannot write the ${engineTitle(other.engine)} version of migration ${name}: the statement "${failed.statement}" is not one bindery writes (${failed.reason}); write that engine's ${name}.sql by hand`,
        'BINDERY_MIGRATION_UNSUPPORTED',
      );
      return undefined;
    }
    const diff = diffTables(other, before.tables, after.tables, true);
    out.push([name, diff.statements.length > 0 ? `${diff.statements.join('\n\n')}\n` : '']);
  }
  return out;
}

function report(refused: RefusedChange, model: Model, history: MigrationHistory, diagnostics: Diagnostics): void {
  const resource = model.resources.find((r) => r.table === refused.table);
  const field = resource?.fields.find((f) => f.name === refused.column);
  const at = resource ? (field?.origin ?? resource.origin) : tablePosition(history, refused.table);
  const path = resource
    ? field
      ? `resources.${resource.name}.fields.${field.name}`
      : `resources.${resource.name}`
    : `tables.${refused.table}`;
  const change = resource ? refused.message : `${refused.message} (its resource is gone from the schema)`;
  if (refused.kind === 'destructive') diagnostics.addFrom(at, path, 'BINDERY_MIGRATION_DESTRUCTIVE', { change });
  else diagnostics.add(at, path, change, 'BINDERY_MIGRATION_UNSUPPORTED');
}

/** Position of a table's key in the snapshot text (for tables no longer in the schema). */
function tablePosition(history: MigrationHistory, table: string): SourcePosition {
  const lines = (history.snapshotText ?? '').split('\n');
  // Tables are the members of "tables", indented by four spaces in the printed snapshot.
  const line = lines.findIndex((l) => l.startsWith(`    "${table}": {`));
  return { file: `${history.outDir}/${SNAPSHOT_FILE}`, line: line === -1 ? 1 : line + 1, column: line === -1 ? 1 : 5 };
}

/** The first line of the comment a destructive migration starts with (`bindery generate` prints the block). */
export const LOSS_COMMENT = '-- DESTRUCTIVE (written with --allow-destructive): this migration';

/** The comment block naming what a destructive migration loses, or `''`. */
function lossComment(losses: readonly string[]): string {
  if (losses.length === 0) return '';
  return `${LOSS_COMMENT}\n${losses.map((l) => `--   - ${l}\n`).join('')}\n`;
}

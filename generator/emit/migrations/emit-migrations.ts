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
import { migrationDialect } from './dialects/index.js';
import { diffTables, type RefusedChange } from './diff.js';
import { MIGRATIONS_DIR, SNAPSHOT_FILE } from './files.js';
import { draftBase, rebuildSnapshot, readSnapshot, type MigrationHistory } from './history.js';
import { applyRenames } from './renames.js';
import { printSnapshot, SNAPSHOT_VERSION, tablesOf } from './snapshot.js';

export type { MigrationHistory };

export { MIGRATIONS_DIR, SNAPSHOT_FILE };

/** What {@link emitMigrations} makes. */
export interface MigrationOutput {
  /** The snapshot file and, when the tables changed, the new (or folded) migration file. */
  readonly files: GeneratedFile[];
  /** The changes were folded into `history.draft`: its file is replaced by the migration in `files`, or removed when there is none. */
  readonly folded: boolean;
}

/**
 * The snapshot file and, when the tables changed, the new migration file
 * (the draft, folded, when `history.draft` can take the changes).
 * Refusals and a broken history go to `diagnostics` (the caller writes nothing then).
 */
export function emitMigrations(
  ctx: EmitContext,
  history: MigrationHistory,
  allowDestructive: boolean,
  diagnostics: Diagnostics,
): MigrationOutput {
  const files = migrationFiles(ctx, history, allowDestructive, diagnostics);
  return { files: files?.files ?? [], folded: files?.folded ?? false };
}

function migrationFiles(
  ctx: EmitContext,
  history: MigrationHistory,
  allowDestructive: boolean,
  diagnostics: Diagnostics,
): MigrationOutput | undefined {
  const dialect = migrationDialect();
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
  if (statements.length > 0) {
    const number = draft?.number ?? Math.max(0, ...history.migrations.map((m) => Number(/^(\d+)_/.exec(m)?.[1] ?? 0))) + 1;
    const words = changes.slice(0, 3).join('_') + (changes.length > 3 ? '_and_more' : '');
    lastMigration = `${String(number).padStart(4, '0')}_${words.slice(0, 60).replace(/_+$/, '')}`;
    files.push({
      path: `${MIGRATIONS_DIR}/${lastMigration}.sql`,
      content: `-- ${ctx.header}\n\n${lossComment(diff.losses)}${statements.join('\n\n')}\n`,
    });
  }
  files.push({ path: SNAPSHOT_FILE, content: printSnapshot(ctx.header, { version: SNAPSHOT_VERSION, lastMigration, tables }) });
  return { files, folded: draft !== undefined };
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

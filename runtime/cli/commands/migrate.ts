/**
 * `bindery migrate [--status]` (docs/database.md; docs/cli.md, docs/database.md).
 */
import { Command, Option } from 'clipanion';
import { relative, sep } from 'node:path';
import { engineTitle, migrationLabel, type MigrationFile } from '../../db/migrator/migration-set.js';
import type { MigrationStatus } from '../../db/migrator/migrator.js';
import { BinderyCommand } from '../../app/base-command.js';
import { migrationsApplied } from '../migrations-applied.js';
import { DEFAULT_APP_MODULE, loadApp } from '../../app/load-app.js';

/** Options of {@link formatMigrationStatus}. */
export interface MigrationStatusFormat {
  /** Show folders relative to this one (the project's root); default: as they are. */
  readonly root?: string;
}

/** The state of a pending file: `pending`, with its partly applied statements (MySQL, MariaDB) and its last failure. */
function pendingState(status: MigrationStatus, file: MigrationFile): string {
  const label = migrationLabel(file);
  const f = status.failed.find((x) => migrationLabel(x) === label);
  const p = status.partial.find((x) => migrationLabel(x) === label);
  const failure = f
    ? `FAILED ${f.failedAt.toISOString()}${f.changedSince ? ' (the file changed since)' : ''}: ${f.error.split('\n')[0]}`
    : undefined;
  if (p === undefined) return failure ? `pending, ${failure}` : 'pending';
  const done = `${p.statementsDone} of ${p.statements} statements applied`;
  if (p.edited) return `pending, ${done} ${p.since.toISOString()}, EDITED since they ran (an error: restore them)`;
  if (failure) return `pending, ${done}, ${failure}`;
  return `pending, ${done} ${p.since.toISOString()} (the run stopped there; the next resumes at statement ${p.statementsDone + 1})`;
}

/** The lines naming the engine folder each set is read from (none when every set is read from its own folder). */
function folderLines(status: MigrationStatus, root: string | undefined): string {
  const perEngine = status.folders.filter((f) => f.engineFolder !== undefined);
  if (perEngine.length === 0) return '';
  const width = Math.max(...perEngine.map((f) => f.source.length));
  const shown = (dir: string) => {
    const path = root === undefined ? dir : relative(root, dir) || '.';
    return `${path.split(sep).join('/')}/`;
  };
  return `Folders read on ${engineTitle(status.engine)}:\n${perEngine.map((f) => `  ${f.source.padEnd(width)}  ${shown(f.dir)}\n`).join('')}`;
}

/** The text of `migrate --status`: the engine folders read (`postgres/`, `mysql/`), one line per migration, then a summary. */
export function formatMigrationStatus(status: MigrationStatus, options: MigrationStatusFormat = {}): string {
  const rows: [string, string][] = [];
  const changed = new Set(status.changed.map(migrationLabel));
  for (const a of status.applied) {
    const label = migrationLabel(a);
    const state = changed.has(label) ? 'CHANGED since applied' : status.missing.includes(a) ? 'applied, file missing' : 'applied';
    rows.push([label, `${state} ${a.appliedAt.toISOString()}`]);
  }
  for (const p of status.pending) rows.push([migrationLabel(p), pendingState(status, p)]);
  const width = Math.max(0, ...rows.map(([l]) => l.length));
  const lines = rows.map(([l, s]) => `${l.padEnd(width)}  ${s}\n`).join('');
  const edited = status.partial.filter((p) => p.edited).length;
  const resumable = status.partial.length - edited;
  const summary =
    `${status.applied.length} applied, ${status.pending.length} pending` +
    (status.changed.length ? `, ${status.changed.length} changed since applied (an error: restore them)` : '') +
    (status.missing.length ? `, ${status.missing.length} applied with the file missing` : '') +
    (status.failed.length
      ? `, ${status.failed.length} failed at the last run (fix the data and migrate again, or see docs/database.md "When a migration fails")`
      : '') +
    (resumable ? `, ${resumable} partly applied (the next run resumes ${resumable === 1 ? 'it' : 'them'})` : '') +
    (edited ? `, ${edited} with applied statements edited (an error: restore them)` : '');
  return `${folderLines(status, options.root)}${lines}${summary}.\n`;
}

/** Whether `migrate --status` exits 1: an applied file changed, or the applied statements of a partly applied one. */
export function statusIsBroken(status: MigrationStatus): boolean {
  return status.changed.length > 0 || status.partial.some((p) => p.edited);
}

/** `bindery migrate [--status] [--app <file>]`: applies pending migrations with progress lines, or lists them (exit 1 when an applied file changed). */
export class MigrateCommand extends BinderyCommand {
  static override paths = [['migrate']];
  static override usage = Command.Usage({
    category: 'Database',
    description: "Apply pending migrations (the app's, then each setup step's and plugin's).",
    details: `
      On PostgreSQL each migration file runs in its own transaction together with its record in \`bindery_migrations\`, and a failing file is rolled back. On MySQL and MariaDB a file runs statement by statement (each ends with \`;\` at the end of a line): a failing statement leaves the ones before it applied, and the next run resumes after them. A named lock makes concurrent runs wait for each other; a failure exits 1. Uses \`DATABASE_URL\` (postgres://, mysql:// or mariadb://), or the embedded PostgreSQL when it is unset.

      With \`--status\`, nothing is applied: the engine folder each set is read from (\`postgres/\`, \`mysql/\`; none for a set read from its own folder), then every migration, listed as applied, pending (with the statements a partly applied file has applied, and the error of its last failed run, if it failed), or changed since applied (which exits 1, as do edited statements of a partly applied file). docs/database.md "When a migration fails" says how to go on after a failure.
    `,
    examples: [
      ['Apply', '$0 migrate'],
      ['List', '$0 migrate --status'],
    ],
  });

  status = Option.Boolean('--status', false, { description: 'List applied and pending migrations; apply nothing.' });
  app = Option.String('--app', DEFAULT_APP_MODULE, { description: 'The app module (default app/main.ts).' });

  protected async run(): Promise<number> {
    const env = await this.env();
    const app = await loadApp(this.root, this.app);
    const { openApp } = await import('../../app/open-app.js');
    const { runMigrations } = await import('../../app/run-migrations.js');
    const opened = await openApp(app, env, this.out);
    try {
      if (this.status) {
        const status = await opened.migrator.status();
        this.out(formatMigrationStatus(status, { root: this.root }));
        return statusIsBroken(status) ? 1 : 0;
      }
      await runMigrations(opened.migrator, this.out);
      await migrationsApplied(this.root);
      return 0;
    } finally {
      await opened.close();
    }
  }
}

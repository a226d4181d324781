/**
 * `bindery migrate [--status]` (docs/database.md; docs/cli.md, docs/database.md).
 */
import { Command, Option } from 'clipanion';
import { migrationLabel } from '../../db/migrator/migration-set.js';
import type { MigrationStatus } from '../../db/migrator/migrator.js';
import { BinderyCommand } from '../../app/base-command.js';
import { migrationsApplied } from '../migrations-applied.js';
import { DEFAULT_APP_MODULE, loadApp } from '../../app/load-app.js';

/** The text of `migrate --status`: one line per migration, then a summary. */
export function formatMigrationStatus(status: MigrationStatus): string {
  const rows: [string, string][] = [];
  const changed = new Set(status.changed.map(migrationLabel));
  const pending = new Set(status.pending.map(migrationLabel));
  for (const a of status.applied) {
    const label = migrationLabel(a);
    const state = changed.has(label) ? 'CHANGED since applied' : status.missing.includes(a) ? 'applied, file missing' : 'applied';
    rows.push([label, `${state} ${a.appliedAt.toISOString()}`]);
  }
  const failed = new Map(status.failed.map((f) => [migrationLabel(f), f]));
  for (const p of status.pending) {
    if (!pending.has(migrationLabel(p))) continue;
    const f = failed.get(migrationLabel(p));
    rows.push([
      migrationLabel(p),
      f
        ? `pending, FAILED ${f.failedAt.toISOString()}${f.changedSince ? ' (the file changed since)' : ''}: ${f.error.split('\n')[0]}`
        : 'pending',
    ]);
  }
  const width = Math.max(0, ...rows.map(([l]) => l.length));
  const lines = rows.map(([l, s]) => `${l.padEnd(width)}  ${s}\n`).join('');
  const summary =
    `${status.applied.length} applied, ${status.pending.length} pending` +
    (status.changed.length ? `, ${status.changed.length} changed since applied (an error: restore them)` : '') +
    (status.missing.length ? `, ${status.missing.length} applied with the file missing` : '') +
    (status.failed.length
      ? `, ${status.failed.length} failed at the last run (fix the data and migrate again, or see docs/database.md "When a migration fails")`
      : '');
  return `${lines}${summary}.\n`;
}

/** `bindery migrate [--status] [--app <file>]`: applies pending migrations with progress lines, or lists them (exit 1 when an applied file changed). */
export class MigrateCommand extends BinderyCommand {
  static override paths = [['migrate']];
  static override usage = Command.Usage({
    category: 'Database',
    description: "Apply pending migrations (the app's, then each setup step's and plugin's).",
    details: `
      Each migration file runs in its own transaction together with its record in \`bindery_migrations\`; an advisory lock makes concurrent runs wait for each other. A failing file is rolled back and the command exits 1. Uses \`DATABASE_URL\`, or the embedded PostgreSQL when it is unset.

      With \`--status\`, nothing is applied: every migration is listed as applied, pending (with the error of its last failed run, if it failed), or changed since applied (which exits 1). docs/database.md "When a migration fails" says how to go on after a failure.
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
        this.out(formatMigrationStatus(status));
        return status.changed.length > 0 ? 1 : 0;
      }
      await runMigrations(opened.migrator, this.out);
      await migrationsApplied(this.root);
      return 0;
    } finally {
      await opened.close();
    }
  }
}

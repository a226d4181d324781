/**
 * Applying migrations with progress lines (`bindery migrate`, `bindery start`).
 */
import { printMigrationProgress } from '../db/migrator/progress.js';
import type { MigrateResult, Migrator } from '../db/migrator/migrator.js';

/**
 * Apply every pending migration, printing `Applying app/0001_create_notes.sql … done (12 ms)` per file
 * and a summary line.
 * @throws {MigrationChangedError} | {MigrationFailedError} from the migrator.
 */
export async function runMigrations(migrator: Migrator, out: (text: string) => void): Promise<MigrateResult> {
  const result = await migrator.migrate({ onProgress: printMigrationProgress(out) });
  const n = result.applied.length;
  out(n === 0 ? 'Migrations: nothing to apply.\n' : `Migrations: applied ${n}.\n`);
  return result;
}

/**
 * Printing migration progress: `Applying app/0001_create_notes.sql … done (12 ms)`.
 */
import type { MigrationEvent } from './migrator.js';
import { migrationLabel } from './migration-set.js';

/** Something to write text to (a stream, or a collecting function in tests). */
export type TextSink = { write(text: string): unknown } | ((text: string) => void);

/**
 * A progress callback for `Migrator.migrate` that writes one line per migration.
 * @param out where to write (e.g. `process.stdout`).
 */
export function printMigrationProgress(out: TextSink): (event: MigrationEvent) => void {
  const write =
    typeof out === 'function'
      ? out
      : (text: string) => {
          out.write(text);
        };
  return (event) => {
    if (event.kind === 'waiting') write('Waiting for another instance to finish migrating …\n');
    else if (event.kind === 'applying') write(`Applying ${migrationLabel(event.migration)} … `);
    else write(`done (${event.ms} ms)\n`);
  };
}

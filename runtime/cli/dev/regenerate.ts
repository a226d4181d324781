/**
 * Regenerating from `schema/` in the `bindery dev` process (docs/cli.md
 * "dev — the development loop"): prints what changed or the diagnostics,
 * and remembers what it wrote, so that the watcher can tell its own file
 * events from edits by others.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The regeneration step of the dev loop. */
export interface DevRegenerator {
  /** Regenerate; print what changed or the diagnostics. @returns whether generated/ changed, or undefined on schema errors. */
  regenerate(): Promise<boolean | undefined>;
  /** Whether `path` (relative to the root) holds exactly what the last regeneration wrote there. */
  wroteItself(path: string): Promise<boolean>;
}

/**
 * The regenerator of a project (the generator is imported here: ts-morph is a development tool).
 * @param options.root the project folder; `out`/`err` print progress and diagnostics.
 */
export async function devRegenerator(options: {
  readonly root: string;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}): Promise<DevRegenerator> {
  const { root, out, err } = options;
  const { generate, formatDiagnostic } = await import('../../../generator/index.js');
  /** Content hashes of what the last regeneration wrote. */
  const written = new Map<string, string>();
  const hash = (path: string) =>
    readFile(join(root, path)).then(
      (b) => createHash('sha1').update(b).digest('hex'),
      () => 'missing',
    );
  return {
    async regenerate() {
      const result = await generate({ root });
      if (!result.ok) {
        for (const d of result.diagnostics) err(`${formatDiagnostic(d)}\n`);
        const n = result.diagnostics.length;
        err(`${n} schema error${n === 1 ? '' : 's'}; generated/ unchanged, still serving the last good build.\n`);
        if (result.diagnostics.some((d) => /allow-destructive/.test(d.message))) {
          err(
            'To apply a destructive change, run "bindery generate --allow-destructive" (it writes the migration); dev then restarts and applies it.\n',
          );
        }
        return undefined;
      }
      if (result.changed.length === 0) return false;
      for (const path of result.changed) written.set(path, await hash(path));
      const migrations = result.changed.filter((p) => /\/migrations\/[^/]+\.sql$/.test(p));
      out(
        `Regenerated ${result.changed.length} file${result.changed.length === 1 ? '' : 's'}${migrations.length > 0 ? ` (new migration${migrations.length === 1 ? '' : 's'}: ${migrations.map((m) => m.split('/').pop()).join(', ')}, applied on restart)` : ''}.\n`,
      );
      return true;
    },
    async wroteItself(path) {
      return written.has(path) && written.get(path) === (await hash(path));
    },
  };
}

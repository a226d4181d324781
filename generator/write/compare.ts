/**
 * Comparing the generated files with the output folder: which files are
 * stale, and a readable unified diff of them (`bindery generate --check`).
 */
import { createRequire } from 'node:module';
import type { GeneratedFile } from './generated-file.js';
import type { FileTree } from './disk-tree.js';

/**
 * Files bigger than this (characters, old and new together) get a summary
 * instead of a line diff: jsdiff's cost grows with the product of the
 * sizes in the worst case.
 */
export const DIFF_LIMIT = 400_000;

/** Folder of append-only migrations: files there that were not generated this run are history, not stale. */
const HISTORY = 'migrations/';

/** The outcome of a comparison. */
export interface Comparison {
  /** Files to write (new or different), by path relative to the output folder. */
  readonly write: readonly GeneratedFile[];
  /** Files to remove: on disk, not generated, not migration history. */
  readonly remove: readonly string[];
}

/**
 * Compare the generated files with the tree on disk. Paths are sorted.
 * @param replaceable migration files that are not history (the draft migration, docs/generator.md "Draft migrations"): removed when not generated.
 */
export function compareTree(files: readonly GeneratedFile[], disk: FileTree, replaceable: readonly string[] = []): Comparison {
  const generated = new Set(files.map((f) => f.path));
  const history = (p: string) => p.startsWith(HISTORY) && !replaceable.includes(p);
  return {
    write: files.filter((f) => disk.get(f.path) !== f.content).sort((a, b) => (a.path < b.path ? -1 : 1)),
    remove: [...disk.keys()].filter((p) => !generated.has(p) && !history(p)).sort(),
  };
}

/**
 * A unified diff of every change, old (`a/<outDir>/…`, the disk) to new
 * (`b/<outDir>/…`, what the schema produces); a missing side is `/dev/null`.
 * @param outDir output folder relative to the root, e.g. `generated`.
 */
export function diffText(comparison: Comparison, disk: FileTree, outDir: string): string {
  const patches: string[] = [];
  const changes = [
    ...comparison.write.map((f) => ({ path: f.path, before: disk.get(f.path), after: f.content as string | undefined })),
    ...comparison.remove.map((path) => ({ path, before: disk.get(path), after: undefined })),
  ].sort((a, b) => (a.path < b.path ? -1 : 1));
  for (const { path, before, after } of changes) {
    if ((before?.length ?? 0) + (after?.length ?? 0) > DIFF_LIMIT) {
      patches.push(summary(`${outDir}/${path}`, before, after));
      continue;
    }
    // jsdiff is loaded only here (about 15 ms): a run with nothing stale, or without --check, needs no diff.
    const { createTwoFilesPatch } = createRequire(import.meta.url)('diff') as typeof import('diff');
    const patch = createTwoFilesPatch(
      before === undefined ? '/dev/null' : `a/${outDir}/${path}`,
      after === undefined ? '/dev/null' : `b/${outDir}/${path}`,
      before ?? '',
      after ?? '',
      undefined,
      undefined,
      { context: 3 },
    );
    // Drop the "====" separator line jsdiff puts first; git-style output starts at "---".
    patches.push(patch.replace(/^=+\n/, ''));
  }
  return patches.join('');
}

/** The stand-in for the diff of a large file: sizes and the first line that differs. */
function summary(path: string, before: string | undefined, after: string | undefined): string {
  const old = before?.split('\n') ?? [];
  const now = after?.split('\n') ?? [];
  let line = 0;
  while (line < old.length && line < now.length && old[line] === now[line]) line++;
  const size = (lines: string[], text: string | undefined) => (text === undefined ? 'absent' : `${lines.length} lines`);
  return [
    `--- ${before === undefined ? '/dev/null' : `a/${path}`}`,
    `+++ ${after === undefined ? '/dev/null' : `b/${path}`}`,
    `@@ too large to diff (over ${DIFF_LIMIT} characters): ${size(old, before)} on disk, ${size(now, after)} generated; first difference at line ${line + 1} @@`,
    ...(line < old.length ? [`-${old[line]}`] : []),
    ...(line < now.length ? [`+${now[line]}`] : []),
    '',
  ].join('\n');
}

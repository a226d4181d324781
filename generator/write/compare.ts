/**
 * Comparing the generated files with the output folder: which files are
 * stale, and a readable unified diff of them (`bindery generate --check`).
 */
import { createTwoFilesPatch } from 'diff';
import type { GeneratedFile } from '../emit/context.js';
import type { FileTree } from './disk-tree.js';

/** Folder of append-only migrations: files there that were not generated this run are history, not stale. */
const HISTORY = 'migrations/';

/** The outcome of a comparison. */
export interface Comparison {
  /** Files to write (new or different), by path relative to the output folder. */
  readonly write: readonly GeneratedFile[];
  /** Files to remove: on disk, not generated, not migration history. */
  readonly remove: readonly string[];
}

/** Compare the generated files with the tree on disk. Paths are sorted. */
export function compareTree(files: readonly GeneratedFile[], disk: FileTree): Comparison {
  const generated = new Set(files.map((f) => f.path));
  return {
    write: files.filter((f) => disk.get(f.path) !== f.content).sort((a, b) => (a.path < b.path ? -1 : 1)),
    remove: [...disk.keys()].filter((p) => !generated.has(p) && !p.startsWith(HISTORY)).sort(),
  };
}

/** The tree as it is once `comparison` is applied to `disk`. */
export function applyComparison(disk: FileTree, comparison: Comparison): FileTree {
  const tree = new Map(disk);
  for (const file of comparison.write) tree.set(file.path, file.content);
  for (const path of comparison.remove) tree.delete(path);
  return tree;
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

/**
 * What is under the output folder now: every file's text by relative path.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Files by path relative to the output folder (forward slashes). */
export type FileTree = ReadonlyMap<string, string>;

/**
 * Read every file under `dir` (recursively), skipping dot-files and
 * dot-folders (`.gitkeep`, `.DS_Store`). A missing folder is an empty tree.
 */
export async function readTree(dir: string): Promise<FileTree> {
  const tree = new Map<string, string>();
  for (const path of await listTree(dir)) tree.set(path, await readFile(join(dir, path), 'utf8'));
  return tree;
}

/**
 * The same tree as {@link readTree}, but each file is read (synchronously,
 * as UTF-8) when its text is asked for and not kept: a run holds at most the
 * file it is comparing, not the whole output folder (17 MB of text at 1,000
 * routes). `overlay` replaces the text of some paths (files just written).
 * A file that disappears after listing reads as `''`.
 */
export async function lazyTree(dir: string): Promise<FileTree> {
  return new LazyTree(dir, await listTree(dir), new Map());
}

/** `tree` with `overlay`'s texts in place of (or besides) its own, without `removed`; lazy when `tree` is. */
export function overlayTree(tree: FileTree, overlay: ReadonlyMap<string, string>, removed: readonly string[]): FileTree {
  const gone = new Set(removed);
  const paths = [...new Set([...tree.keys(), ...overlay.keys()])].filter((p) => !gone.has(p)).sort();
  if (tree instanceof LazyTree) return new LazyTree(tree.dir, paths, new Map([...tree.overlay, ...overlay]));
  return new Map(paths.map((p) => [p, overlay.get(p) ?? tree.get(p)!]));
}

/** Relative paths of every file under `dir`, sorted as {@link readTree} walks them. */
async function listTree(dir: string): Promise<string[]> {
  const paths: string[] = [];
  async function walk(abs: string, rel: string): Promise<void> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.')) continue;
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) await walk(join(abs, entry.name), path);
      else if (entry.isFile()) paths.push(path);
    }
  }
  await walk(dir, '');
  return paths;
}

/** A read-only map whose values are read from disk on each access. */
class LazyTree implements ReadonlyMap<string, string> {
  private readonly paths: ReadonlySet<string>;

  constructor(
    readonly dir: string,
    paths: readonly string[],
    readonly overlay: ReadonlyMap<string, string>,
  ) {
    this.paths = new Set(paths);
  }

  get size(): number {
    return this.paths.size;
  }

  has(path: string): boolean {
    return this.paths.has(path);
  }

  get(path: string): string | undefined {
    if (!this.paths.has(path)) return undefined;
    const text = this.overlay.get(path);
    if (text !== undefined) return text;
    try {
      return readFileSync(join(this.dir, path), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
      throw error;
    }
  }

  keys(): MapIterator<string> {
    return this.paths.keys();
  }

  *values(): MapIterator<string> {
    for (const path of this.paths) yield this.get(path)!;
  }

  *entries(): MapIterator<[string, string]> {
    for (const path of this.paths) yield [path, this.get(path)!];
  }

  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.entries();
  }

  forEach(callback: (value: string, key: string, map: ReadonlyMap<string, string>) => void, thisArg?: unknown): void {
    for (const [path, text] of this) callback.call(thisArg, text, path, this);
  }
}

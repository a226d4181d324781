/**
 * What is under the output folder now: every file's text by relative path.
 */
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
  async function walk(abs: string, rel: string): Promise<void> {
    let entries;
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
      else if (entry.isFile()) tree.set(path, await readFile(join(abs, entry.name), 'utf8'));
    }
  }
  await walk(dir, '');
  return tree;
}

/**
 * Writing the generated files: only those whose bytes changed, each through a
 * temporary file renamed into place; then removing files no longer generated.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Comparison } from './compare.js';

/**
 * Apply a comparison to the output folder `dir`. Call it only once every file
 * has been computed, so an error in the schema never leaves a half-written
 * folder.
 */
export async function writeTree(dir: string, comparison: Comparison): Promise<void> {
  for (const file of comparison.write) {
    const target = join(dir, file.path);
    await mkdir(dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, file.content, 'utf8');
    await rename(temporary, target);
  }
  for (const path of comparison.remove) await rm(join(dir, path), { force: true });
}

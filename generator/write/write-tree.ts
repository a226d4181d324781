/**
 * Writing the generated files: only those whose bytes changed, each through a
 * temporary file renamed into place; then removing files no longer generated.
 */
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Comparison } from './compare.js';
import { fileParts } from './generated-file.js';

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
    await writeText(temporary, fileParts(file));
    await rename(temporary, target);
  }
  for (const path of comparison.remove) await rm(join(dir, path), { force: true });
}

/** Characters encoded per write by {@link writeText}. */
const CHUNK = 1 << 16;

/**
 * Write the text of `parts`, one after the other, to `path` as UTF-8
 * (created or truncated), a chunk at a time through one reused buffer:
 * `writeFile` would encode the whole text into a buffer of its own first
 * (up to 7 MB for one file at 1,000 routes), which stays allocated outside
 * the heap until the garbage collector runs; and the pieces are never joined
 * (`GeneratedFile.parts`).
 */
async function writeText(path: string, parts: readonly string[]): Promise<void> {
  const buffer = Buffer.allocUnsafe(CHUNK * 3);
  const handle = await open(path, 'w');
  try {
    for (const text of parts)
      for (let start = 0; start < text.length; ) {
        let end = Math.min(start + CHUNK, text.length);
        // Never split a surrogate pair: each half alone would be written as U+FFFD.
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
        const bytes = buffer.write(text.slice(start, end), 0, 'utf8');
        for (let written = 0; written < bytes; ) written += (await handle.write(buffer, written, bytes - written)).bytesWritten;
        start = end;
      }
  } finally {
    await handle.close();
  }
}

/**
 * Writing the generated files: only those whose bytes changed, each through a
 * temporary file renamed into place; then removing files no longer generated.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
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
    writeText(temporary, fileParts(file));
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
 * (`GeneratedFile.parts`). Synchronous: the writes go to the page cache in
 * a few milliseconds, where each asynchronous one waited for a turn of the
 * thread pool (some 300 of them at 1,000 routes); `generate` computes the
 * files synchronously anyway.
 */
function writeText(path: string, parts: readonly string[]): void {
  const buffer = Buffer.allocUnsafe(CHUNK * 3);
  const fd = openSync(path, 'w');
  try {
    for (const text of parts)
      for (let start = 0; start < text.length; ) {
        let end = Math.min(start + CHUNK, text.length);
        // Never split a surrogate pair: each half alone would be written as U+FFFD.
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
        const bytes = buffer.write(text.slice(start, end), 0, 'utf8');
        for (let written = 0; written < bytes; ) written += writeSync(fd, buffer, written, bytes - written);
        start = end;
      }
  } finally {
    closeSync(fd);
  }
}

/**
 * Writing the output folder: large files are written in chunks, and the
 * bytes on disk are the text's UTF-8, whatever falls on a chunk boundary; a
 * file kept in pieces (`GeneratedFile.parts`) is written and hashed as its
 * whole text.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { fileHash, fileOfParts } from '../../generator/write/generated-file.js';
import { writeTree } from '../../generator/write/write-tree.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bindery-write-tree-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('writeTree', () => {
  it('writes large texts byte for byte, astral characters and multi-byte text across chunk boundaries included', async () => {
    // 'é' (2 bytes), '€' (3 bytes), '😀' (a surrogate pair, 4 bytes) placed so that each straddles or touches a 65,536-character boundary.
    const texts: Record<string, string> = {};
    for (const offset of [-2, -1, 0, 1]) {
      const filler = 'a'.repeat((1 << 16) + offset);
      texts[`big${offset + 2}.ts`] = `${filler}😀é€${filler}😀\n${'x'.repeat(1 << 17)}😀`;
    }
    texts['sub/empty.ts'] = '';
    texts['sub/small.ts'] = 'export const a = 1;\n';
    await writeTree(dir, { write: Object.entries(texts).map(([path, content]) => ({ path, content })), remove: [] });
    for (const [path, content] of Object.entries(texts)) {
      expect((await readFile(join(dir, path))).equals(Buffer.from(content, 'utf8')), path).toBe(true);
    }
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('writes a file kept in parts as the text of its parts, and hashes it as that text', async () => {
    const body = `${'b'.repeat((1 << 16) - 3)}😀€${'c'.repeat(1 << 17)}`;
    const file = fileOfParts('parts.ts', '// @generated — do not edit\n', body, '\n');
    const text = `// @generated — do not edit\n${body}\n`;
    expect(file.content).toBe(text);
    expect(file.parts).toEqual(['// @generated — do not edit\n', body, '\n']);
    expect(fileHash(file)).toBe(createHash('sha256').update(text).digest('hex'));
    expect(fileHash({ path: 'whole.ts', content: text })).toBe(fileHash(file));
    await writeTree(dir, { write: [file], remove: [] });
    expect((await readFile(join(dir, 'parts.ts'))).equals(Buffer.from(text, 'utf8'))).toBe(true);
  });
});

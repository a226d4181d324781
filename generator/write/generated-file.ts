/**
 * What the generator writes: one file of the output folder, made by an
 * emitter (`generator/emit/`) and compared with the disk and written here
 * (`compare.ts`, `write-tree.ts`).
 */
import { createHash } from 'node:crypto';

/** One generated file. */
export interface GeneratedFile {
  /** Path relative to the output folder, forward slashes, e.g. `migrations/0001_create_notes.sql`. */
  readonly path: string;
  readonly content: string;
  /**
   * `content` in pieces, when the emitter has them (their concatenation is
   * `content`): written and hashed piece by piece, `content` is never made
   * one flat string. V8 keeps a string of Latin-1 characters at one byte per
   * character, but any other character makes the whole string two bytes per
   * character once it is made flat (by writing or hashing it): the header's
   * em dash would double the 17 MB of a 1,000-route run.
   */
  readonly parts?: readonly string[];
}

/**
 * A file whose text is `parts` one after the other, kept as its
 * {@link GeneratedFile.parts}: the header apart from the rest, and no piece
 * that would be copied to be written (a large piece joined to a final line
 * break is two pieces).
 */
export function fileOfParts(path: string, ...parts: readonly string[]): GeneratedFile {
  // `+` keeps the pieces (V8 makes a rope of them); `join` would copy them into one flat string.
  let content = '';
  for (const part of parts) content += part;
  return { path, content, parts };
}

/** The pieces of a file's text: its {@link GeneratedFile.parts}, or its content whole. */
export function fileParts(file: GeneratedFile): readonly string[] {
  return file.parts ?? [file.content];
}

/** SHA-256 (hex) of the file's text as UTF-8, hashed piece by piece: the same as hashing `content`. */
export function fileHash(file: GeneratedFile): string {
  const hash = createHash('sha256');
  for (const part of fileParts(file)) hash.update(part);
  return hash.digest('hex');
}

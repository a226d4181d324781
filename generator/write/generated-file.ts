/**
 * What the generator writes: one file of the output folder, made by an
 * emitter (`generator/emit/`) and compared with the disk and written here
 * (`compare.ts`, `write-tree.ts`).
 */

/** One generated file. */
export interface GeneratedFile {
  /** Path relative to the output folder, forward slashes, e.g. `migrations/0001_create_notes.sql`. */
  readonly path: string;
  readonly content: string;
}

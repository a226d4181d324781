/**
 * What every emitter receives (each returns `GeneratedFile`s, `generator/write/generated-file.ts`).
 */
import type { Model } from '../model/model.js';

/** Inputs shared by the emitters. */
export interface EmitContext {
  readonly model: Model;
  /** Header text without comment markers (see `write/header.ts`). */
  readonly header: string;
  /** The package the generated files import the runtime entries from (`bindery` → `bindery/http`, `bindery/routing`; docs/package.md). */
  readonly runtime: string;
  /** Emit the `Services { db: Kysely<Database> }` augmentation in `types.ts`. */
  readonly augmentServices: boolean;
}

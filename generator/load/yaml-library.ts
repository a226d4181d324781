/**
 * The `yaml` package, loaded on first use: loading it takes some 50 ms, and
 * a schema the fast reader (`fast-yaml.ts`) reads needs it only when a
 * diagnostic asks for a position (docs/generator.md "Speed").
 */
import { createRequire } from 'node:module';

let library: typeof import('yaml') | undefined;

/** The `yaml` module (its Node entry, as a static import resolves it), loaded synchronously on first call. */
export function yamlLibrary(): typeof import('yaml') {
  library ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return library;
}

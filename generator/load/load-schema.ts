/**
 * Stage 1 of the pipeline: read every `*.yaml` / `*.yml` file of the schema
 * directory (sorted by name), parse it with positions and check it against the
 * language's JSON Schema.
 */
import { readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Diagnostics } from '../diagnostics.js';
import { checkStructure } from './check-structure.js';
import { parseSchemaFile, type SchemaFile } from './schema-file.js';

/**
 * Load the schema directory. Problems (missing directory, no files, YAML
 * syntax, duplicate keys, JSON-Schema violations) go to `diagnostics` with
 * their position; files with problems are still returned (without `data` when
 * the YAML itself is broken). Never throws for schema problems; I/O errors
 * other than a missing directory are thrown.
 * @param root project root (absolute).
 * @param schemaDir absolute schema directory.
 * @returns the files sorted by name.
 */
export async function loadSchema(root: string, schemaDir: string, diagnostics: Diagnostics): Promise<SchemaFile[]> {
  const dirName = toPosix(relative(root, schemaDir));
  let names: string[];
  try {
    names = (await readdir(schemaDir)).filter((n) => /\.ya?ml$/.test(n)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    diagnostics.add(
      { file: dirName, line: 1, column: 1 },
      '',
      `the schema directory ${dirName}/ does not exist; create it with at least one .yaml file`,
    );
    return [];
  }
  if (names.length === 0) {
    diagnostics.add(
      { file: dirName, line: 1, column: 1 },
      '',
      `no schema files in ${dirName}/; add a .yaml file describing resources and routes`,
    );
  }
  const files: SchemaFile[] = [];
  for (const name of names) {
    // Read synchronously: the files are small, and each asynchronous read waits for turns of the thread pool.
    const file = parseSchemaFile(`${dirName}/${name}`, readFileSync(join(schemaDir, name), 'utf8'), diagnostics);
    if (file.data !== undefined) checkStructure(file, diagnostics);
    files.push(file);
  }
  return files;
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

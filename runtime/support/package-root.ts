/**
 * Where the bindery package lives on disk, the same from the TypeScript
 * sources (`runtime/…`) and the compiled output (`dist/runtime/…`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The bindery package folder: the nearest folder above this module whose
 * package.json is named `bindery`.
 *
 * @returns an absolute path, e.g. `/app/node_modules/bindery`.
 * @throws {Error} when no such package.json is found (a broken install).
 */
export function binderyPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate) && (JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string }).name === 'bindery') return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`bindery: no package.json named "bindery" above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/** bindery's package.json `version`, e.g. `0.3.0`. */
export function binderyVersion(): string {
  return (JSON.parse(readFileSync(join(binderyPackageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

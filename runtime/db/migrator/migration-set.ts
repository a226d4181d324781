/**
 * Migration sets and their files (docs/database.md "Migrations").
 *
 * A set is a folder of `.sql` files recorded under one source: `app` for
 * `generated/migrations`, a framework set's name (`session`, `auth`, `audit`)
 * or a plugin's name. Files run in name order (plain code-unit order, so
 * number them with leading zeros: `0001_create_notes.sql`).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MigrationSetError } from './errors.js';

/** A folder of migrations and the source they are recorded under. */
export interface MigrationSet {
  /** `app`, a framework set (`session`, `auth`, `audit`) or a plugin's name: lower-case letters, digits, `_`, `-`. */
  readonly source: string;
  /** Absolute folder of `.sql` files. A folder that does not exist holds no migrations. */
  readonly dir: string;
}

/** One migration file, read. */
export interface MigrationFile {
  readonly source: string;
  /** File name, e.g. `0001_create_notes.sql` (recorded as is). */
  readonly name: string;
  readonly path: string;
  readonly sql: string;
  /** SHA-256 (hex) of the text with a BOM dropped and CRLF read as LF. */
  readonly checksum: string;
}

const SOURCE = /^[a-z][a-z0-9_-]*$/;

/** `source/name`, as shown in messages and progress lines. */
export function migrationLabel(m: { readonly source: string; readonly name: string }): string {
  return `${m.source}/${m.name}`;
}

/** The checksum of a migration's text (line endings and a BOM do not count). */
export function migrationChecksum(sql: string): string {
  return createHash('sha256')
    .update(sql.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n'))
    .digest('hex');
}

/**
 * Check the sets: valid, unique source names.
 * @throws {MigrationSetError} naming the bad or duplicated source.
 */
export function validateMigrationSets(sets: readonly MigrationSet[]): void {
  const seen = new Set<string>();
  for (const set of sets) {
    if (!SOURCE.test(set.source)) {
      throw new MigrationSetError(
        `Migration source ${JSON.stringify(set.source)} is invalid: use lower-case letters, digits, "_" or "-", starting with a letter.`,
      );
    }
    if (seen.has(set.source))
      throw new MigrationSetError(`Migration source "${set.source}" is listed twice; each set needs its own source name.`);
    seen.add(set.source);
  }
}

/**
 * Read the `.sql` files of a set, sorted by name.
 * @throws {MigrationSetError} when the folder exists but cannot be read.
 */
export async function readMigrationSet(set: MigrationSet): Promise<MigrationFile[]> {
  let names: string[];
  try {
    const entries = await readdir(set.dir, { withFileTypes: true });
    names = entries.filter((e) => e.isFile() && e.name.endsWith('.sql')).map((e) => e.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new MigrationSetError(`Cannot read the migrations of "${set.source}" in ${set.dir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Promise.all(
    names.map(async (name) => {
      const path = join(set.dir, name);
      const sql = await readFile(path, 'utf8');
      return { source: set.source, name, path, sql, checksum: migrationChecksum(sql) };
    }),
  );
}

/**
 * Migration sets and their files (docs/database.md "Migrations", "Migrations
 * per engine").
 *
 * A set is a folder of `.sql` files recorded under one source: `app` for
 * `generated/migrations`, a framework set's name (`session`, `auth`, `audit`)
 * or a plugin's name. Files run in name order (plain code-unit order, so
 * number them with leading zeros: `0001_create_notes.sql`).
 *
 * A set whose folder holds a `postgres/` or a `mysql/` folder is **per
 * engine**: PostgreSQL reads `postgres/` (or, without one, the set's own
 * `.sql` files), MySQL and MariaDB read `mysql/`, with the same file names
 * in both (the names are what is recorded). A set without a `mysql/` folder
 * is PostgreSQL's; on MySQL such a set stops the migrator before anything
 * runs (`BINDERY_MIGRATION_ENGINE_MISSING`) unless it holds no `.sql` file
 * at all, as a set of `mysql/` only does on PostgreSQL.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EngineName } from '../engine.js';
import type { SqlDialect } from '../sql-dialect.js';
import { MigrationEngineMissingError, MigrationSetError } from './errors.js';

/** A folder of migrations and the source they are recorded under. */
export interface MigrationSet {
  /** `app`, a framework set (`session`, `auth`, `audit`) or a plugin's name: lower-case letters, digits, `_`, `-`. */
  readonly source: string;
  /** Absolute folder of `.sql` files (or of the engine folders `postgres/` and `mysql/`). A folder that does not exist holds no migrations. */
  readonly dir: string;
  /** Who adds the set, for messages (`audit()`, `plugin mailprovider`); the app's own sets have none. */
  readonly addedBy?: string;
}

/** The engine folders of a per-engine set, by SQL family. */
export const ENGINE_FOLDERS: Readonly<Record<SqlDialect, string>> = { postgres: 'postgres', mysql: 'mysql' };

/** The folder of a set that the migrator reads on one engine. */
export interface MigrationFolder {
  readonly source: string;
  /** The folder read: the set's `dir`, or its engine folder (`dir/mysql`). */
  readonly dir: string;
  /** The engine folder read (`postgres`, `mysql`), or `undefined` for a set that is not per engine. */
  readonly engineFolder: string | undefined;
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

/** A migration's text as the migrator reads it: a BOM dropped, CRLF read as LF. */
export function migrationText(sql: string): string {
  return sql.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
}

/** The checksum of a migration's text (line endings and a BOM do not count). */
export function migrationChecksum(sql: string): string {
  return createHash('sha256').update(migrationText(sql)).digest('hex');
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

/** The SQL family of an engine: `postgres`, or `mysql` for MySQL and MariaDB. */
export function migrationFamilyOf(engine: EngineName): SqlDialect {
  return engine === 'postgres' ? 'postgres' : 'mysql';
}

const ENGINE_TITLES: Readonly<Record<EngineName, string>> = { postgres: 'PostgreSQL', mysql: 'MySQL', mariadb: 'MariaDB' };

/** The engine as people write it: `PostgreSQL`, `MySQL`, `MariaDB`. */
export function engineTitle(engine: EngineName): string {
  return ENGINE_TITLES[engine];
}

/** The `.sql` file names (sorted) and sub-folders of `dir`; `undefined` when it does not exist. */
async function listFolder(set: MigrationSet, dir: string): Promise<{ files: string[]; folders: Set<string> } | undefined> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return {
      files: sortNames(entries.filter((e) => e.isFile() && e.name.endsWith('.sql')).map((e) => e.name)),
      folders: new Set(entries.filter((e) => e.isDirectory()).map((e) => e.name)),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MigrationSetError(`Cannot read the migrations of "${set.source}" in ${dir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Which folder of `set` the migrator reads on `engine`, and its `.sql` file names, sorted:
 * PostgreSQL reads `postgres/`, else the set's own files; MySQL and MariaDB read `mysql/`.
 * @throws {MigrationEngineMissingError} when the set has migrations, but none for the engine's family.
 * @throws {MigrationSetError} when a folder cannot be read, or `.sql` files lie beside a `postgres/` folder.
 */
export async function resolveMigrationFolder(set: MigrationSet, engine: EngineName): Promise<{ folder: MigrationFolder; names: string[] }> {
  const top = await listFolder(set, set.dir);
  const flat: MigrationFolder = { source: set.source, dir: set.dir, engineFolder: undefined };
  if (top === undefined) return { folder: flat, names: [] };
  const inFolder = async (engineFolder: string) => {
    const dir = join(set.dir, engineFolder);
    return { folder: { source: set.source, dir, engineFolder }, names: (await listFolder(set, dir))?.files ?? [] };
  };
  const postgres = top.folders.has(ENGINE_FOLDERS.postgres);
  const mysql = top.folders.has(ENGINE_FOLDERS.mysql);
  if (postgres && top.files.length > 0) {
    throw new MigrationSetError(
      `The migration set "${set.source}" in ${set.dir} holds .sql files (${top.files.slice(0, 3).join(', ')}${top.files.length > 3 ? ', …' : ''}) beside its postgres/ folder: PostgreSQL's migrations are the set's own files or those of postgres/, not both. Move the files into postgres/ (git mv: their text, and so their checksums, must not change); docs/database.md "Migrations per engine".`,
    );
  }
  if (migrationFamilyOf(engine) === 'postgres') {
    if (postgres) return inFolder(ENGINE_FOLDERS.postgres);
    if (top.files.length > 0 || !mysql) return { folder: flat, names: top.files };
    throw engineMissing(set, engine, 'it has mysql/ only');
  }
  if (mysql) return inFolder(ENGINE_FOLDERS.mysql);
  if (postgres) throw engineMissing(set, engine, 'it has postgres/ only');
  if (top.files.length > 0) {
    throw engineMissing(
      set,
      engine,
      `its ${top.files.length} .sql file${top.files.length === 1 ? ' is' : 's are'} PostgreSQL's (a set without a mysql/ folder is PostgreSQL's)`,
    );
  }
  return { folder: flat, names: [] };
}

function sortNames(names: string[]): string[] {
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function engineMissing(set: MigrationSet, engine: EngineName, what: string): MigrationEngineMissingError {
  const title = engineTitle(engine);
  const folder = ENGINE_FOLDERS[migrationFamilyOf(engine)];
  const ways = [
    `write the set's ${title} migrations in ${join(set.dir, folder)}/ (the same file names as for the other engine; docs/database.md "Migrations per engine")`,
    'run the app on an engine the set has migrations for',
    ...(set.addedBy ? [`leave ${set.addedBy} out of the setup list`] : []),
  ];
  const addedBy = set.addedBy ? ` (added by ${set.addedBy})` : '';
  return new MigrationEngineMissingError(
    `The migration set "${set.source}"${addedBy} has no migrations for ${title}: ${set.dir} has no ${folder}/ folder, and ${what}. Nothing was applied. ${capitalize(ways.slice(0, -1).join(', '))} or ${ways.at(-1)!}.`,
  );
}

/**
 * Read the `.sql` files of a set for `engine` (default PostgreSQL), sorted by name.
 * @throws {MigrationEngineMissingError} when the set has migrations, but none for the engine.
 * @throws {MigrationSetError} when the folder exists but cannot be read, or holds `.sql` files beside a `postgres/` folder.
 */
export async function readMigrationSet(set: MigrationSet, engine: EngineName = 'postgres'): Promise<MigrationFile[]> {
  return (await readMigrationFolder(set, engine)).files;
}

/** {@link readMigrationSet}, with the folder it read. */
export async function readMigrationFolder(
  set: MigrationSet,
  engine: EngineName,
): Promise<{ readonly folder: MigrationFolder; readonly files: MigrationFile[] }> {
  const { folder, names } = await resolveMigrationFolder(set, engine);
  const files = await Promise.all(
    names.map(async (name) => {
      const path = join(folder.dir, name);
      const sql = await readFile(path, 'utf8');
      return { source: set.source, name, path, sql, checksum: migrationChecksum(sql) };
    }),
  );
  return { folder, files };
}

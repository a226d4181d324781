/**
 * Where each engine's migrations live in the output folder (docs/generator.md
 * "Databases"; the runtime reads the same folders, docs/database.md
 * "Migrations per engine"):
 *
 * | `bindery.databases` | PostgreSQL's | MySQL's |
 * |---|---|---|
 * | `["postgres"]` (the default) | `migrations/` | — |
 * | `["mysql"]` | — | `migrations/mysql/` |
 * | `["postgres", "mysql"]` | `migrations/postgres/` | `migrations/mysql/` |
 *
 * The first engine is the history of record: its migrations are checked
 * against the snapshot and the next one is diffed from it; the other engine's
 * files are renderings of the same changes, under the same names.
 */
import type { DatabaseName } from '../../load/project-config.js';
import type { FileTree } from '../../write/disk-tree.js';
import { MIGRATIONS_DIR } from './files.js';

/** One engine's folder of migrations. */
export interface MigrationFolderLayout {
  readonly engine: DatabaseName;
  /** Relative to the output folder, e.g. `migrations`, `migrations/mysql`. */
  readonly dir: string;
  /**
   * Where the engine's files are now, when not in `dir`: PostgreSQL's flat
   * files of a project that added `mysql`, which this run moves into `dir`
   * (same names, same text: the checksums do not change).
   */
  readonly movedFrom?: string;
}

/** The `.sql` names (without `.sql`) directly in `dir` of `disk`, sorted. */
export function migrationNames(disk: FileTree, dir: string): string[] {
  const prefix = `${dir}/`;
  return [...disk.keys()]
    .filter((p) => p.startsWith(prefix) && p.endsWith('.sql') && !p.slice(prefix.length).includes('/'))
    .map((p) => p.slice(prefix.length, -'.sql'.length))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The folders of `databases`, the history of record (PostgreSQL's when it is one) first. */
export function migrationLayout(databases: readonly DatabaseName[], disk: FileTree): MigrationFolderLayout[] {
  const both = databases.includes('postgres') && databases.includes('mysql');
  const out: MigrationFolderLayout[] = [];
  if (databases.includes('postgres')) {
    const nested = `${MIGRATIONS_DIR}/postgres`;
    const flat = migrationNames(disk, MIGRATIONS_DIR).length > 0;
    const hasNested = migrationNames(disk, nested).length > 0;
    if (both) out.push({ engine: 'postgres', dir: nested, ...(flat && !hasNested ? { movedFrom: MIGRATIONS_DIR } : {}) });
    else out.push({ engine: 'postgres', dir: hasNested && !flat ? nested : MIGRATIONS_DIR });
  }
  if (databases.includes('mysql')) out.push({ engine: 'mysql', dir: `${MIGRATIONS_DIR}/mysql` });
  return out;
}

/** Where the history of record is read from: its folder, or the folder its files move from. */
export function historyDir(layout: MigrationFolderLayout): string {
  return layout.movedFrom ?? layout.dir;
}

/**
 * Names a schema may not use: tables the framework and its setup steps
 * create, and the keys every JavaScript object already has. The one list the
 * generator checks and docs/schema-language.md ("Reserved names") shows; a
 * test keeps both and the framework's own migrations in step. Tables of the
 * plugins an app lists are read from each plugin's snapshot
 * (`generator/load/project-config.ts`).
 */

/** Why a table name is taken: who creates the table. */
export interface ReservedTable {
  readonly name: string;
  /** Who creates it, as shown in errors, e.g. `the audit setup step (runtime/audit)`. */
  readonly owner: string;
}

/**
 * Tables created by bindery itself or by a setup step, in name order. graphile-worker keeps its tables in its
 * own PostgreSQL schema (`graphile_worker`), so they cannot clash with a
 * resource's table.
 */
export const RESERVED_TABLES: readonly ReservedTable[] = [
  { name: 'api_tokens', owner: 'the API tokens setup step (runtime/auth/tokens)' },
  { name: 'audit_bulk', owner: 'the audit setup step (runtime/audit)' },
  { name: 'audit_bulk_items', owner: 'the audit setup step (runtime/audit)' },
  { name: 'audit_log', owner: 'the audit setup step (runtime/audit)' },
  { name: 'bindery_cache', owner: 'the cache setup step (runtime/cache)' },
  { name: 'bindery_migrations', owner: 'the migrator, which records applied migrations in it' },
  { name: 'bindery_migration_failures', owner: 'the migrator, which records failed migrations in it' },
  { name: 'bindery_passkey_users', owner: 'the passkeys setup step (runtime/auth/passkeys)' },
  { name: 'bindery_passkeys', owner: 'the passkeys setup step (runtime/auth/passkeys)' },
  { name: 'bindery_recovery_codes', owner: 'the two-factor setup step (runtime/auth/two-factor)' },
  { name: 'bindery_sessions', owner: 'the session setup step (runtime/session)' },
  { name: 'bindery_two_factor', owner: 'the two-factor setup step (runtime/auth/two-factor)' },
  { name: 'jobs_worker_heartbeats', owner: 'the jobs setup step (runtime/jobs)' },
  { name: 'jobs_queue', owner: 'the job queue on MySQL and MariaDB (runtime/jobs/mysql)' },
  { name: 'jobs_queue_locks', owner: 'the job queue on MySQL and MariaDB (runtime/jobs/mysql)' },
  { name: 'jobs_cron_tasks', owner: 'the job queue on MySQL and MariaDB (runtime/jobs/mysql)' },
  { name: 'mail_outbox', owner: 'the mail setup step (runtime/mail)' },
  { name: 'mail_sent', owner: 'the mail setup step (runtime/mail)' },
  { name: 'storage_pending', owner: 'the storage setup step (runtime/storage)' },
];

/** Every table name starting with this prefix is kept for the framework's future tables. */
export const RESERVED_TABLE_PREFIX = 'bindery_';

/**
 * Keys every JavaScript object has (or that change an object's prototype):
 * as a field, input or binding name they would read or replace what the
 * object inherits instead of the value sent.
 */
export const PROTOTYPE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/**
 * Who owns table `name`, or undefined when a resource may use it.
 * @param pluginTables tables of the app's plugins: table name → plugin package name.
 * @example tableOwner('audit_log') // 'the audit setup step (runtime/audit)'
 */
export function tableOwner(name: string, pluginTables: ReadonlyMap<string, string> = new Map()): string | undefined {
  const listed = RESERVED_TABLES.find((t) => t.name === name);
  if (listed) return listed.owner;
  const plugin = pluginTables.get(name);
  if (plugin !== undefined) return `the plugin ${plugin} (listed in package.json "bindery.plugins")`;
  if (name.startsWith(RESERVED_TABLE_PREFIX))
    return `bindery (names starting with "${RESERVED_TABLE_PREFIX}" are kept for the framework's tables)`;
  return undefined;
}

/** Whether `name` is one of {@link PROTOTYPE_KEYS}. */
export function isPrototypeKey(name: string): boolean {
  return PROTOTYPE_KEYS.includes(name);
}

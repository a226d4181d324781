/**
 * The audit fixture's tables on MariaDB (and MySQL): the twins of the
 * documents table the generator writes for PostgreSQL and of the fixture's
 * own tables, and the `audit` migration set's MySQL files, applied one
 * statement at a time (each DDL statement commits by itself).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AUDIT_MIGRATIONS_DIR } from '../../../runtime/audit/audit-step.js';
import type { Database } from '../../../runtime/db/index.js';

/**
 * The fixture's tables: documents as the PostgreSQL migrations make them
 * (its slug unique among live rows through a stored, invisible generated
 * column named after the index, as the generator writes it: MySQL has no
 * partial indexes), accounts, tags keyed by text, gadgets keyed by UUID.
 */
export const MYSQL_FIXTURE_TABLES = [
  `CREATE TABLE documents (
    id BIGINT AUTO_INCREMENT PRIMARY KEY,
    owner_id BIGINT NOT NULL,
    slug VARCHAR(100) NOT NULL,
    title VARCHAR(255) NOT NULL,
    body LONGTEXT NOT NULL DEFAULT '',
    status VARCHAR(20) NOT NULL DEFAULT 'draft',
    share_token VARCHAR(64) NULL,
    view_count INT NOT NULL DEFAULT 0,
    created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    updated_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6),
    deleted_at DATETIME(6) NULL,
    documents_slug_live_key VARCHAR(100) GENERATED ALWAYS AS (CASE WHEN deleted_at IS NULL THEN slug END) STORED INVISIBLE,
    CONSTRAINT documents_status_check CHECK (status IN ('archived', 'draft', 'published')),
    UNIQUE KEY documents_slug_live_key (documents_slug_live_key),
    KEY documents_owner_id_status_idx (owner_id, status)
  )`,
  `CREATE TABLE accounts (
    id BIGINT AUTO_INCREMENT PRIMARY KEY, email LONGTEXT NOT NULL, password LONGTEXT NOT NULL,
    api_secret LONGTEXT NULL, remember_token LONGTEXT NULL, reset_token LONGTEXT NULL, notes LONGTEXT NULL,
    login_count INT NOT NULL DEFAULT 0,
    created_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), updated_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
  )`,
  'CREATE TABLE tags (name VARCHAR(255) PRIMARY KEY, label LONGTEXT NOT NULL)',
  'CREATE TABLE gadgets (id CHAR(36) PRIMARY KEY DEFAULT (UUID()), name VARCHAR(100) NOT NULL, price INT NOT NULL DEFAULT 0, UNIQUE KEY gadgets_name_key (name))',
];

/** The statements of a MySQL migration file: split after each `;` that ends a line, comments dropped. */
export function mysqlStatements(text: string): string[] {
  return text
    .split(/;[ \t]*$/m)
    .map((part) =>
      part
        .split('\n')
        .filter((line) => !/^\s*--/.test(line))
        .join('\n')
        .trim(),
    )
    .filter((statement) => statement !== '');
}

/** The folder of the `audit` set's MySQL files. */
export const AUDIT_MYSQL_MIGRATIONS = join(AUDIT_MIGRATIONS_DIR, 'mysql');

/** Apply the `audit` set's MySQL files (name order), statement by statement. */
export async function applyMysqlAuditMigrations(database: Database): Promise<void> {
  for (const name of (await readdir(AUDIT_MYSQL_MIGRATIONS)).filter((n) => n.endsWith('.sql')).sort()) {
    for (const statement of mysqlStatements(await readFile(join(AUDIT_MYSQL_MIGRATIONS, name), 'utf8')))
      await database.engine.run(statement);
  }
}

/** Create the fixture's tables and the audit log's on a MySQL or MariaDB database. */
export async function createMysqlFixtureTables(database: Database): Promise<void> {
  for (const statement of MYSQL_FIXTURE_TABLES) await database.engine.run(statement);
  await applyMysqlAuditMigrations(database);
}

/** Empty every table of the fixture (keys start again at 1). */
export async function resetMysqlFixture(database: Database): Promise<void> {
  for (const table of ['documents', 'accounts', 'tags', 'gadgets', 'audit_log', 'audit_bulk', 'audit_bulk_items'])
    await database.engine.run(`TRUNCATE TABLE ${table}`);
}

/**
 * A database for the audit tests: the `audit` migration set, the generated
 * documents table, and a few more tracked tables (accounts with sensitive
 * column names, tags keyed by text, gadgets keyed by UUID) — on the
 * project's engine by default (PostgreSQL; MariaDB in the `mariadb` project),
 * or the one `{ engine }` names (the tables' MySQL twins: support-mysql.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Generated, type Insertable } from 'kysely';
import { trackedResources } from '../../../generated/audit.js';
import type { Database as AppDatabase } from '../../../generated/types.js';
import { AuditLog, type TrackedModel, type TrackedResourceConfig } from '../../../runtime/audit/index.js';
import type { AuditSettings } from '../../../runtime/audit/settings.js';
import { AUDIT_MIGRATIONS_DIR } from '../../../runtime/audit/audit-step.js';
import { connectDatabase, type Database } from '../../../runtime/db/index.js';
import { createTestMariaDatabase, createTestPostgresDatabase, testEngine, type TestDatabase } from '../../support/database.js';
import { postgresPoolOf } from '../../../runtime/db/engines/postgres/index.js';
import { createMysqlFixtureTables, resetMysqlFixture } from './support-mysql.js';

const GENERATED_MIGRATIONS = fileURLToPath(new URL('../../../generated/migrations/postgres/', import.meta.url));

/** The audit log's tables (runtime/audit's migrations), for Kysely. */
export interface AuditTables {
  audit_log: {
    id: number;
    occurred_at: Date;
    actor_type: string;
    actor_id: string | null;
    action: string;
    subject_type: string | null;
    subject_id: string | null;
    changes: any;
    properties: any;
    via_kind: string | null;
    via_name: string | null;
    request_id: string | null;
    ip: string | null;
  };
  audit_bulk: {
    id: number;
    occurred_at: Date;
    actor_type: string;
    actor_id: string | null;
    action: string;
    subject_type: string;
    row_count: number;
    where_clause: any;
    assignments: any;
    values_before: any;
    values_after: any;
    values_complete: boolean;
    via_kind: string | null;
    via_name: string | null;
    request_id: string | null;
    ip: string | null;
  };
  audit_bulk_items: { bulk_id: number; subject_type: string; subject_id: string };
}

/** Tables of the fixture, for Kysely. */
export interface FixtureDatabase extends AppDatabase, AuditTables {
  accounts: {
    id: Generated<number>;
    email: string;
    password: string;
    api_secret: string | null;
    remember_token: string | null;
    reset_token: string | null;
    notes: string | null;
    login_count: Generated<number>;
    created_at: Generated<Date>;
    updated_at: Generated<Date>;
  };
  tags: { name: string; label: string };
  gadgets: { id: Generated<string>; name: string; price: Generated<number> };
}

export const accountsConfig: TrackedResourceConfig = {
  resource: 'Account',
  table: 'accounts',
  primaryKey: 'id',
  generatedKey: true,
  columns: ['id', 'email', 'password', 'api_secret', 'remember_token', 'reset_token', 'notes', 'login_count', 'created_at', 'updated_at'],
  softDelete: null,
  timestamps: { created: 'created_at', updated: 'updated_at' },
  hidden: ['password', 'remember_token'],
  except: ['login_count'],
  redact: ['notes'],
  reveal: ['reset_token'],
};

export const tagsConfig: TrackedResourceConfig = {
  resource: 'Tag',
  table: 'tags',
  primaryKey: 'name',
  generatedKey: false,
  columns: ['name', 'label'],
  softDelete: null,
  timestamps: null,
  hidden: [],
  except: [],
  redact: [],
  reveal: [],
};

export const gadgetsConfig: TrackedResourceConfig = {
  resource: 'Gadget',
  table: 'gadgets',
  primaryKey: 'id',
  generatedKey: true,
  columns: ['id', 'name', 'price'],
  softDelete: null,
  timestamps: null,
  hidden: [],
  except: [],
  redact: [],
  reveal: [],
};

/** The engines the fixture runs on: the run's PostgreSQL, or its MariaDB. */
export type FixtureEngine = 'postgres' | 'mariadb';

/** Options of {@link auditFixture}. */
export interface AuditFixtureOptions {
  /** The server (default the project's engine: `BINDERY_TEST_ENGINE`, `postgres` unless the `mariadb` project runs). */
  readonly engine?: FixtureEngine;
}

/** The documents model: the generated configuration (its slug index unique among live rows is its `uniqueLive`). */
const documentConfig: TrackedResourceConfig = trackedResources.Document;

/** The fixture: a fresh database, the audit log and its models. */
export interface AuditFixture {
  readonly database: Database<FixtureDatabase>;
  readonly log: AuditLog;
  readonly Document: TrackedModel<FixtureDatabase, 'documents', 'id'>;
  readonly Account: TrackedModel<FixtureDatabase, 'accounts', 'id'>;
  readonly Tag: TrackedModel<FixtureDatabase, 'tags', 'name'>;
  readonly Gadget: TrackedModel<FixtureDatabase, 'gadgets', 'id'>;
  /** Empty every table. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Apply the `.sql` files of a folder in name order. */
async function applyFolder(database: Database, dir: string): Promise<void> {
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.sql')).sort()) {
    await postgresPoolOf(database).query(await readFile(join(dir, name), 'utf8'));
  }
}

export async function auditFixture(settings: Partial<AuditSettings> = {}, options: AuditFixtureOptions = {}): Promise<AuditFixture> {
  if ((options.engine ?? testEngine()) === 'mariadb') return mariadbAuditFixture(settings);
  const test: TestDatabase = await createTestPostgresDatabase('audit');
  const database = await connectDatabase<FixtureDatabase>({ url: test.url, max: 20 });
  await applyFolder(database, GENERATED_MIGRATIONS);
  await applyFolder(database, join(AUDIT_MIGRATIONS_DIR, 'postgres'));
  // These tests write documents of owners (7, 8…) without a users row: the
  // app's foreign key documents.owner_id → users.id is not what they test.
  await postgresPoolOf(database).query('ALTER TABLE documents DROP CONSTRAINT documents_owner_id_fkey');
  await postgresPoolOf(database).query(`
    CREATE TABLE accounts (
      id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, email text NOT NULL, password text NOT NULL,
      api_secret text, remember_token text, reset_token text, notes text, login_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE tags (name text PRIMARY KEY, label text NOT NULL);
    CREATE TABLE gadgets (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), name text NOT NULL UNIQUE, price integer NOT NULL DEFAULT 0);
  `);
  return fixtureOn(test, database, settings, async () => {
    await sql`truncate documents, accounts, tags, gadgets, audit_log, audit_bulk, audit_bulk_items restart identity cascade`.execute(
      database.db,
    );
  });
}

/** The fixture on a fresh database of the run's MariaDB. */
async function mariadbAuditFixture(settings: Partial<AuditSettings>): Promise<AuditFixture> {
  const test = await createTestMariaDatabase('audit');
  const database = await connectDatabase<FixtureDatabase>({ url: test.url, max: 20 });
  await createMysqlFixtureTables(database);
  return fixtureOn(test, database, settings, () => resetMysqlFixture(database));
}

/** The audit log and its models on a database made ready. */
function fixtureOn(
  test: TestDatabase,
  database: Database<FixtureDatabase>,
  settings: Partial<AuditSettings>,
  reset: () => Promise<void>,
): AuditFixture {
  const log = new AuditLog({ database, settings });
  const Document = log.track<FixtureDatabase, 'documents', 'id'>(documentConfig);
  const Account = log.track<FixtureDatabase, 'accounts', 'id'>(accountsConfig);
  const Tag = log.track<FixtureDatabase, 'tags', 'name'>(tagsConfig);
  const Gadget = log.track<FixtureDatabase, 'gadgets', 'id'>(gadgetsConfig);
  return {
    database,
    log,
    Document,
    Account,
    Tag,
    Gadget,
    reset,
    async close() {
      log.close();
      await database.close();
      await test.drop();
    },
  };
}

/** A new document's values. */
export function newDocument(
  n: number,
  owner = 1,
  more: Partial<Insertable<FixtureDatabase['documents']>> = {},
): Insertable<FixtureDatabase['documents']> {
  return { owner_id: owner, slug: `doc-${n}`, title: `Document ${n}`, body: `Body ${n}`, ...more };
}

/**
 * The MySQL migrations bindery generates, run on a real MariaDB by the
 * runtime's migrator (statement by statement, as `bindery migrate` does):
 * the reference app's, realworld's and the mailprovider plugin's
 * `generated/migrations/mysql/`, and what the tables then are
 * (information_schema): columns, types, collations, the generated column
 * emulating `unique: live`, the enum's CHECK and the data checks.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { connectDatabase, databaseErrorOf, type Database } from '../../runtime/db/index.js';
import { createMigrator } from '../../runtime/db/migrator/migrator.js';
import { createTestMariaDatabase, type TestDatabase } from '../support/database.js';
import { tempProject } from './support.js';

const REPO = resolve(import.meta.dirname, '../..');

interface ColumnRow {
  COLUMN_NAME: string;
  COLUMN_TYPE: string;
  IS_NULLABLE: string;
  COLLATION_NAME: string | null;
  EXTRA: string;
  GENERATION_EXPRESSION: string | null;
}

async function migrated(dir: string, prefix: string): Promise<{ testDb: TestDatabase; database: Database; applied: string[] }> {
  const testDb = await createTestMariaDatabase(prefix);
  const database = await connectDatabase({ url: testDb.url });
  const result = await createMigrator(database, [{ source: 'app', dir }]).migrate();
  return { testDb, database, applied: result.applied.map((a) => a.name) };
}

async function columns(database: Database, table: string): Promise<Record<string, ColumnRow>> {
  const { rows } = await database.engine.run<ColumnRow>(
    'SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLLATION_NAME, EXTRA, GENERATION_EXPRESSION FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION',
    [table],
  );
  return Object.fromEntries(rows.map((r) => [r.COLUMN_NAME, r]));
}

async function tables(database: Database): Promise<Record<string, string>> {
  const { rows } = await database.engine.run<{ TABLE_NAME: string; TABLE_COLLATION: string; ENGINE: string }>(
    "SELECT TABLE_NAME, TABLE_COLLATION, ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME <> 'bindery_migrations' AND TABLE_NAME <> 'bindery_migration_failures' ORDER BY TABLE_NAME",
  );
  return Object.fromEntries(rows.map((r) => [r.TABLE_NAME, `${r.ENGINE} ${r.TABLE_COLLATION}`]).sort(([a], [b]) => (a! < b! ? -1 : 1)));
}

describe('generated MySQL migrations | run on MariaDB by the migrator', () => {
  describe('the reference app (generated/migrations/mysql)', () => {
    let testDb: TestDatabase;
    let database: Database;
    let applied: string[];
    beforeAll(async () => {
      ({ testDb, database, applied } = await migrated(join(REPO, 'generated', 'migrations'), 'gen_ref'));
    });
    afterAll(async () => {
      await database?.close();
      await testDb?.drop();
    });

    it('applies every file, under the names of the PostgreSQL files', async () => {
      expect(applied).toEqual([
        '0001_create_notes.sql',
        '0002_create_documents.sql',
        '0003_create_users.sql',
        '0004_fkey_documents_index_notes.sql',
        '0005_alter_documents_status.sql',
        '0006_create_document_attachments_add_users_avatar.sql',
        '0007_add_users_locale.sql',
      ]);
      expect(await tables(database)).toEqual({
        document_attachments: 'InnoDB utf8mb4_bin',
        documents: 'InnoDB utf8mb4_bin',
        notes: 'InnoDB utf8mb4_bin',
        users: 'InnoDB utf8mb4_bin',
      });
    });

    it('has the columns with their MySQL types, byte-exact text and the generated column of the live unique slug', async () => {
      const documents = await columns(database, 'documents');
      expect(Object.keys(documents)).toEqual([
        'id',
        'owner_id',
        'slug',
        'title',
        'body',
        'status',
        'share_token',
        'view_count',
        'created_at',
        'updated_at',
        'deleted_at',
        'slug_live',
      ]);
      expect(documents.id!.COLUMN_TYPE).toMatch(/^bigint/);
      expect(documents.id!.EXTRA).toBe('auto_increment');
      expect(documents.slug).toMatchObject({ COLUMN_TYPE: 'varchar(100)', IS_NULLABLE: 'NO', COLLATION_NAME: 'utf8mb4_bin' });
      expect(documents.body).toMatchObject({ COLUMN_TYPE: 'longtext', COLLATION_NAME: 'utf8mb4_bin' });
      expect(documents.status).toMatchObject({ COLUMN_TYPE: 'varchar(255)', IS_NULLABLE: 'NO' });
      expect(documents.created_at).toMatchObject({ COLUMN_TYPE: 'datetime(6)', IS_NULLABLE: 'NO' });
      expect(documents.deleted_at).toMatchObject({ COLUMN_TYPE: 'datetime(6)', IS_NULLABLE: 'YES' });
      expect(documents.slug_live).toMatchObject({ COLUMN_TYPE: 'varchar(100)', COLLATION_NAME: 'utf8mb4_bin' });
      expect(documents.slug_live!.EXTRA).toMatch(/STORED GENERATED.*INVISIBLE/);
      const notes = await columns(database, 'notes');
      expect(notes.tags!.COLUMN_TYPE).toBe('longtext'); // MariaDB's JSON
      const users = await columns(database, 'users');
      expect(users.admin!.COLUMN_TYPE).toMatch(/^tinyint\(1\)/);
      expect(users.avatar!.IS_NULLABLE).toBe('YES');
      const { rows: indexes } = await database.engine.run<{ INDEX_NAME: string; COLUMN_NAME: string; NON_UNIQUE: number }>(
        "SELECT INDEX_NAME, COLUMN_NAME, NON_UNIQUE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'documents' AND INDEX_NAME = 'documents_slug_live_key'",
      );
      expect(indexes.map((i) => [i.INDEX_NAME, i.COLUMN_NAME, Number(i.NON_UNIQUE)])).toEqual([
        ['documents_slug_live_key', 'slug_live', 0],
      ]);
    });

    it('keeps a slug unique among live documents only, reporting the PostgreSQL index name; the enum CHECK and the foreign key hold', async () => {
      const run = <R = Record<string, unknown>>(sql: string, parameters: unknown[] = []) => database.engine.run<R>(sql, parameters);
      await run("INSERT INTO users (name, email, password) VALUES ('Ann', 'ann@example.com', 'x')");
      const owner = (await run<{ id: number }>('SELECT id FROM users')).rows[0]!.id;
      const insert = (slug: string) => run('INSERT INTO documents (owner_id, slug, title) VALUES (?, ?, ?)', [owner, slug, slug]);
      await insert('a');
      const duplicate = await insert('a').catch((e: unknown) => e);
      expect(databaseErrorOf(duplicate)).toEqual({ kind: 'unique-violation', constraint: 'documents_slug_live_key' });
      await run("UPDATE documents SET deleted_at = CURRENT_TIMESTAMP(6) WHERE slug = 'a'");
      await insert('a');
      // Byte-exact: another case is another slug.
      await insert('A');
      expect((await run<{ n: number }>("SELECT COUNT(*) AS n FROM documents WHERE slug = 'a'")).rows[0]!.n).toBe(2);
      const status = await run("UPDATE documents SET status = 'lost' WHERE slug = 'A'").catch((e: unknown) => e);
      expect(databaseErrorOf(status)?.kind).toBe('check-violation');
      const orphan = await run("INSERT INTO documents (owner_id, slug, title) VALUES (999, 'b', 'b')").catch((e: unknown) => e);
      expect(databaseErrorOf(orphan)?.kind).toBe('foreign-key-violation');
      const row = (
        await run<{ body: string; status: string; view_count: number }>("SELECT body, status, view_count FROM documents WHERE slug = 'A'")
      ).rows[0]!;
      expect(row).toEqual({ body: '', status: 'draft', view_count: 0 });
      // The generated column is invisible: a row read whole does not carry it.
      const whole = (await run("SELECT * FROM documents WHERE slug = 'A'")).rows[0]!;
      expect(Object.keys(whole)).not.toContain('slug_live');
    });
  });

  it('realworld and the mailprovider plugin: every table, byte-exact keys', async () => {
    const realworld = await migrated(join(REPO, 'examples', 'realworld', 'generated', 'migrations'), 'gen_rw');
    try {
      expect(realworld.applied).toEqual(['0001_create_article_tags_create_articles_create_comments_and_more.sql']);
      expect(Object.keys(await tables(realworld.database))).toEqual([
        'article_tags',
        'articles',
        'comments',
        'favorites',
        'follows',
        'tags',
        'users',
      ]);
      const users = await columns(realworld.database, 'users');
      expect(users.email).toMatchObject({ COLUMN_TYPE: 'varchar(255)', COLLATION_NAME: 'utf8mb4_bin' });
      expect(users.bio).toMatchObject({ COLUMN_TYPE: 'longtext', IS_NULLABLE: 'NO' });
    } finally {
      await realworld.database.close();
      await realworld.testDb.drop();
    }
    const plugin = await migrated(join(REPO, 'plugins', 'mailprovider', 'generated', 'migrations'), 'gen_mp');
    try {
      const suppressions = await columns(plugin.database, 'mailprovider_suppressions');
      expect(suppressions.email).toMatchObject({ COLUMN_TYPE: 'varchar(254)', IS_NULLABLE: 'NO', COLLATION_NAME: 'utf8mb4_bin' });
      expect(suppressions.since!.COLUMN_TYPE).toBe('datetime(6)');
    } finally {
      await plugin.database.close();
      await plugin.testDb.drop();
    }
  });

  it('an enum limited later: the data check stops the migration at its CALL, naming the column and the count', async () => {
    const project = await tempProject({
      'package.json': JSON.stringify({ name: 'shop', bindery: { databases: ['mysql'] } }),
      'schema/orders.yaml':
        'resources:\n  Order:\n    table: orders\n    fields:\n      id: { type: bigint, primaryKey: true, generated: true }\n      state: { type: string, max: 20 }\n',
    });
    const testDb = await createTestMariaDatabase('gen_guard');
    const database = await connectDatabase({ url: testDb.url });
    const dir = await mkdtemp(join(tmpdir(), 'bindery-gen-guard-'));
    try {
      expect((await generate({ root: project.root })).ok).toBe(true);
      const migrations = join(project.root, 'generated', 'migrations');
      await createMigrator(database, [{ source: 'app', dir: migrations }]).migrate();
      await database.engine.run("INSERT INTO orders (state) VALUES ('new'), ('gone'), ('gone')");
      await project.write(
        'schema/orders.yaml',
        'resources:\n  Order:\n    table: orders\n    fields:\n      id: { type: bigint, primaryKey: true, generated: true }\n      state: { type: enum, values: [new, paid] }\n',
      );
      const second = await generate({ root: project.root, allowDestructive: true });
      expect(second.diagnostics).toEqual([]);
      const failure = await createMigrator(database, [{ source: 'app', dir: migrations }])
        .migrate()
        .catch((e: unknown) => e as Error);
      expect(String((failure as Error).message)).toContain('cannot limit orders.state: 2 row(s) hold a value not in (new, paid)');
      await database.engine.run("UPDATE orders SET state = 'paid' WHERE state = 'gone'");
      const resumed = await createMigrator(database, [{ source: 'app', dir: migrations }]).migrate();
      expect(resumed.applied.map((a) => a.name)).toEqual(['0002_alter_orders_state.sql']);
      const paid = await database.engine.run("INSERT INTO orders (state) VALUES ('lost')").catch((e: unknown) => e);
      expect(databaseErrorOf(paid)?.kind).toBe('check-violation');
    } finally {
      await database.close();
      await testDb.drop();
      await rm(dir, { recursive: true, force: true });
      await project.remove();
    }
  });
});

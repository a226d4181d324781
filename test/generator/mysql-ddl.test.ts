/**
 * The MySQL migration dialect (docs/generator.md "Databases"): golden files
 * of the DDL a representative schema generates — every column type, enum
 * CHECKs, foreign keys, indexes, the emulation of `unique: live` — and of an
 * ALTER migration after it; both migrations run on MariaDB with rows in the
 * tables; the `bindery.databases` setting; and the refusal of `unique: live`
 * without its emulation, with its position. `npx vitest run -u
 * test/generator/mysql-ddl.test.ts` refreshes the golden files
 * (`golden/mysql/`).
 */
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDiagnostic, generate } from '../../generator/index.js';
import { connectDatabase, databaseErrorOf } from '../../runtime/db/index.js';
import { createMigrator } from '../../runtime/db/migrator/migrator.js';
import { createTestMariaDatabase } from '../support/database.js';
import { tempProject, type TempProject } from './support.js';

const BOTH = JSON.stringify({ name: 'shop', private: true, bindery: { databases: ['postgres', 'mysql'] } });

/** Every column type, defaults of each, an enum and an enum list, references, indexes, live unique fields (emulated). */
const SCHEMA = `resources:
  Customer:
    table: customers
    timestamps: true
    softDelete: true
    fields:
      id:        { type: bigint, primaryKey: true, generated: true }
      email:     { type: string, max: 255, unique: true }
      handle:    { type: string, max: 40, unique: { among: live, emulate: generated-column } }
      name:      { type: string }
      bio:       { type: text, default: "" }
      age:       { type: integer, nullable: true }
      balance:   { type: number, default: 0 }
      vip:       { type: boolean, default: false }
      joined_at: { type: timestamp, default: now }
      timeout:   { type: duration, default: 30s }
      settings:  { type: json, default: { theme: light } }
      token:     { type: uuid, generated: true }
      tier:      { type: enum, values: [gold, silver, "it's"], default: silver }
      tags:      { type: "string[]", default: [] }
      scores:    { type: "integer[]", default: [1, 2] }
      badges:    { type: "enum[]", values: [early, loyal], default: [] }
      avatar:    { type: file, nullable: true }
    indexes:
      - { columns: [name] }
      - { columns: [tier, joined_at] }
      - { columns: [email, deleted_at], name: customers_email_deleted_idx }
  Order:
    table: orders
    softDelete: true
    fields:
      id:          { type: uuid, primaryKey: true, generated: true }
      customer_id: { type: bigint, references: { to: customers.id, onDelete: cascade } }
      number:      { type: string, max: 20 }
      note:        { type: string, max: 100, nullable: true }
      state:       { type: enum, values: [new, paid], default: new }
      quantity:    { type: integer, default: 1 }
    indexes:
      - { columns: [customer_id, number], unique: { among: live, emulate: generated-column } }
`;

/** The ALTER migration: a renamed column, an added and a dropped one, a narrowed and a widened type, enum values changed, NOT NULL with a default, an index added, a live index dropped. */
const ALTERED = `resources:
  Customer:
    table: customers
    timestamps: true
    softDelete: true
    fields:
      id:        { type: bigint, primaryKey: true, generated: true }
      email:     { type: string, max: 255, unique: true }
      handle:    { type: string, max: 40, unique: { among: live, emulate: generated-column } }
      full_name: { type: string, renamedFrom: name }
      bio:       { type: text, default: "" }
      age:       { type: bigint, default: 0 }
      balance:   { type: number, default: 0 }
      vip:       { type: boolean, default: false }
      joined_at: { type: timestamp, default: now }
      timeout:   { type: duration, default: 30s }
      settings:  { type: json, default: { theme: light } }
      token:     { type: uuid, generated: true }
      tier:      { type: enum, values: [gold, silver, bronze], default: silver }
      tags:      { type: "string[]", default: [] }
      scores:    { type: "integer[]", default: [1, 2] }
      badges:    { type: "enum[]", values: [early, loyal, vip], default: [] }
      avatar:    { type: file, nullable: true }
      phone:     { type: string, max: 30, nullable: true }
    indexes:
      - { columns: [full_name] }
      - { columns: [tier, joined_at] }
      - { columns: [email, deleted_at], name: customers_email_deleted_idx }
      - { columns: [phone] }
  Order:
    table: orders
    softDelete: true
    fields:
      id:          { type: uuid, primaryKey: true, generated: true }
      customer_id: { type: bigint, references: { to: customers.id, onDelete: cascade } }
      number:      { type: string, max: 20 }
      note:        { type: string, max: 50, nullable: true }
      state:       { type: enum, values: [new, paid, sent], default: new }
`;

let project: TempProject | undefined;
afterEach(async () => {
  await project?.remove();
  project = undefined;
});

const migrationsOf = async (root: string, engine: string) => (await readdir(join(root, 'generated', 'migrations', engine))).sort();

describe('generate | MySQL migrations', () => {
  it('writes each engine its DDL under the same names: golden MySQL files of a create and an ALTER migration', async () => {
    project = await tempProject({ 'package.json': BOTH, 'schema/shop.yaml': SCHEMA });
    expect((await generate({ root: project.root })).diagnostics).toEqual([]);
    await project.write('schema/shop.yaml', ALTERED);
    const second = await generate({ root: project.root, allowDestructive: true });
    expect(second.diagnostics.map(formatDiagnostic)).toEqual([]);
    const names = await migrationsOf(project.root, 'mysql');
    expect(names).toEqual(await migrationsOf(project.root, 'postgres'));
    expect(names).toHaveLength(2);
    for (const name of names) {
      const text = await readFile(join(project.root, 'generated', 'migrations', 'mysql', name), 'utf8');
      await expect(text).toMatchFileSnapshot(join('golden', 'mysql', name));
      // Every statement ends with ";" at the end of its line (the migrator's rule); no PostgreSQL quoting.
      expect(text).not.toMatch(/(TABLE|INDEX|ON) "/);
    }
    // One snapshot for both engines; generating again changes nothing.
    expect((await generate({ root: project.root, check: true })).changed).toEqual([]);
  });

  it('runs the create and the ALTER migration on MariaDB over rows, the live indexes emulated', async () => {
    project = await tempProject({ 'package.json': BOTH, 'schema/shop.yaml': SCHEMA });
    expect((await generate({ root: project.root })).ok).toBe(true);
    const testDb = await createTestMariaDatabase('gen_ddl');
    const database = await connectDatabase({ url: testDb.url });
    const sets = [{ source: 'app', dir: join(project.root, 'generated', 'migrations') }];
    const run = <R = Record<string, unknown>>(sql: string, parameters: unknown[] = []) => database.engine.run<R>(sql, parameters);
    try {
      await createMigrator(database, sets).migrate();
      await run(
        "INSERT INTO customers (email, handle, name, age) VALUES ('a@example.com', 'ann', 'Ann', NULL), ('b@example.com', 'bob', 'Bob', 7)",
      );
      const row = (await run<Record<string, unknown>>("SELECT * FROM customers WHERE handle = 'ann'")).rows[0]!;
      expect(row).toMatchObject({
        bio: '',
        balance: 0,
        vip: false,
        timeout: 30000,
        settings: { theme: 'light' },
        tier: 'silver',
        tags: [],
        scores: [1, 2],
      });
      expect(row.token).toMatch(/^[0-9a-f-]{36}$/);
      expect(Object.keys(row)).not.toContain('handle_live');
      const taken = await run("INSERT INTO customers (email, handle, name) VALUES ('c@example.com', 'ann', 'C')").catch((e: unknown) => e);
      expect(databaseErrorOf(taken)).toEqual({ kind: 'unique-violation', constraint: 'customers_handle_live_key' });
      const badge = await run("UPDATE customers SET badges = JSON_ARRAY('early', 'gone')").catch((e: unknown) => e);
      expect(databaseErrorOf(badge)?.kind).toBe('check-violation');
      const customer = (await run<{ id: number }>("SELECT id FROM customers WHERE handle = 'bob'")).rows[0]!.id;
      await run("INSERT INTO orders (customer_id, number, note) VALUES (?, '1', 'short')", [customer]);
      const twice = await run("INSERT INTO orders (customer_id, number) VALUES (?, '1')", [customer]).catch((e: unknown) => e);
      expect(databaseErrorOf(twice)).toEqual({ kind: 'unique-violation', constraint: 'orders_customer_id_number_live_key' });
      await run('UPDATE orders SET deleted_at = CURRENT_TIMESTAMP(6)');
      await run("INSERT INTO orders (customer_id, number) VALUES (?, '1')", [customer]);

      await project.write('schema/shop.yaml', ALTERED);
      expect((await generate({ root: project.root, allowDestructive: true })).ok).toBe(true);
      await createMigrator(database, sets).migrate();
      const after = (await run<Record<string, unknown>>("SELECT full_name, age, tier FROM customers WHERE handle = 'ann'")).rows[0];
      expect(after).toEqual({ full_name: 'Ann', age: 0, tier: 'silver' });
      // The live index of orders is gone with its generated column: the number may repeat.
      await run("INSERT INTO orders (customer_id, number) VALUES (?, '1')", [customer]);
      const { rows: columns } = await run<{ COLUMN_NAME: string }>(
        "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'orders' ORDER BY ORDINAL_POSITION",
      );
      expect(columns.map((c) => c.COLUMN_NAME)).toEqual(['id', 'customer_id', 'number', 'note', 'state', 'deleted_at']);
      const sent = await run("UPDATE orders SET state = 'sent'");
      expect(sent.rowCount).toBeGreaterThan(0);
    } finally {
      await database.close();
      await testDb.drop();
    }
  });

  it('refuses "unique: live" without its emulation when the databases include mysql, at the option, naming the alternative', async () => {
    project = await tempProject({
      'package.json': BOTH,
      'schema/posts.yaml': `resources:
  Post:
    table: posts
    softDelete: true
    fields:
      id:   { type: bigint, primaryKey: true, generated: true }
      slug: { type: string, max: 100, unique: live }
`,
    });
    const result = await generate({ root: project.root });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'schema/posts.yaml:7:47: resources.Post.fields.slug.unique: "unique: live" (index posts_slug_live_key) is a partial unique index among the rows whose deleted_at is NULL, and MySQL and MariaDB have no partial indexes (bindery.databases in package.json includes "mysql"); opt in to its emulation with "unique: { among: live, emulate: generated-column }" — on MySQL a generated column slug_live holding the value while deleted_at is NULL, with the unique index posts_slug_live_key on it; PostgreSQL keeps its partial index — or use "unique: true" (docs/schema-language.md "Unique among live rows")',
    ]);
    // A PostgreSQL project keeps "unique: live" as it is.
    await project.write('package.json', JSON.stringify({ name: 'shop', private: true }));
    expect((await generate({ root: project.root })).diagnostics).toEqual([]);
  });

  it('keeps the PostgreSQL partial index of an emulated live index: the same SQL and index name as "unique: live"', async () => {
    const schema = (unique: string) =>
      `resources:\n  Post:\n    table: posts\n    softDelete: true\n    fields:\n      id:   { type: bigint, primaryKey: true, generated: true }\n      slug: { type: string, max: 100, unique: ${unique} }\n`;
    project = await tempProject({ 'schema/posts.yaml': schema('live') });
    await generate({ root: project.root });
    const plain = await readFile(join(project.root, 'generated', 'migrations', '0001_create_posts.sql'), 'utf8');
    await project.write('schema/posts.yaml', schema('{ among: live, emulate: generated-column }'));
    const again = await generate({ root: project.root, check: true });
    expect(again.changed.filter((p) => p.includes('migrations') || p.endsWith('snapshot.json'))).toEqual([]);
    expect(plain).toContain('CREATE UNIQUE INDEX "posts_slug_live_key" ON "posts" ("slug") WHERE "deleted_at" IS NULL;');
  });

  it('refuses a unique index MySQL cannot hold (a text without a limit), and checks bindery.databases', async () => {
    project = await tempProject({
      'package.json': BOTH,
      'schema/posts.yaml':
        'resources:\n  Post:\n    table: posts\n    fields:\n      id: { type: bigint, primaryKey: true, generated: true }\n      title: { type: string, unique: true }\n',
    });
    const result = await generate({ root: project.root });
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      'index posts_title_key on posts.title: MySQL indexes at most 3072 bytes, 768 characters of utf8mb4, and a unique index holds whole values (bindery.databases includes "mysql"); give the field "max:" of at most 768',
    ]);
    await project.write('package.json', '{\n  "name": "shop",\n  "bindery": { "databases": ["postgres", "mariadb"] }\n}\n');
    const bad = await generate({ root: project.root });
    expect(bad.diagnostics.map(formatDiagnostic)).toEqual([
      'package.json:3:42: bindery.databases[1]: "mariadb" is not a database engine bindery writes migrations for (MariaDB is "mysql": the same migrations run on both); bindery.databases must be a list of the database engines the migrations are written for: "postgres", "mysql" (e.g. ["postgres", "mysql"]; "mysql" is for MySQL and MariaDB)',
    ]);
  });

  it("moves a PostgreSQL project's migrations into postgres/ unchanged when it adds mysql, and writes MySQL's", async () => {
    project = await tempProject({
      'schema/posts.yaml':
        'resources:\n  Post:\n    table: posts\n    fields:\n      id: { type: bigint, primaryKey: true, generated: true }\n      title: { type: string, max: 200 }\n',
    });
    await generate({ root: project.root });
    const before = await readFile(join(project.root, 'generated', 'migrations', '0001_create_posts.sql'), 'utf8');
    await project.write('package.json', BOTH);
    const check = await generate({ root: project.root, check: true });
    expect(check.changed).toEqual([
      'generated/migrations/0001_create_posts.sql',
      'generated/migrations/mysql/0001_create_posts.sql',
      'generated/migrations/postgres/0001_create_posts.sql',
    ]);
    await generate({ root: project.root });
    expect(await readdir(join(project.root, 'generated', 'migrations'))).toEqual(['mysql', 'postgres']);
    expect(await readFile(join(project.root, 'generated', 'migrations', 'postgres', '0001_create_posts.sql'), 'utf8')).toBe(before);
    expect(await readFile(join(project.root, 'generated', 'migrations', 'mysql', '0001_create_posts.sql'), 'utf8')).toContain(
      'CREATE TABLE `posts` (\n  `id` BIGINT AUTO_INCREMENT PRIMARY KEY,\n  `title` VARCHAR(200) NOT NULL\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;',
    );
    expect((await generate({ root: project.root, check: true })).changed).toEqual([]);
  });

  it("folds a draft into both engines' files, under its name, and renames them together", async () => {
    const note = 'resources:\n  Note:\n    table: notes\n    fields:\n      id: { type: bigint, primaryKey: true, generated: true }\n';
    const post = (fields: string) =>
      `resources:\n  Post:\n    table: posts\n    fields:\n      id: { type: bigint, primaryKey: true, generated: true }\n${fields}`;
    project = await tempProject({ 'package.json': BOTH, 'schema/notes.yaml': note });
    await mkdir(join(project.root, 'node_modules'));
    expect((await generate({ root: project.root })).ok).toBe(true);
    await project.write('schema/posts.yaml', post('      title: { type: string, max: 200 }\n'));
    const made = await generate({ root: project.root, draftMigration: true });
    expect(made.draft).toBe('generated/migrations/postgres/0002_create_posts.sql');
    await project.write('schema/posts.yaml', post('      title: { type: string, max: 200 }\n      body: { type: text, nullable: true }\n'));
    expect((await generate({ root: project.root })).ok).toBe(true);
    for (const engine of ['postgres', 'mysql']) {
      expect(await migrationsOf(project.root, engine)).toEqual(['0001_create_notes.sql', '0002_create_posts.sql']);
    }
    const mysql = await readFile(join(project.root, 'generated', 'migrations', 'mysql', '0002_create_posts.sql'), 'utf8');
    expect(mysql).toContain('  `body` LONGTEXT\n) ENGINE=InnoDB');
    expect(mysql).not.toContain('ALTER TABLE');
    expect((await generate({ root: project.root, check: true })).changed).toEqual([]);
  });
});

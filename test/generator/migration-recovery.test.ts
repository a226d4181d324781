/**
 * Migrations that say what they lose, and the way back from one that failed:
 * a narrowing type change guarded at apply time (on a real PostgreSQL), the
 * snapshot checked against its migrations (a hand edit is named), the
 * snapshot rebuilt from the migrations left, and a name for every migration.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDiagnostic, generate } from '../../generator/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { tempProject, type TempProject } from './support.js';

const NOTES = `resources:
  Note:
    table: notes
    fields:
      id:    { type: bigint, primaryKey: true, generated: true }
      title: { type: string, max: 200 }
`;

const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const d of databases) await d.drop();
});

let project: TempProject;
beforeEach(async () => {
  project = await tempProject({ 'schema/notes.yaml': NOTES });
  expect((await generate({ root: project.root })).ok).toBe(true);
});
afterEach(() => project.remove());

const text = (path: string): Promise<string> => readFile(join(project.root, 'generated', path), 'utf8');
const migrations = async (): Promise<string[]> => (await readdir(join(project.root, 'generated', 'migrations'))).sort();

/** Run one migration file in a transaction, as the migrator does; the error message when it fails. */
async function apply(client: pg.Client, name: string): Promise<string | undefined> {
  await client.query('BEGIN');
  try {
    await client.query(await text(`migrations/${name}`));
    await client.query('COMMIT');
    return undefined;
  } catch (error) {
    await client.query('ROLLBACK');
    return (error as Error).message;
  }
}

describe('migrations | a narrowing change says what it cuts and fails at migrate instead of cutting', () => {
  it('writes the loss into the migration and stops on a value that does not fit, changing nothing', async () => {
    await project.write('schema/notes.yaml', NOTES.replace('max: 200', 'max: 10'));
    expect((await generate({ root: project.root, allowDestructive: true })).ok).toBe(true);
    const sql = await text('migrations/0002_alter_notes_title.sql');
    expect(sql).toContain(
      '-- DESTRUCTIVE (written with --allow-destructive): this migration\n' +
        '--   - changes notes.title from varchar(200) to varchar(10); migrate stops with an error and changes nothing if a value would not survive the change unchanged\n',
    );
    expect(sql).toContain('DO $$');

    const db = await createTestDatabase('narrow');
    databases.push(db);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      expect(await apply(client, '0001_create_notes.sql')).toBeUndefined();
      await client.query(`INSERT INTO notes (title) VALUES ('short'), ('a title far longer than ten'), ('another long title')`);
      expect(await apply(client, '0002_alter_notes_title.sql')).toBe(
        'cannot change notes.title from varchar(200) to varchar(10): 2 row(s) hold a value that does not fit',
      );
      const kept = await client.query(
        `SELECT character_maximum_length AS n FROM information_schema.columns WHERE table_name = 'notes' AND column_name = 'title'`,
      );
      expect(kept.rows).toEqual([{ n: 200 }]);
      expect((await client.query('SELECT title FROM notes ORDER BY id')).rows.map((r) => r.title)).toEqual([
        'short',
        'a title far longer than ten',
        'another long title',
      ]);

      await client.query(`UPDATE notes SET title = left(title, 10)`);
      expect(await apply(client, '0002_alter_notes_title.sql')).toBeUndefined();
      const narrowed = await client.query(
        `SELECT character_maximum_length AS n FROM information_schema.columns WHERE table_name = 'notes' AND column_name = 'title'`,
      );
      expect(narrowed.rows).toEqual([{ n: 10 }]);
    } finally {
      await client.end();
    }
  });

  it('stops on a value the new type rejects, naming the table and column', async () => {
    await project.write('schema/notes.yaml', `${NOTES}      views: { type: bigint, default: 0 }\n`);
    expect((await generate({ root: project.root })).ok).toBe(true);
    await project.write('schema/notes.yaml', `${NOTES}      views: { type: integer, default: 0 }\n`);
    expect((await generate({ root: project.root, allowDestructive: true })).ok).toBe(true);
    const db = await createTestDatabase('narrow_int');
    databases.push(db);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      for (const name of ['0001_create_notes.sql', '0002_add_notes_views.sql']) expect(await apply(client, name)).toBeUndefined();
      await client.query(`INSERT INTO notes (title, views) VALUES ('big', 3000000000), ('small', 1)`);
      expect(await apply(client, '0003_alter_notes_views.sql')).toBe(
        'cannot change notes.views from bigint to integer: a value cannot be converted (integer out of range)',
      );
      await client.query(`DELETE FROM notes WHERE views > 2147483647`);
      expect(await apply(client, '0003_alter_notes_views.sql')).toBeUndefined();
    } finally {
      await client.end();
    }
  });

  it('names a migration holding only foreign keys', async () => {
    await project.write('schema/notes.yaml', `${NOTES}      parent_id: { type: bigint, nullable: true }\n`);
    expect((await generate({ root: project.root })).ok).toBe(true);
    await project.write('schema/notes.yaml', `${NOTES}      parent_id: { type: bigint, nullable: true, references: notes.id }\n`);
    expect((await generate({ root: project.root })).ok).toBe(true);
    expect(await migrations()).toEqual(['0001_create_notes.sql', '0002_add_notes_parent_id.sql', '0003_fkey_notes.sql']);
  });
});

describe('migrations | the snapshot follows its migrations', () => {
  it('reports a hand-edited snapshot at the snapshot, in generate and --check', async () => {
    const snapshot = await text('schema.snapshot.json');
    await writeFile(join(project.root, 'generated', 'schema.snapshot.json'), snapshot.replace('"string(200)"', '"string(500)"'));
    const line = snapshot.split('\n').findIndex((l) => l.includes('"string(200)"')) + 1;
    const expected = `generated/schema.snapshot.json:${line}:11: tables.notes.columns.title.type: the snapshot has "string(500)", but the migrations up to 0001_create_notes build "string(200)": schema.snapshot.json was edited by hand (it must match generated/migrations/). Restore it from version control, or rebuild it from the migrations with "bindery generate --rebuild-snapshot"`;
    for (const check of [false, true]) {
      const result = await generate({ root: project.root, check });
      expect(result.diagnostics.map(formatDiagnostic)).toEqual([expected]);
      expect(result.diagnostics.every((d) => !d.file.startsWith('schema/'))).toBe(true);
    }
    const edited = JSON.parse(snapshot) as { tables: { notes: { columns: Record<string, unknown> } } };
    edited.tables.notes.columns['extra'] = { type: 'text', nullable: true };
    await writeFile(join(project.root, 'generated', 'schema.snapshot.json'), `${JSON.stringify(edited, null, 2)}\n`);
    expect((await generate({ root: project.root, check: true })).diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(
        /^generated\/schema\.snapshot\.json:\d+:9: tables\.notes\.columns\.extra: the snapshot has the column extra in table notes, but the migrations up to 0001_create_notes build no such column: /,
      ),
    ]);

    const rebuilt = await generate({ root: project.root, rebuildSnapshot: true });
    expect(rebuilt.ok).toBe(true);
    expect(await text('schema.snapshot.json')).toBe(snapshot);
    expect(await migrations()).toEqual(['0001_create_notes.sql']);
  });

  it('goes back from a migration that failed: remove it, rebuild the snapshot, generate the corrected change', async () => {
    const first = await text('schema.snapshot.json');
    await project.write('schema/notes.yaml', NOTES.replace('max: 200', 'max: 10'));
    expect((await generate({ root: project.root, allowDestructive: true })).ok).toBe(true);
    expect(await migrations()).toEqual(['0001_create_notes.sql', '0002_alter_notes_title.sql']);

    // It failed at migrate (values too long): the change is abandoned for a wider limit.
    await rm(join(project.root, 'generated', 'migrations', '0002_alter_notes_title.sql'));
    await project.write('schema/notes.yaml', NOTES.replace('max: 200', 'max: 300'));
    const plain = await generate({ root: project.root });
    expect(plain.diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringContaining(
        'lastMigration: the snapshot follows migration 0002_alter_notes_title, but generated/migrations/0002_alter_notes_title.sql is missing; restore it from version control — or, if you removed it on purpose',
      ),
    ]);

    const rebuilt = await generate({ root: project.root, rebuildSnapshot: true });
    expect(rebuilt.diagnostics).toEqual([]);
    expect(await migrations()).toEqual(['0001_create_notes.sql', '0002_alter_notes_title.sql']);
    expect(await text('migrations/0002_alter_notes_title.sql')).toContain(
      'ALTER TABLE "notes" ALTER COLUMN "title" TYPE varchar(300) USING "title"::varchar(300);',
    );
    expect(await text('migrations/0002_alter_notes_title.sql')).not.toContain('DESTRUCTIVE');
    expect(JSON.parse(await text('schema.snapshot.json')).tables.notes.columns.title.type).toBe('string(300)');
    expect(JSON.parse(first).tables.notes.columns.title.type).toBe('string(200)');
    expect((await generate({ root: project.root, check: true })).changed).toEqual([]);
  });

  it('refuses to rebuild from a migration bindery did not write, naming the file', async () => {
    await project.write('generated/migrations/0002_by_hand.sql', 'CREATE VIEW recent_notes AS SELECT * FROM notes;\n');
    const result = await generate({ root: project.root, rebuildSnapshot: true });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'generated/migrations/0002_by_hand.sql:1:1: cannot rebuild the snapshot from the statement "CREATE VIEW recent_notes AS SELECT * FROM notes;": it is not a statement bindery writes; restore schema.snapshot.json from version control instead',
    ]);
  });
});

describe('migrations | every statement bindery writes reads back into the snapshot', () => {
  it('keeps the snapshot equal to the replayed migrations through every kind of change, and rebuilds it byte for byte', async () => {
    const steps = [
      `${NOTES}      rank: { type: integer, nullable: true }\n      code: { type: string, max: 20, default: "a;b''c" }\n    indexes:\n      - { columns: [rank] }\n`,
      `${NOTES}      rank: { type: integer, generated: true }\n      code: { type: string, max: 20 }\n      parent_id: { type: bigint, nullable: true, references: { to: notes.id, onDelete: cascade } }\n  Tag:\n    table: tags\n    softDelete: true\n    fields:\n      slug: { type: string, unique: live }\n`,
      `${NOTES}      rank: { type: integer, default: 0 }\n      code: { type: text, nullable: true, default: "x" }\n      parent_id: { type: bigint, nullable: true }\n`,
    ];
    for (const schema of steps) {
      await project.write('schema/notes.yaml', schema);
      const result = await generate({ root: project.root, allowDestructive: true });
      expect(result.diagnostics.map(formatDiagnostic)).toEqual([]);
      expect((await generate({ root: project.root, check: true })).changed).toEqual([]);
    }
    const names = await migrations();
    expect(names).toHaveLength(4);
    const all = (await Promise.all(names.map((n) => text(`migrations/${n}`)))).join('\n');
    for (const statement of [
      "DEFAULT 'a;b''''c'",
      'ADD GENERATED BY DEFAULT AS IDENTITY',
      'DROP IDENTITY',
      'DROP DEFAULT',
      'SET DEFAULT',
      'DROP NOT NULL',
      'SET NOT NULL',
      'DROP INDEX',
      'WHERE "deleted_at" IS NULL',
      'ON DELETE CASCADE',
      'DROP CONSTRAINT',
      'DROP TABLE',
      'TYPE text USING',
    ]) {
      expect(all).toContain(statement);
    }
    const snapshot = await text('schema.snapshot.json');
    await rm(join(project.root, 'generated', 'schema.snapshot.json'));
    expect((await generate({ root: project.root, rebuildSnapshot: true })).changed).toEqual(['generated/schema.snapshot.json']);
    expect(await text('schema.snapshot.json')).toBe(snapshot);
  });
});

/**
 * Enums and renames taken through `generate` and the migrator on a real
 * PostgreSQL holding rows: a string becoming an enum, a value added, a value
 * removed (refused, then guarded at migrate); a table and a column renamed
 * with their index, foreign key and CHECK constraint — no row lost — and the
 * snapshot still matching its migrations afterwards.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDiagnostic, generate } from '../../generator/index.js';
import { connectDatabase, type Database } from '../../runtime/db/index.js';
import { createMigrator } from '../../runtime/db/migrator/migrator.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { tempProject, type TempProject } from './support.js';
import { postgresPoolOf } from '../../runtime/db/engines/postgres/index.js';

const DOCS = (status: string, extra = ''): string => `resources:
  Doc:
    table: docs
    fields:
      id:     { type: bigint, primaryKey: true, generated: true }
      title:  { type: string, max: 200 }
      status: ${status}
    indexes:
      - { columns: [status] }
${extra}`;

let project: TempProject;
let testDb: TestDatabase;
let database: Database;

beforeEach(async () => {
  testDb = await createTestDatabase('schema_changes');
  database = await connectDatabase({ url: testDb.url });
});
afterEach(async () => {
  await database.close();
  await testDb.drop();
  await project.remove();
});

const migrationsDir = (): string => join(project.root, 'generated', 'migrations');
const migrations = async (): Promise<string[]> => (await readdir(migrationsDir())).sort();
const sql = async (name: string): Promise<string> => readFile(join(migrationsDir(), name), 'utf8');
const migrate = () => createMigrator(database, [{ source: 'app', dir: migrationsDir() }]).migrate();
const query = async <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> =>
  (await postgresPoolOf(database).query(text, params)).rows as T[];

async function generateOk(options: { allowDestructive?: boolean } = {}): Promise<void> {
  const result = await generate({ root: project.root, ...options });
  expect(result.diagnostics.map(formatDiagnostic)).toEqual([]);
  expect(result.ok).toBe(true);
}

describe('enums | through generate and migrate on a table with rows', () => {
  it('turns a string into an enum, adds a value, refuses then guards a removal — keeping every row', async () => {
    project = await tempProject({ 'schema/docs.yaml': DOCS('{ type: string, max: 20, default: draft }') });
    await generateOk();
    await migrate();
    await postgresPoolOf(database).query(
      `INSERT INTO docs (title, status) SELECT 'doc ' || i, CASE WHEN i % 3 = 0 THEN 'published' ELSE 'draft' END FROM generate_series(1, 300) i`,
    );

    // A string becomes an enum: a CHECK constraint, behind a guard.
    await project.write('schema/docs.yaml', DOCS('{ type: enum, values: [draft, published], default: draft }'));
    await generateOk();
    const [, second] = await migrations();
    expect(second).toBe('0002_alter_docs_status.sql');
    const converted = await sql(second!);
    expect(converted).toContain(`ALTER TABLE "docs" ADD CONSTRAINT "docs_status_check" CHECK ("status" IN ('draft', 'published'));`);
    expect(converted).toContain('DO $$');
    await migrate();
    expect(await query(`SELECT status, count(*)::int AS n FROM docs GROUP BY status ORDER BY status`)).toEqual([
      { status: 'draft', n: 200 },
      { status: 'published', n: 100 },
    ]);
    await expect(postgresPoolOf(database).query(`INSERT INTO docs (title, status) VALUES ('x', 'archived')`)).rejects.toThrow(
      /docs_status_check/,
    );

    // A value added: the constraint is replaced, no guard needed.
    await project.write('schema/docs.yaml', DOCS('{ type: enum, values: [draft, published, archived], default: draft }'));
    await generateOk();
    const added = await sql((await migrations())[2]!);
    expect(added).toContain('DROP CONSTRAINT "docs_status_check"');
    expect(added).toContain(`CHECK ("status" IN ('archived', 'draft', 'published'))`);
    expect(added).not.toContain('DO $$');
    await migrate();
    await postgresPoolOf(database).query(`INSERT INTO docs (title, status) VALUES ('x', 'archived')`);

    // Values reordered: the TypeScript union follows, the database has nothing to change.
    await project.write('schema/docs.yaml', DOCS('{ type: enum, values: [archived, published, draft], default: draft }'));
    await generateOk();
    expect(await migrations()).toHaveLength(3);

    // A value removed: refused without allowDestructive, at the field's position.
    await project.write('schema/docs.yaml', DOCS('{ type: enum, values: [draft, archived], default: draft }'));
    const refused = await generate({ root: project.root });
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(
        /^schema\/docs\.yaml:7:7: resources\.Doc\.fields\.status: removing the value\(s\) published from the enum docs\.status rejects rows and clients still using them; to write this migration anyway/,
      ),
    ]);
    await generateOk({ allowDestructive: true });
    const removal = (await migrations())[3]!;
    expect(await sql(removal)).toContain(
      '--   - removes the value(s) published from the enum docs.status; migrate stops with an error and changes nothing if a row still holds one',
    );
    // 100 rows still hold "published": migrate stops, changing nothing.
    await expect(migrate()).rejects.toThrow(/cannot limit docs\.status to \(archived, draft\): 100 row\(s\) hold another value/);
    expect((await query<{ n: number }>(`SELECT count(*)::int AS n FROM docs WHERE status = 'published'`))[0]!.n).toBe(100);
    await postgresPoolOf(database).query(`UPDATE docs SET status = 'archived' WHERE status = 'published'`);
    await migrate();
    expect((await query<{ n: number }>(`SELECT count(*)::int AS n FROM docs`))[0]!.n).toBe(301);

    // The snapshot is what the migrations build: nothing more to generate, and a rebuild gives the same.
    const again = await generate({ root: project.root });
    expect(again.changed).toEqual([]);
    const snapshot = await readFile(join(project.root, 'generated', 'schema.snapshot.json'), 'utf8');
    expect((await generate({ root: project.root, rebuildSnapshot: true })).ok).toBe(true);
    expect(await readFile(join(project.root, 'generated', 'schema.snapshot.json'), 'utf8')).toBe(snapshot);
  });
});

const BLOG = (posts: string, title: string, extra = ''): string => `resources:
  Post:
    table: ${posts}
${extra}    fields:
      id:     { type: bigint, primaryKey: true, generated: true }
      ${title}
      state:  { type: enum, values: [open, closed], default: open }
    indexes:
      - { columns: [state] }
  Comment:
    table: comments
    fields:
      id:      { type: bigint, primaryKey: true, generated: true }
      post_id: { type: bigint, references: { to: ${posts}.id, onDelete: cascade } }
      body:    { type: text }
`;

describe('renames | renamedFrom through generate and migrate', () => {
  it('renames a table and a column with their index, foreign key and CHECK, keeping every row', async () => {
    project = await tempProject({ 'schema/blog.yaml': BLOG('notes', 'title:  { type: string, max: 200 }') });
    await generateOk();
    await migrate();
    await postgresPoolOf(database).query(
      `INSERT INTO notes (title, state) SELECT 'note ' || i, CASE WHEN i % 2 = 0 THEN 'closed' ELSE 'open' END FROM generate_series(1, 500) i`,
    );
    await postgresPoolOf(database).query(`INSERT INTO comments (post_id, body) SELECT id, 'comment on ' || title FROM notes`);
    // The audit log's history of notes (its tables reduced to the column that names the table).
    await postgresPoolOf(database).query(
      `CREATE TABLE audit_log (subject_type text); CREATE TABLE audit_bulk (subject_type text); CREATE TABLE audit_bulk_items (subject_type text)`,
    );
    await postgresPoolOf(database).query(
      `INSERT INTO audit_log VALUES ('notes'), ('notes'), ('users'); INSERT INTO audit_bulk VALUES ('notes'); INSERT INTO audit_bulk_items VALUES ('notes')`,
    );

    // Without renamedFrom the drop is refused, with a hint.
    await project.write('schema/blog.yaml', BLOG('posts', 'heading: { type: string, max: 200 }'));
    const refused = await generate({ root: project.root });
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.map((d) => d.message).join('\n')).toContain(
      'dropping table notes deletes all its rows; if it was renamed to posts, add "renamedFrom: notes" to that resource instead',
    );

    await project.write(
      'schema/blog.yaml',
      BLOG('posts', 'heading: { type: string, max: 200, renamedFrom: title }', '    renamedFrom: notes\n'),
    );
    await generateOk();
    const name = (await migrations())[1]!;
    expect(name).toBe('0002_rename_notes_rename_posts_title.sql');
    const text = await sql(name);
    expect(text).toContain('ALTER TABLE "notes" RENAME TO "posts";');
    expect(text).toContain('ALTER TABLE "posts" RENAME COLUMN "title" TO "heading";');
    expect(text).toContain('ALTER INDEX "notes_pkey" RENAME TO "posts_pkey";');
    expect(text).toContain('ALTER INDEX "notes_state_idx" RENAME TO "posts_state_idx";');
    expect(text).toContain('ALTER TABLE "posts" RENAME CONSTRAINT "notes_state_check" TO "posts_state_check";');
    expect(text).not.toMatch(/DROP|CREATE/);
    await migrate();
    expect(await query(`SELECT subject_type, count(*)::int AS n FROM audit_log GROUP BY 1 ORDER BY 1`)).toEqual([
      { subject_type: 'posts', n: 2 },
      { subject_type: 'users', n: 1 },
    ]);
    expect(await query(`SELECT subject_type FROM audit_bulk UNION ALL SELECT subject_type FROM audit_bulk_items`)).toEqual([
      { subject_type: 'posts' },
      { subject_type: 'posts' },
    ]);

    expect((await query<{ n: number }>(`SELECT count(*)::int AS n FROM posts WHERE heading LIKE 'note %'`))[0]!.n).toBe(500);
    expect(
      (
        await query<{ n: number }>(
          `SELECT count(*)::int AS n FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.body = 'comment on ' || p.heading`,
        )
      )[0]!.n,
    ).toBe(500);
    expect(
      (await query(`SELECT indexname FROM pg_indexes WHERE tablename = 'posts' ORDER BY indexname`)).map((r) => r['indexname']),
    ).toEqual(['posts_pkey', 'posts_state_idx']);
    await expect(postgresPoolOf(database).query(`INSERT INTO posts (heading, state) VALUES ('x', 'bogus')`)).rejects.toThrow(
      /posts_state_check/,
    );
    // The foreign key followed the table: deleting a post cascades to its comments.
    await postgresPoolOf(database).query('DELETE FROM posts WHERE id = 1');
    expect((await query<{ n: number }>(`SELECT count(*)::int AS n FROM comments`))[0]!.n).toBe(499);

    // renamedFrom left in the YAML is ignored once applied; the snapshot matches the migrations.
    expect((await generate({ root: project.root })).changed).toEqual([]);
    const snapshot = await readFile(join(project.root, 'generated', 'schema.snapshot.json'), 'utf8');
    expect((await generate({ root: project.root, rebuildSnapshot: true })).ok).toBe(true);
    expect(await readFile(join(project.root, 'generated', 'schema.snapshot.json'), 'utf8')).toBe(snapshot);
  });

  it('reports a renamedFrom naming nothing in the snapshot at its position, with a suggestion', async () => {
    project = await tempProject({ 'schema/blog.yaml': BLOG('notes', 'title:  { type: string, max: 200 }') });
    await generateOk();
    await project.write('schema/blog.yaml', BLOG('notes', 'heading: { type: string, max: 200, renamedFrom: titel }'));
    const result = await generate({ root: project.root });
    expect(result.diagnostics.map(formatDiagnostic)).toEqual([
      'schema/blog.yaml:6:55: resources.Post.fields.heading.renamedFrom: column "titel" is not in table notes of the snapshot (did you mean "title"?), so there is nothing to rename to "heading"; name the column as the last migration left it (columns no longer declared: title), or remove "renamedFrom"',
    ]);
    await project.write('schema/blog.yaml', BLOG('posts', 'title:  { type: string, max: 200 }', '    renamedFrom: note\n'));
    expect((await generate({ root: project.root })).diagnostics.map(formatDiagnostic)).toEqual([
      'schema/blog.yaml:4:18: resources.Post.renamedFrom: table "note" is not in the snapshot (did you mean "notes"?), so there is nothing to rename to "posts"; name the table as the last migration left it (tables no longer declared: notes), or remove "renamedFrom"',
    ]);
  });
});

/**
 * Draft migrations (docs/generator.md "Draft migrations"): the migration a
 * `generate({ draftMigration: true })` run writes (`make:resource`) takes
 * the next changes into itself, under its number, until the migrations are
 * applied (`endDraftMigrations`), its file is edited, or another migration
 * follows it.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { endDraftMigrations } from '../../generator/write/draft-migration.js';
import { tempProject, type TempProject } from './support.js';

const projects: TempProject[] = [];
afterAll(async () => {
  for (const p of projects) await p.remove();
});

const NOTE = `resources:
  Note:
    table: notes
    fields:
      id: { type: bigint, primaryKey: true, generated: true }
`;
const post = (fields: string, name = 'Post', table = 'posts') => `resources:
  ${name}:
    table: ${table}
    fields:
      id: { type: bigint, primaryKey: true, generated: true }
${fields}`;

/** A project (with a node_modules folder, where the draft record lives) whose first migration is generated and applied. */
async function project(): Promise<TempProject> {
  const p = await tempProject({ 'schema/notes.yaml': NOTE });
  projects.push(p);
  await mkdir(join(p.root, 'node_modules'));
  expect((await generate({ root: p.root })).ok).toBe(true);
  return p;
}

const migrations = async (p: TempProject) => (await readdir(join(p.root, 'generated/migrations'))).sort();
const migration = (p: TempProject, name: string) => readFile(join(p.root, 'generated/migrations', name), 'utf8');
const snapshot = async (p: TempProject) =>
  JSON.parse(await readFile(join(p.root, 'generated/schema.snapshot.json'), 'utf8')) as { lastMigration: string | null };

describe('generate | draft migrations', () => {
  it('folds the next changes into the draft, under its number, as long as it is one; then appends', async () => {
    const p = await project();
    await p.write('schema/posts.yaml', post('      title: { type: string, max: 200 }\n'));
    const made = await generate({ root: p.root, draftMigration: true });
    expect(made.draft).toBe('generated/migrations/0002_create_posts.sql');
    expect(await migrations(p)).toEqual(['0001_create_notes.sql', '0002_create_posts.sql']);

    await p.write('schema/posts.yaml', post('      title: { type: string, max: 200 }\n      body: { type: text, nullable: true }\n'));
    const folded = await generate({ root: p.root });
    expect(folded.ok).toBe(true);
    expect(folded.changed).toContain('generated/migrations/0002_create_posts.sql');
    expect(await migrations(p)).toEqual(['0001_create_notes.sql', '0002_create_posts.sql']);
    expect(await migration(p, '0002_create_posts.sql')).toMatch(
      /CREATE TABLE "posts" \([^;]*"title" varchar\(200\) NOT NULL,\s*"body" text/,
    );
    expect(folded.draft).toBe('generated/migrations/0002_create_posts.sql');
    expect((await generate({ root: p.root, check: true })).changed).toEqual([]);

    // Applied: the next change is a migration of its own, the draft stays as it is.
    const applied = await migration(p, '0002_create_posts.sql');
    await endDraftMigrations(p.root);
    await p.write(
      'schema/posts.yaml',
      post(
        '      title: { type: string, max: 200 }\n      body: { type: text, nullable: true }\n      views: { type: integer, default: 0 }\n',
      ),
    );
    const appended = await generate({ root: p.root });
    expect(appended.draft).toBeUndefined();
    expect(await migrations(p)).toEqual(['0001_create_notes.sql', '0002_create_posts.sql', '0003_add_posts_views.sql']);
    expect(await migration(p, '0002_create_posts.sql')).toBe(applied);
  });

  it('a renamed resource renames the draft file; a removed one removes it and the snapshot goes back', async () => {
    const p = await project();
    await p.write('schema/posts.yaml', post(''));
    await generate({ root: p.root, draftMigration: true });
    await p.write('schema/posts.yaml', post('', 'Article', 'articles'));
    const renamed = await generate({ root: p.root });
    expect(renamed.changed).toEqual(
      expect.arrayContaining(['generated/migrations/0002_create_posts.sql', 'generated/migrations/0002_create_articles.sql']),
    );
    expect(await migrations(p)).toEqual(['0001_create_notes.sql', '0002_create_articles.sql']);
    expect((await snapshot(p)).lastMigration).toBe('0002_create_articles');

    await writeFile(join(p.root, 'schema/posts.yaml'), '');
    const removed = await generate({ root: p.root });
    expect(removed.ok).toBe(true);
    expect(await migrations(p)).toEqual(['0001_create_notes.sql']);
    expect((await snapshot(p)).lastMigration).toBe('0001_create_notes');
    expect(removed.draft).toBeUndefined();
    // Nothing left to fold: the next change is appended.
    await p.write('schema/posts.yaml', post(''));
    await generate({ root: p.root });
    expect(await migrations(p)).toEqual(['0001_create_notes.sql', '0002_create_posts.sql']);
  });

  it('is no draft once edited by hand, nor once another migration follows it', async () => {
    const edited = await project();
    await edited.write('schema/posts.yaml', post(''));
    await generate({ root: edited.root, draftMigration: true });
    const file = join(edited.root, 'generated/migrations/0002_create_posts.sql');
    await writeFile(file, `${await readFile(file, 'utf8')}-- reviewed\n`);
    await edited.write('schema/posts.yaml', post('      title: { type: string, nullable: true }\n'));
    await generate({ root: edited.root });
    expect(await migrations(edited)).toEqual(['0001_create_notes.sql', '0002_create_posts.sql', '0003_add_posts_title.sql']);
    expect(await readFile(file, 'utf8')).toMatch(/-- reviewed\n$/);

    // A migration after the draft (a hand-written one): the draft is history.
    const followed = await project();
    await followed.write('schema/posts.yaml', post(''));
    await generate({ root: followed.root, draftMigration: true });
    await followed.write('generated/migrations/0003_by_hand.sql', 'SELECT 1;\n');
    await followed.write('schema/posts.yaml', post('      title: { type: string, nullable: true }\n'));
    expect((await generate({ root: followed.root })).ok).toBe(true);
    expect(await migrations(followed)).toEqual([
      '0001_create_notes.sql',
      '0002_create_posts.sql',
      '0003_by_hand.sql',
      '0004_add_posts_title.sql',
    ]);

    // Without a draft record (no node_modules): plain append, as before.
    const plain = await tempProject({ 'schema/notes.yaml': NOTE });
    projects.push(plain);
    await generate({ root: plain.root });
    await plain.write('schema/posts.yaml', post(''));
    expect((await generate({ root: plain.root, draftMigration: true })).draft).toBeUndefined();
    await plain.write('schema/posts.yaml', post('      title: { type: string, nullable: true }\n'));
    await generate({ root: plain.root });
    expect(await migrations(plain)).toEqual(['0001_create_notes.sql', '0002_create_posts.sql', '0003_add_posts_title.sql']);
  });
});

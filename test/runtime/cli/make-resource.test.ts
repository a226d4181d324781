/**
 * `bindery make:resource <Name>` (docs/cli.md): writes the schema file and
 * typed handlers, wires them into app/handlers/index.ts, generates; a taken
 * or invalid name is exit 2 with nothing written.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { resourceNames } from '../../../runtime/cli/commands/make-resource.js';
import { createTestDatabase } from '../../support/database.js';
import { runCli, runCliInProcess } from './run-cli.js';

const root = await mkdtemp(join(tmpdir(), 'bindery-make-resource-'));
afterAll(() => rm(root, { recursive: true, force: true }));

const INDEX = `import type { Handlers } from '../../generated/handlers.js';
import { notesHandlers } from './notes.js';

export const handlers = {
  ...notesHandlers,
} satisfies Handlers;
`;

async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.push(join(e.parentPath, e.name).slice(dir.length + 1));
  return out.sort();
}

describe('bindery make:resource', () => {
  it('derives table, route and path names', () => {
    expect(resourceNames('BlogPost')).toMatchObject({
      table: 'blog_posts',
      routes: 'blogPosts',
      path: 'blog-posts',
      singular: 'blog post',
    });
    expect(resourceNames('Category')).toMatchObject({ table: 'categories', routes: 'categories' });
    expect(resourceNames('blog')).toEqual({ error: '"blog" is not a resource name: use PascalCase letters and digits, e.g. BlogPost' });
  });

  it('writes the schema and handlers, wires them, generates; then refuses the same name and a bad one with nothing written', async () => {
    await mkdir(join(root, 'schema'), { recursive: true });
    await mkdir(join(root, 'app/handlers'), { recursive: true });
    await writeFile(join(root, 'package.json'), '{ "name": "demo", "type": "module", "private": true }\n');
    await writeFile(
      join(root, 'schema/notes.yaml'),
      'resources:\n  Note:\n    table: notes\n    fields:\n      id: { type: bigint, primaryKey: true, generated: true }\n',
    );
    await writeFile(join(root, 'app/handlers/index.ts'), INDEX);

    const made = await runCli(['make:resource', 'BlogPost'], { cwd: root });
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain(
      'Created schema/blog-posts.yaml and app/handlers/blog-posts.ts, added blogPostsHandlers to app/handlers/index.ts.',
    );
    const index = await readFile(join(root, 'app/handlers/index.ts'), 'utf8');
    expect(index).toContain("import { blogPostsHandlers } from './blog-posts.js';");
    expect(index).toContain('  ...blogPostsHandlers,\n} satisfies Handlers;');
    expect(await readFile(join(root, 'generated/handlers.ts'), 'utf8')).toContain("'blogPosts.update': RouteHandler<BlogPostsUpdateInput");
    expect((await tree(join(root, 'generated'))).filter((f) => f.startsWith('migrations/'))).toEqual([
      expect.stringMatching(/^migrations\/0001_.*blog_posts.*\.sql$/),
    ]);

    const before = await tree(root);
    for (const [args, message] of [
      [['make:resource', 'BlogPost'], 'make:resource: schema/blog-posts.yaml exists already; nothing written.'],
      [['make:resource', 'Note2', '--nope'], 'Unknown Syntax Error'],
      [['make:resource', 'blog_post'], 'make:resource: "blog_post" is not a resource name'],
    ] as const) {
      const refused = await runCli(args, { cwd: root });
      expect(refused.code).toBe(2);
      expect(`${refused.stderr}${refused.stdout}`).toContain(message);
    }
    await writeFile(
      join(root, 'schema/extra.yaml'),
      'resources:\n  Tag:\n    table: tags\n    fields:\n      id: { type: bigint, primaryKey: true, generated: true }\n',
    );
    const taken = await runCli(['make:resource', 'Tag'], { cwd: root });
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('a resource Tag exists already (schema/extra.yaml)');
    expect(await tree(root)).toEqual([...before, 'schema/extra.yaml'].sort());
  });

  it('its migration is a draft: "edit the fields, then generate" rewrites it; once migrated, the next change is a migration of its own', async () => {
    const project = await mkdtemp(join(tmpdir(), 'bindery-make-draft-'));
    const database = await createTestDatabase('make_draft');
    try {
      const runtime = fileURLToPath(new URL('../../../runtime/app/index.js', import.meta.url));
      await mkdir(join(project, 'schema'), { recursive: true });
      await mkdir(join(project, 'app/handlers'), { recursive: true });
      await mkdir(join(project, 'node_modules'), { recursive: true });
      await writeFile(join(project, 'package.json'), '{ "name": "drafts", "type": "module", "private": true }\n');
      await writeFile(
        join(project, 'schema/notes.yaml'),
        'resources:\n  Note:\n    table: notes\n    fields:\n      id: { type: bigint, primaryKey: true, generated: true }\n',
      );
      await writeFile(join(project, 'app/handlers/index.ts'), INDEX);
      // An app with no routes: only its migrations matter here.
      await writeFile(
        join(project, 'app/main.ts'),
        `import { fileURLToPath } from 'node:url';\nimport { defineApp } from ${JSON.stringify(runtime)};\nexport default defineApp({ name: 'drafts', root: fileURLToPath(new URL('..', import.meta.url)), routes: [], handlers: {}, migrations: [{ source: 'app', dir: 'generated/migrations' }] });\n`,
      );
      const env = { DATABASE_URL: database.url, LOG_LEVEL: 'silent', APP_KEY: `base64:${Buffer.alloc(32, 3).toString('base64')}` };
      const cli = (...args: string[]) => runCliInProcess(args, { cwd: project, env });
      expect((await cli('generate')).code).toBe(0);

      const made = await cli('make:resource', 'BlogPost');
      expect(made.stderr).toBe('');
      expect(made.code).toBe(0);
      expect(made.stdout).toContain(
        'Next: edit the fields in schema/blog-posts.yaml, run `npx bindery generate` (it rewrites generated/migrations/0002_create_blog_posts.sql with them until `npx bindery migrate` has applied it), then `npx bindery migrate` (or restart `npx bindery dev`).\n',
      );
      // As the hint says: edit the fields, then generate.
      const schemaFile = join(project, 'schema/blog-posts.yaml');
      const schema = await readFile(schemaFile, 'utf8');
      const withTitle = schema.replace(
        /( +)name: .*\n/,
        (line, indent: string) => `${line}${indent}title: { type: string, max: 120, nullable: true }\n`,
      );
      await writeFile(schemaFile, withTitle);
      expect((await cli('generate')).code).toBe(0);
      const migrations = async () => (await readdir(join(project, 'generated/migrations'))).sort();
      expect(await migrations()).toEqual(['0001_create_notes.sql', '0002_create_blog_posts.sql']);

      const migrated = await cli('migrate');
      expect(migrated.stderr).toBe('');
      expect(migrated.code).toBe(0);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const columns = await client.query<{ column_name: string }>(
          "select column_name from information_schema.columns where table_name = 'blog_posts' order by ordinal_position",
        );
        expect(columns.rows.map((r) => r.column_name)).toEqual(['id', 'name', 'title', 'created_at']);
      } finally {
        await client.end();
      }

      // Applied now: another edit gets its own migration, 0002 stays as it was applied.
      const applied = await readFile(join(project, 'generated/migrations/0002_create_blog_posts.sql'), 'utf8');
      await writeFile(
        schemaFile,
        withTitle.replace(/( +)title: .*\n/, (line, indent: string) => `${line}${indent}views: { type: integer, default: 0 }\n`),
      );
      expect((await cli('generate')).code).toBe(0);
      expect(await migrations()).toEqual(['0001_create_notes.sql', '0002_create_blog_posts.sql', '0003_add_blog_posts_views.sql']);
      expect(await readFile(join(project, 'generated/migrations/0002_create_blog_posts.sql'), 'utf8')).toBe(applied);
      expect((await cli('migrate')).code).toBe(0);
    } finally {
      await database.drop();
      await rm(project, { recursive: true, force: true });
    }
  }, 120_000);
});

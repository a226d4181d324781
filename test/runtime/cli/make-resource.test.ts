/**
 * `bindery make:resource <Name>` (docs/cli.md): writes the schema file and
 * typed handlers, wires them into app/handlers/index.ts, generates; a taken
 * or invalid name is exit 2 with nothing written.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resourceNames } from '../../../runtime/cli/commands/make-resource.js';
import { runCli } from './run-cli.js';

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
});

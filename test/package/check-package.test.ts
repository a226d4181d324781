/**
 * The public package check (scripts/check-package.mjs, docs/package.md):
 * this repository passes it, and a package with a missing entry file, an
 * unreachable public folder, consumer code importing internals, or an entry
 * whose types do not resolve fails it with one line per problem.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const REPO = join(import.meta.dirname, '../..');
const SCRIPT = join(REPO, 'scripts/check-package.mjs');
const temps: string[] = [];
afterAll(async () => {
  for (const t of temps) await rm(t, { recursive: true, force: true });
});

async function check(root?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const args = root === undefined ? [SCRIPT] : [SCRIPT, '--root', root];
  try {
    const { stdout, stderr } = await run(process.execPath, args, { encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function fixture(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'bindery-pkgcheck-'));
  temps.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

const entry = (name: string) => ({
  'bindery-source': `./runtime/${name}/index.ts`,
  types: `./dist/runtime/${name}/index.d.ts`,
  default: `./dist/runtime/${name}/index.js`,
});

describe('scripts/check-package.mjs', () => {
  it('passes on this repository', async () => {
    const result = await check();
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^package check: \d+ entries ok/);
    expect(result.code).toBe(0);
  });

  it('reports a missing entry file, an unreachable public folder and consumer code importing internals', async () => {
    const root = await fixture({
      'package.json': JSON.stringify({
        name: 'bindery',
        type: 'module',
        exports: { './a': entry('a'), './gone': entry('gone'), './runtime/*.js': './runtime/*.ts' },
      }),
      'runtime/a/index.ts': 'export const a = 1;\n',
      'runtime/b/index.ts': 'export const b = 2;\n',
      'app/main.ts': "import { b } from '../runtime/b/index.js';\nimport { c } from 'bindery/nope';\nexport { b, c };\n",
    });
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      'exports["./gone"].bindery-source: ./runtime/gone/index.ts does not exist',
      'exports["./runtime/*.js"]: a wildcard exposes internals; list each entry',
      'runtime/b/index.ts is not reachable from an entry: add "./b" to exports, re-export it from its parent\'s index.ts, or list "b" in bindery.internal in package.json',
      "app/main.ts: imports '../runtime/b/index.js' by a relative path; use bindery/<entry> (node scripts/rewrite-imports.mjs)",
      "app/main.ts: 'bindery/nope' is not an entry of bindery's exports",
      'package check: 5 problems',
    ]);
  });

  it('reports an entry whose declared types do not resolve', async () => {
    const root = await fixture({
      'package.json': JSON.stringify({ name: 'bindery', type: 'module', exports: { './a': entry('a') } }),
      'runtime/a/index.ts': "export { missing } from './nowhere.js';\n",
    });
    const result = await check(root);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^types: .*runtime\/a\/index\.ts\(1,\d+\): error TS2307: Cannot find module '\.\/nowhere\.js'/m);
  });

  it("reports a shipped doc linking to a file the package does not ship, or to nothing; README.md may link to the repository's Markdown", async () => {
    const root = await fixture({
      'package.json': JSON.stringify({ name: 'bindery', type: 'module', files: ['docs', 'templates', 'generator/language/x.json'] }),
      'docs/guide.md': [
        '# Guide',
        'The [schema](../schema/notes.yaml), the [fixtures](../test/fixtures/), the [language](../generator/language/x.json),',
        'the [starter](../templates/notes.yaml.tmpl), [another page](other.md#a-section), [nothing](gone.md), [a site](https://example.com).',
        '```',
        '[in a code block](../schema/notes.yaml)',
        '```',
        'and `[in inline code](../schema/notes.yaml)`.',
        '',
      ].join('\n'),
      'docs/other.md': '# Other\n',
      'README.md': '[architecture](ARCHITECTURE.md), [the runtime](runtime/a.ts), [docs](docs/guide.md)\n',
      'ARCHITECTURE.md': '# Architecture\n',
      'runtime/a.ts': 'export {};\n',
      'schema/notes.yaml': 'routes: {}\n',
      'test/fixtures/a.yaml': '{}\n',
      'generator/language/x.json': '{}\n',
      'templates/notes.yaml.tmpl': '\n',
    });
    const result = await check(root);
    expect(result.code).toBe(1);
    const files = 'package.json "files": docs, templates, generator/language/x.json';
    expect(result.stderr.split('\n').filter(Boolean)).toEqual([
      `README.md:1: links to runtime/a.ts, which the package does not ship (${files})`,
      `docs/guide.md:2: links to ../schema/notes.yaml, which the package does not ship (${files})`,
      `docs/guide.md:2: links to ../test/fixtures/, which the package does not ship (${files})`,
      'docs/guide.md:3: links to gone.md, which does not exist',
      'package check: 4 problems',
    ]);
  });
});

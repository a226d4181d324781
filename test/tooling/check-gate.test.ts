/**
 * The `npm run check` gate fails on what it is there to catch: an import
 * cycle or an upward import between layers (dependency-cruiser), an
 * unformatted file (Biome format), a lint error (Biome lint), an entry
 * exporting a name nobody uses and docs/package.md does not list (the
 * package check), and `throw new Error(` in app/, a function over 120
 * lines or more explicit `any` than the budget (the source check). Each tool runs with the repository's own
 * configuration and the command of its package.json script, on a small
 * project in a temporary folder.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const scripts = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A throwaway project with the repository's tool configuration and the given files. */
function project(files: Readonly<Record<string, string>>): string {
  const dir = mkdtempSync(join(tmpdir(), 'bindery-gate-'));
  dirs.push(dir);
  for (const name of [
    'biome.json',
    '.dependency-cruiser.cjs',
    'tsconfig.json',
    'scripts/check-source.mjs',
    'scripts/check-package.mjs',
    'scripts/doc-links.mjs',
  ]) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    cpSync(join(repo, name), join(dir, name));
  }
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // Biome reads .gitignore through git (vcs.useIgnoreFile): make the folder a repository of its own.
  writeFileSync(join(dir, '.gitignore'), 'node_modules/\n');
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** Run an npm script's command (binaries from node_modules/.bin) in `cwd`; its exit code and output. */
function run(script: string, cwd: string): Promise<{ code: number; output: string }> {
  const command = scripts[script];
  if (command === undefined) throw new Error(`package.json has no "${script}" script`);
  return new Promise((resolve) => {
    execFile(
      'sh',
      ['-c', command],
      { cwd, env: { ...process.env, PATH: `${join(repo, 'node_modules', '.bin')}:${process.env.PATH}`, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr });
      },
    );
  });
}

const CLEAN = {
  'generator/index.ts':
    "import { base } from '../runtime/errors/base.js';\n\n/** The generator's view of the base. */\nexport const generated = base;\n",
  'runtime/errors/base.ts': '/** A base value. */\nexport const base = 1;\n',
  'runtime/http/server.ts': "import { base } from '../errors/base.js';\n\n/** The base, doubled. */\nexport const doubled = base * 2;\n",
};

describe('npm run check | fails on a planted problem', () => {
  it('passes a clean project (the control)', async () => {
    const dir = project(CLEAN);
    for (const script of ['check:layers', 'lint', 'format:check']) {
      const result = await run(script, dir);
      expect(result.code, `${script}: ${result.output}`).toBe(0);
    }
  }, 60_000);

  it('a cycle between two modules', async () => {
    const dir = project({
      ...CLEAN,
      'runtime/jobs/a.ts': "import { b } from './b.js';\n\n/** A. */\nexport const a = (): number => b() + 1;\n",
      'runtime/jobs/b.ts': "import { a } from './a.js';\n\n/** B. */\nexport const b = (): number => (a.length > 0 ? 1 : 0);\n",
    });
    const result = await run('check:layers', dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('no-circular');
  }, 60_000);

  it('a lower layer importing a higher one', async () => {
    const dir = project({
      ...CLEAN,
      'runtime/errors/upward.ts': "import { doubled } from '../http/server.js';\n\n/** Upward. */\nexport const upward = doubled;\n",
    });
    const result = await run('check:layers', dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('layer-errors');
  }, 60_000);

  it('an unformatted file', async () => {
    const dir = project({ ...CLEAN, 'runtime/errors/ugly.ts': '/** Ugly. */\nexport const ugly   =  { a:1,b : "two" }\n' });
    const result = await run('format:check', dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('ugly.ts');
  }, 60_000);

  it('a lint error', async () => {
    const dir = project({
      ...CLEAN,
      'runtime/errors/loose.ts': '/** Loose. */\nexport function loose(value: any): any {\n  return value;\n}\n',
    });
    const result = await run('lint', dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('noExplicitAny');
  }, 60_000);

  it('an entry exporting a name that no consumer uses and docs/package.md does not list', async () => {
    const entry = {
      'bindery-source': './runtime/errors/index.ts',
      types: './dist/runtime/errors/index.d.ts',
      default: './dist/runtime/errors/index.js',
    };
    const files = {
      ...CLEAN,
      'package.json': JSON.stringify({ name: 'bindery', type: 'module', exports: { './errors': entry } }),
      'runtime/errors/index.ts': "export { base } from './base.js';\nexport { planted } from './planted.js';\n",
      'runtime/errors/planted.ts': '/** Planted. */\nexport const planted = 2;\n',
      'app/main.ts': "import { base } from 'bindery/errors';\n\n/** Uses base. */\nexport const uses = base;\n",
      'docs/package.md': '# The bindery package\n\n## What each entry exports\n\n### `bindery/errors`\n\nErrors.\n\n`base`\n\n## Next\n',
    };
    const listed = await run('check:package', project({ ...files, 'runtime/errors/index.ts': "export { base } from './base.js';\n" }));
    expect(listed.code, listed.output).toBe(0);
    const result = await run('check:package', project(files));
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('bindery/errors exports planted, which no consumer uses and docs/package.md does not list');
  }, 60_000);

  it('throw new Error( in app/', async () => {
    const dir = project({
      ...CLEAN,
      'app/handlers/notes.ts': "/** A handler. */\nexport function notes(): never {\n  throw new Error('no');\n}\n",
    });
    const result = await run('check:source', dir);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('app/handlers/notes.ts:3: throw new Error( in app/');
  }, 60_000);

  it('a function over 120 lines, and passes one of 120', async () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  total += ${i};`).join('\n');
    // 130 lines: the signature, 127 statements and the two around them, the closing brace.
    const long = `/** Long. */\nexport function long(): number {\n  let total = 0;\n${body(126)}\n  return total;\n}\n`;
    const fine = `/** Fine. */\nexport function fine(): number {\n  let total = 0;\n${body(116)}\n  return total;\n}\n`;
    const passing = await run('check:source', project({ ...CLEAN, 'runtime/jobs/fine.ts': fine }));
    expect(passing.code, passing.output).toBe(0);
    const result = await run('check:source', project({ ...CLEAN, 'runtime/jobs/long.ts': long }));
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('runtime/jobs/long.ts:2: long is 130 lines (at most 120');
  }, 60_000);

  it('more than 15 explicit `any` besides the named aliases, and passes 15', async () => {
    const anys = (n: number) =>
      Array.from(
        { length: n },
        (_, i) => `// biome-ignore lint/suspicious/noExplicitAny: planted.\nexport type Loose${i} = (value: any) => void;\n`,
      ).join('');
    // A named alias's definition is not counted.
    const alias = '// biome-ignore lint/suspicious/noExplicitAny: the alias.\nexport type AnyKysely = any;\n';
    const passing = await run('check:source', project({ ...CLEAN, 'runtime/jobs/loose.ts': `${alias}${anys(15)}` }));
    expect(passing.code, passing.output).toBe(0);
    expect(passing.output).toContain('15 explicit `any` of 15');
    const result = await run('check:source', project({ ...CLEAN, 'runtime/jobs/loose.ts': `${alias}${anys(16)}` }));
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('16 explicit `any` (at most 15 besides the named aliases AnyKysely, UntypedTables,');
    expect(result.output).toContain('runtime/jobs/loose.ts:4, runtime/jobs/loose.ts:6');
  }, 60_000);
});

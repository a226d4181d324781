/**
 * `bindery build` replaces build/ only when the new build succeeded: a type
 * error, or a compiler that cannot start, leaves the previous build in place
 * (docs/deploy.md "The production build").
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../cli/run-cli.js';

describe('bindery build | a failed build keeps the previous one', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'bindery-build-'));
    await mkdir(join(root, 'app', 'views'), { recursive: true });
    await writeFile(join(root, 'package.json'), '{ "name": "built", "type": "module" }\n');
    await writeFile(join(root, 'app', 'main.ts'), 'export const answer: number = 42;\n');
    await writeFile(join(root, 'app', 'views', 'home.eta'), '<p>home</p>\n');
    const first = await runCliInProcess(['build'], { cwd: root });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
  }, 60_000);
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  async function buildTree(): Promise<Record<string, string | undefined>> {
    const read = (rel: string) => readFile(join(root, 'build', rel), 'utf8').catch(() => undefined);
    return { main: await read('app/main.js'), view: await read('app/views/home.eta'), manifest: await read('bindery-build.json') };
  }

  it('a type error fails the build (exit 1) and leaves build/ as it was', async () => {
    const before = await buildTree();
    expect(before.main).toContain('answer = 42');
    await writeFile(join(root, 'app', 'main.ts'), "export const answer: number = 'forty-two';\n");
    const failed = await runCliInProcess(['build'], { cwd: root });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/The build failed: tsc reported\n\s+app\/main\.ts\(1,14\): error TS2322/);
    expect(failed.stderr).toContain('build/ keeps the previous build.');
    expect(await buildTree()).toEqual(before);
  }, 60_000);

  it('a compiler that cannot start fails the build and leaves build/ as it was; the next good build replaces it', async () => {
    const before = await buildTree();
    // The project's own TypeScript, broken: its tsc exits at once.
    const typescript = join(root, 'node_modules', 'typescript');
    await mkdir(join(typescript, 'bin'), { recursive: true });
    await writeFile(join(typescript, 'package.json'), '{ "name": "typescript", "version": "0.0.0" }\n');
    await writeFile(join(typescript, 'bin', 'tsc'), "process.stderr.write('tsc: cannot start\\n'); process.exit(1);\n");
    await writeFile(join(root, 'app', 'main.ts'), 'export const answer: number = 43;\n');
    const failed = await runCliInProcess(['build'], { cwd: root });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('tsc: cannot start');
    expect(await buildTree()).toEqual(before);
    expect(existsSync(join(root, '.build.building-' + process.pid)), 'no staging folder left').toBe(false);

    await rm(typescript, { recursive: true });
    await mkdir(join(root, 'build', '.data'), { recursive: true });
    await writeFile(join(root, 'build', '.data', 'PG_VERSION'), '17\n');
    const rebuilt = await runCliInProcess(['build'], { cwd: root });
    expect(rebuilt.code).toBe(0);
    expect((await buildTree()).main).toContain('answer = 43');
    expect(await readFile(join(root, 'build', '.data', 'PG_VERSION'), 'utf8'), "an embedded PostgreSQL's data is kept").toBe('17\n');
  }, 60_000);
});

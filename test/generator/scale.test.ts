/**
 * The generator at the size of a real project: a synthetic schema of 200
 * resources and 1,000 routes covering every language feature
 * (test/support/synthetic-schema.ts) generates without diagnostics, its
 * output type-checks under strict settings, `--check` passes on it with and
 * without the run record, and a hand-edited validator and a schema edit are
 * caught. Not timed: timing is
 * `npm run bench -- generator` (docs/benchmarks.md).
 *
 * And the emitters' text is already formatted: the TypeScript formatter
 * leaves every generated `.ts` file of a smaller synthetic schema unchanged
 * (the generator no longer runs it).
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { formatTs } from '../../generator/emit/ts-source.js';
import { readTree } from '../../generator/write/disk-tree.js';
import { writeSyntheticSchema } from '../support/synthetic-schema.js';
import { strictTsconfig } from '../support/strict-tsconfig.js';
import { REPO, tempProject, type TempProject } from './support.js';

const run = promisify(execFile);
const projects: TempProject[] = [];
afterAll(async () => {
  for (const p of projects) await p.remove();
});

describe('generate | 1,000 routes', () => {
  it('generates, type-checks and passes --check', { timeout: 240_000 }, async () => {
    const project = await tempProject({ 'package.json': '{ "type": "module", "private": true }\n' });
    projects.push(project);
    await writeSyntheticSchema(join(project.root, 'schema'), { resources: 200, routes: 1000 });
    await mkdir(join(project.root, 'node_modules'));

    const first = await generate({ root: project.root });
    expect(first.diagnostics).toEqual([]);
    expect(first.changed).toContain('generated/routes.ts');
    const routes = await readFile(join(project.root, 'generated/routes.ts'), 'utf8');
    expect(routes.match(/^ {4}name: '/gm)?.length).toBe(1000);

    expect(await generate({ root: project.root, check: true })).toEqual({ ok: true, diagnostics: [], changed: [], diff: '', warnings: [] });
    expect(await generate({ root: project.root, check: true, useRecord: false })).toEqual({
      ok: true,
      diagnostics: [],
      changed: [],
      diff: '',
      warnings: [],
    });

    // Without the record, --check takes fingerprinted validator code from disk: a hand edit in it is still seen.
    const validators = join(project.root, 'generated/validators.ts');
    const written = await readFile(validators, 'utf8');
    await writeFile(validators, written.replace('params: { limit: 1 }', 'params: { limit: 2 }'));
    expect((await generate({ root: project.root, check: true, useRecord: false })).changed).toEqual(['generated/validators.ts']);
    await writeFile(validators, written);

    // A schema edit is seen through the record.
    const file = join(project.root, 'schema/01-res0001.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('summary: Create a Res0001.', 'summary: Create one Res0001.'));
    const stale = await generate({ root: project.root, check: true });
    expect(stale.changed).toEqual(['generated/client.ts', 'generated/handlers.ts', 'generated/openapi.json']);

    await writeFile(
      join(project.root, 'tsconfig.json'),
      strictTsconfig({
        // The runtime's HTTP entry first, as in the golden test: the generated
        // `declare module 'bindery/http'` merges only when the entry's source is read first.
        files: [join(REPO, 'runtime/http/index.ts')],
        include: ['generated'],
      }),
    );
    await rm(join(project.root, 'node_modules'), { recursive: true });
    await symlink(join(REPO, 'node_modules'), join(project.root, 'node_modules'));
    const tsc = await run(join(REPO, 'node_modules/.bin/tsc'), ['--noEmit', '-p', project.root]).catch((e: { stdout: string }) => e);
    expect(tsc.stdout).toBe('');
  });
});

describe('generate | formatted output', () => {
  it('prints text the TypeScript formatter leaves as it is', { timeout: 60_000 }, async () => {
    const project = await tempProject();
    projects.push(project);
    await writeSyntheticSchema(join(project.root, 'schema'), { resources: 10, routes: 50 });
    expect((await generate({ root: project.root })).diagnostics).toEqual([]);
    const tree = await readTree(join(project.root, 'generated'));
    // The files printed through ts-morph and the validators (the client is plain text of its own emitter's layout).
    const files = [...tree].filter(([path]) => path.endsWith('.ts') && path !== 'client.ts');
    expect(files.map(([path]) => path)).toEqual([
      'audit.ts',
      'factories.ts',
      'handlers.ts',
      'routes.ts',
      'serializers.ts',
      'types.ts',
      'validators.ts',
    ]);
    for (const [path, text] of files) expect({ path, text: formatTs(text) }).toEqual({ path, text });
  });
});
